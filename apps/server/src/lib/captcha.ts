import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { ZCaptchaSolution, type TCaptchaChallenge } from '@connect/shared';
import type { Config } from '../config.ts';
import { resolveSecretKey } from './secret-box.ts';

/**
 * The sign-up captcha. By default a self-hosted proof of work in the ALTCHA format: the server
 * picks a secret number, publishes SHA-256(salt + number) with an HMAC signature, and the browser
 * finds the number by trying them all (packages/shared/src/captcha.ts). Nothing is stored when a
 * challenge is issued; the signature proves it came from us and the salt carries its expiry.
 * With reCAPTCHA keys configured, Google verifies the token instead.
 */

/** The highest secret number: about 25 000 hashes on average, well under a second in a browser. */
export const CAPTCHA_MAX_NUMBER = 50_000;
/** How long a challenge (and so its solution) is valid. */
export const CAPTCHA_TTL_SECONDS = 10 * 60;
/** At most this many spent solutions are remembered per node (each until its challenge expires). */
export const CAPTCHA_MAX_REMEMBERED = 50_000;

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The HMAC key, derived from SECRET_KEY so it is never the key that seals secrets at rest. */
export function captchaKey(secretKey: string): Buffer {
  return createHash('sha256').update(`connect:captcha:${secretKey}`).digest();
}

function sign(key: Buffer, challenge: string): string {
  return createHmac('sha256', key).update(challenge).digest('hex');
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The `expires` parameter ALTCHA puts in the salt (`<random hex>?expires=<unix seconds>`). */
function expiresOf(salt: string): number | undefined {
  const query = salt.split('?')[1];
  if (!query) return undefined;
  const value = Number(new URLSearchParams(query).get('expires'));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export function createCaptchaChallenge(
  key: Buffer,
  options: { now?: Date; maxnumber?: number } = {},
): TCaptchaChallenge {
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const maxnumber = options.maxnumber ?? CAPTCHA_MAX_NUMBER;
  const salt = `${randomBytes(12).toString('hex')}?expires=${nowSeconds + CAPTCHA_TTL_SECONDS}`;
  const challenge = sha256Hex(`${salt}${randomInt(0, maxnumber + 1)}`);
  return { algorithm: 'SHA-256', challenge, maxnumber, salt, signature: sign(key, challenge) };
}

export type CaptchaVerifier = {
  /** True when `payload` is a valid solution; a valid solution is spent by this call. */
  verify: (payload: string | undefined) => Promise<boolean>;
};

/**
 * Checks ALTCHA solutions: the signature, the expiry, the hash, and that the solution was not
 * used before.
 *
 * Spent solutions are remembered in this process only, until their challenge expires. On several
 * nodes a solution could therefore be replayed once per node within its ten minutes; that still
 * costs a fresh proof of work per few accounts, which is the point of the captcha. A shared store
 * (Redis, as the rate limits use) would close the gap if that ever matters. The memory is bounded:
 * when it is full of unexpired entries new solutions are refused rather than an unexpired entry
 * forgotten, so a flood can delay sign-ups but never reopen a spent solution.
 */
export class AltchaVerifier implements CaptchaVerifier {
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly key: Buffer,
    private readonly options: { now?: () => Date; maxRemembered?: number } = {},
  ) {}

  async verify(payload: string | undefined): Promise<boolean> {
    const solution = decode(payload);
    if (!solution || solution.algorithm !== 'SHA-256') return false;
    if (!sameHex(solution.signature, sign(this.key, solution.challenge))) return false;
    const nowMs = (this.options.now?.() ?? new Date()).getTime();
    const expires = expiresOf(solution.salt);
    if (expires === undefined || expires * 1000 <= nowMs) return false;
    if (solution.number < 0 || !sameHex(sha256Hex(`${solution.salt}${solution.number}`), solution.challenge)) {
      return false;
    }
    return this.spend(solution.challenge, expires * 1000, nowMs);
  }

  private spend(challenge: string, expiresAtMs: number, nowMs: number): boolean {
    if (this.spent.has(challenge)) return false;
    const max = this.options.maxRemembered ?? CAPTCHA_MAX_REMEMBERED;
    if (this.spent.size >= max) {
      for (const [key, expiry] of this.spent) if (expiry <= nowMs) this.spent.delete(key);
      if (this.spent.size >= max) return false;
    }
    this.spent.set(challenge, expiresAtMs);
    return true;
  }
}

function decode(payload: string | undefined) {
  if (!payload || payload.length > 4096) return undefined;
  try {
    const parsed = ZCaptchaSolution.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Google reCAPTCHA: the widget's token checked with Google's siteverify API. Google spends each
 * token once, so nothing is remembered here. An unreachable Google refuses the sign-up.
 */
export class RecaptchaVerifier implements CaptchaVerifier {
  constructor(
    private readonly secretKey: string,
    private readonly fetchFn: typeof fetch = (...args) => fetch(...args),
  ) {}

  async verify(payload: string | undefined): Promise<boolean> {
    if (!payload) return false;
    try {
      const response = await this.fetchFn('https://www.google.com/recaptcha/api/siteverify', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: this.secretKey, response: payload }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) return false;
      const body = (await response.json()) as { success?: unknown };
      return body.success === true;
    } catch {
      return false;
    }
  }
}

const verifiers = new WeakMap<Config, CaptchaVerifier>();

/**
 * The verifier SignUp uses: reCAPTCHA when its keys are configured, else the proof of work. One
 * per app (keyed by its configuration), so every mount of the identity pool shares the memory of
 * spent solutions.
 */
export function signUpCaptchaVerifier(config: Config): CaptchaVerifier {
  let verifier = verifiers.get(config);
  if (!verifier) {
    verifier = config.recaptcha
      ? new RecaptchaVerifier(config.recaptcha.secretKey)
      : new AltchaVerifier(captchaKey(resolveSecretKey(config.secretKey, config.dataDir)));
    verifiers.set(config, verifier);
  }
  return verifier;
}
