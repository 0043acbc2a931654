import { Secret, TOTP } from 'otpauth';

/**
 * The authenticator app's code for a secret. `nextWindow` gives the code of the next 30-second
 * step, for a second sign-in inside the same step (a code is accepted once).
 */
export function totpCode(secret: string, nextWindow = false): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(secret.replace(/\s+/g, '')),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  });
  return totp.generate({ timestamp: Date.now() + (nextWindow ? 30_000 : 0) });
}

/** Waits until the current 30-second step has more than `seconds` left, so a code stays valid. */
export async function waitForFreshTotpWindow(seconds = 8): Promise<void> {
  const left = 30 - (Math.floor(Date.now() / 1000) % 30);
  if (left <= seconds) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
}
