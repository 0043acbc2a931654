import { z } from 'zod';

/**
 * A self-hosted proof-of-work challenge in the ALTCHA format: find `number` in 0..maxnumber with
 * SHA-256(salt + number) = challenge. The server signs the challenge and accepts each solution once.
 */
export const ZCaptchaChallenge = z
  .object({
    algorithm: z.literal('SHA-256'),
    challenge: z.string(),
    maxnumber: z.number().int(),
    salt: z.string(),
    signature: z.string(),
  })
  .meta({ id: 'CaptchaChallenge' });
export type TCaptchaChallenge = z.infer<typeof ZCaptchaChallenge>;

/** What the browser sends back (base64 of this JSON), as `captcha` in the sign-up's validation data. */
export const ZCaptchaSolution = ZCaptchaChallenge.omit({ maxnumber: true }).extend({ number: z.number().int() });
export type TCaptchaSolution = z.infer<typeof ZCaptchaSolution>;

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Solves a challenge by trying every number in turn (the browser's side of the proof of work;
 * the server picked a number no larger than `maxnumber`). Returns the base64 payload to submit.
 */
export async function solveCaptcha(
  challenge: TCaptchaChallenge,
  onProgress?: (tried: number) => void,
): Promise<string> {
  for (let number = 0; number <= challenge.maxnumber; number++) {
    if ((await sha256Hex(`${challenge.salt}${number}`)) === challenge.challenge) {
      const solution: TCaptchaSolution = {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        number,
        salt: challenge.salt,
        signature: challenge.signature,
      };
      return btoa(JSON.stringify(solution));
    }
    if (onProgress && number % 1000 === 0) onProgress(number);
  }
  throw new Error('The captcha challenge has no solution');
}
