import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { solveCaptcha, ZCaptchaChallenge, type TCaptchaSolution } from '@connect/shared';
import {
  AltchaVerifier,
  CAPTCHA_MAX_NUMBER,
  CAPTCHA_TTL_SECONDS,
  captchaKey,
  createCaptchaChallenge,
  RecaptchaVerifier,
} from './captcha.ts';

const key = captchaKey('test-secret');
/** Small challenges keep the tests fast; one test solves a full-size one. */
const small = { maxnumber: 500 };

const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as TCaptchaSolution;
const encode = (solution: TCaptchaSolution) => Buffer.from(JSON.stringify(solution)).toString('base64');

describe('captcha challenges', () => {
  it('are in the ALTCHA format, signed, and expire after ten minutes', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const challenge = createCaptchaChallenge(key, { now });
    expect(ZCaptchaChallenge.parse(challenge)).toEqual(challenge);
    expect(challenge.algorithm).toBe('SHA-256');
    expect(challenge.maxnumber).toBe(CAPTCHA_MAX_NUMBER);
    expect(challenge.maxnumber).toBe(50_000);
    expect(challenge.salt).toMatch(/^[0-9a-f]{24}\?expires=\d+$/);
    expect(Number(challenge.salt.split('=')[1])).toBe(now.getTime() / 1000 + CAPTCHA_TTL_SECONDS);
    expect(challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.signature).toBe(createHmac('sha256', key).update(challenge.challenge).digest('hex'));
    // The secret number is within 0..maxnumber: exactly one of them hashes to the challenge.
    const hashes = Array.from({ length: CAPTCHA_MAX_NUMBER + 1 }, (_, n) =>
      createHash('sha256').update(`${challenge.salt}${n}`).digest('hex'),
    );
    expect(hashes.filter((hash) => hash === challenge.challenge)).toHaveLength(1);
  });

  it('differ every time', () => {
    const a = createCaptchaChallenge(key);
    const b = createCaptchaChallenge(key);
    expect(a.salt).not.toBe(b.salt);
    expect(a.challenge).not.toBe(b.challenge);
  });
});

describe('AltchaVerifier', () => {
  it('accepts a full-size challenge solved in the browser’s way (Web Crypto), once', async () => {
    const verifier = new AltchaVerifier(key);
    const payload = await solveCaptcha(createCaptchaChallenge(key));
    expect(await verifier.verify(payload)).toBe(true);
    expect(await verifier.verify(payload)).toBe(false);
  });

  it('refuses a missing or malformed payload', async () => {
    const verifier = new AltchaVerifier(key);
    expect(await verifier.verify(undefined)).toBe(false);
    expect(await verifier.verify('')).toBe(false);
    expect(await verifier.verify('not base64 json')).toBe(false);
    expect(await verifier.verify(Buffer.from('{"number":1}').toString('base64'))).toBe(false);
    expect(await verifier.verify('x'.repeat(5000))).toBe(false);
  });

  it('refuses a forged signature, a challenge signed with another key, and a wrong number', async () => {
    const verifier = new AltchaVerifier(key);
    const solution = decode(await solveCaptcha(createCaptchaChallenge(key, small)));
    expect(await verifier.verify(encode({ ...solution, signature: 'a'.repeat(64) }))).toBe(false);
    expect(await verifier.verify(encode({ ...solution, number: solution.number + 1 }))).toBe(false);

    const foreign = decode(await solveCaptcha(createCaptchaChallenge(captchaKey('another-secret'), small)));
    expect(await verifier.verify(encode(foreign))).toBe(false);

    // A challenge of our own choosing, signed by no one: the attacker cannot produce the HMAC.
    const salt = `00?expires=${Math.floor(Date.now() / 1000) + 600}`;
    const challenge = createHash('sha256').update(`${salt}7`).digest('hex');
    const made = { algorithm: 'SHA-256' as const, challenge, number: 7, salt, signature: solution.signature };
    expect(await verifier.verify(encode(made))).toBe(false);

    // The untouched solution still works: the refusals above spent nothing.
    expect(await verifier.verify(encode(solution))).toBe(true);
  });

  it('refuses a solution whose salt was changed to extend its expiry', async () => {
    const verifier = new AltchaVerifier(key);
    const solution = decode(await solveCaptcha(createCaptchaChallenge(key, small)));
    const later = solution.salt.replace(/expires=\d+/, `expires=${Math.floor(Date.now() / 1000) + 86_400}`);
    expect(await verifier.verify(encode({ ...solution, salt: later }))).toBe(false);
  });

  it('refuses an expired solution', async () => {
    let now = new Date();
    const verifier = new AltchaVerifier(key, { now: () => now });
    const payload = await solveCaptcha(createCaptchaChallenge(key, { ...small, now }));
    now = new Date(now.getTime() + CAPTCHA_TTL_SECONDS * 1000 + 1000);
    expect(await verifier.verify(payload)).toBe(false);
  });

  it('remembers at most the configured number of spent solutions, refusing new ones rather than forgetting', async () => {
    let now = new Date();
    const verifier = new AltchaVerifier(key, { now: () => now, maxRemembered: 2 });
    const solve = () => solveCaptcha(createCaptchaChallenge(key, { ...small, now }));
    const [a, b, c] = [await solve(), await solve(), await solve()];
    expect(await verifier.verify(a)).toBe(true);
    expect(await verifier.verify(b)).toBe(true);
    // Full of unexpired entries: a third is refused, and the first stays spent.
    expect(await verifier.verify(c)).toBe(false);
    expect(await verifier.verify(a)).toBe(false);

    // Once those expire they are dropped and new solutions fit again.
    now = new Date(now.getTime() + CAPTCHA_TTL_SECONDS * 1000 + 1000);
    expect(await verifier.verify(await solve())).toBe(true);
  });
});

describe('RecaptchaVerifier', () => {
  const answer = (body: unknown, status = 200) =>
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

  it('asks Google’s siteverify with the secret and the token', async () => {
    const fetchFn = answer({ success: true });
    expect(await new RecaptchaVerifier('google-secret', fetchFn).verify('widget-token')).toBe(true);
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://www.google.com/recaptcha/api/siteverify');
    expect(init.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({
      secret: 'google-secret',
      response: 'widget-token',
    });
  });

  it('refuses what Google refuses, a failed call and a missing token', async () => {
    expect(await new RecaptchaVerifier('s', answer({ success: false })).verify('t')).toBe(false);
    expect(await new RecaptchaVerifier('s', answer({ success: true }, 500)).verify('t')).toBe(false);
    const offline = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    expect(await new RecaptchaVerifier('s', offline).verify('t')).toBe(false);
    const unused = answer({ success: true });
    expect(await new RecaptchaVerifier('s', unused).verify(undefined)).toBe(false);
    expect(unused).not.toHaveBeenCalled();
  });
});
