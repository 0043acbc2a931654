import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps implement it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;

/** A new shared secret in base32, 160 bits like Cognito's `SecretCode`. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(secretBase32),
    digits: DIGITS,
    period: PERIOD_SECONDS,
    algorithm: 'SHA1',
  });
}

/**
 * The time step a code belongs to, or null when it matches none. One step either side of `now`
 * is accepted (clocks on phones drift); the caller refuses steps already used, so a code
 * works once.
 */
export function matchTotpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpFor(secretBase32);
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return totp.counter({ timestamp: now.getTime() }) + delta;
}

/** The code an authenticator app shows at `at` (tests sign in with it). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totpFor(secretBase32).generate({ timestamp: at.getTime() });
}
