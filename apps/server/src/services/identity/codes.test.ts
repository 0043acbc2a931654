import { and, eq } from 'drizzle-orm';
import { idpCodes, idpUsers, type IdpCodePurpose } from '@connect/db';
import { describe, expect, it } from 'vitest';
import { TEST_CLIENT_ID } from '../../../test/helpers.ts';
import { maskEmail } from './codes.ts';
import { POLICY } from './context.ts';
import { expectError, lastCode, newEmail, signUp, signUpConfirmed, suiteHarness, type Harness } from './testing.ts';

describe('code delivery destination', () => {
  it('masks the address as Cognito does', () => {
    expect(maskEmail('alice@example.com')).toBe('a***@e***.com');
    expect(maskEmail('bob@mail.example.co.uk')).toBe('b***@m***.uk');
  });
});

const HOURS = 3600;
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

/** One kind of code, as the tests below drive it: ask for one, read it from the outbox, enter it. */
type Flow = {
  kind: 'SIGN_UP_CODE' | 'RESET_CODE';
  purpose: IdpCodePurpose;
  /** A user holding a fresh code; answers their email. */
  start: (h: Harness) => Promise<string>;
  /** Asks for a new code (the earlier one stops working). */
  resend: (h: Harness, email: string) => Promise<unknown>;
  enter: (h: Harness, email: string, code: string) => ReturnType<Harness['call']>;
};

const signUpFlow: Flow = {
  kind: 'SIGN_UP_CODE',
  purpose: 'SIGN_UP',
  start: async (h) => {
    const email = newEmail();
    expect((await signUp(h, email, '/clocked')).status).toBe(200);
    return email;
  },
  resend: (h, email) => h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked'),
  enter: (h, email, code) =>
    h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code }, '/clocked'),
};

const resetFlow: Flow = {
  kind: 'RESET_CODE',
  purpose: 'FORGOT_PASSWORD',
  start: async (h) => {
    const email = newEmail();
    await signUpConfirmed(h, email, '/clocked');
    expect((await resetFlow.resend(h, email)) as { status: number }).toMatchObject({ status: 200 });
    return email;
  },
  resend: (h, email) => h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked'),
  enter: (h, email, code) =>
    h.call(
      'ConfirmForgotPassword',
      { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code, Password: 'Reset-Pass-5' },
      '/clocked',
    ),
};

/** The user's one stored code of the flow (asking for a new one replaces it). */
async function storedCode(h: Harness, email: string, purpose: IdpCodePurpose) {
  const [row] = await h.db.db
    .select({ failedAttempts: idpCodes.failedAttempts, usedAt: idpCodes.usedAt, expiresAt: idpCodes.expiresAt })
    .from(idpCodes)
    .innerJoin(idpUsers, eq(idpUsers.sub, idpCodes.sub))
    .where(and(eq(idpUsers.username, email), eq(idpCodes.purpose, purpose)));
  return row;
}

describe.each([
  ['the sign-up (activation) code', signUpFlow],
  ['the password reset code', resetFlow],
])('%s', (_name, flow) => {
  const h = suiteHarness();

  it('works for 24 hours (spec §8), and says so in its email', async () => {
    const email = await flow.start(h);
    const [message] = (await h.outbox(email)).filter((m) => m.kind === flow.kind);
    expect(message!.text).toContain('valid for 24 hours and stops working after 5 wrong attempts');
    expect(message!.text).not.toMatch(/1 hour|one hour/);
    h.clock.advance(24 * HOURS - 60);
    expect((await flow.enter(h, email, await lastCode(h, email, flow.kind))).status).toBe(200);
    expect((await storedCode(h, email, flow.purpose))!.usedAt).not.toBeNull();
  });

  it('is refused after 24 hours; a new code works', async () => {
    const email = await flow.start(h);
    const code = await lastCode(h, email, flow.kind);
    h.clock.advance(24 * HOURS + 1);
    expectError(
      await flow.enter(h, email, code),
      'ExpiredCodeException',
      'Invalid code provided, please request a code again.',
    );
    await flow.resend(h, email);
    expect((await flow.enter(h, email, await lastCode(h, email, flow.kind))).status).toBe(200);
  });

  it(`stops working after ${POLICY.codeAttempts} wrong attempts, even with the right digits; a new code works`, async () => {
    const email = await flow.start(h);
    const code = await lastCode(h, email, flow.kind);
    for (let i = 1; i < POLICY.codeAttempts; i++) {
      expectError(await flow.enter(h, email, wrongFor(code)), 'CodeMismatchException');
    }
    expect((await storedCode(h, email, flow.purpose))!.failedAttempts).toBe(POLICY.codeAttempts - 1);
    // The guess that reaches the limit already says a new code is needed.
    expectError(
      await flow.enter(h, email, wrongFor(code)),
      'ExpiredCodeException',
      'Invalid code provided, please request a code again.',
    );
    expectError(await flow.enter(h, email, code), 'ExpiredCodeException');
    const row = await storedCode(h, email, flow.purpose);
    expect(row).toMatchObject({ failedAttempts: POLICY.codeAttempts, usedAt: null });

    await flow.resend(h, email);
    const fresh = await lastCode(h, email, flow.kind);
    expect((await storedCode(h, email, flow.purpose))!.failedAttempts).toBe(0);
    expect((await flow.enter(h, email, fresh)).status).toBe(200);
  });

  it('counts wrong codes entered at the same time, each one', async () => {
    const email = await flow.start(h);
    const code = await lastCode(h, email, flow.kind);
    const guesses = await Promise.all(
      Array.from({ length: POLICY.codeAttempts }, () => flow.enter(h, email, wrongFor(code))),
    );
    expect(guesses.map((res) => res.status)).toEqual(guesses.map(() => 400));
    expect((await storedCode(h, email, flow.purpose))!.failedAttempts).toBe(POLICY.codeAttempts);
    expectError(await flow.enter(h, email, code), 'ExpiredCodeException');
  });

  it('holds the hourly limit on new codes against a burst sent at once (each new code is 5 more guesses)', async () => {
    const email = await flow.start(h);
    const action = flow.purpose === 'SIGN_UP' ? 'RESEND_CODE' : 'FORGOT_PASSWORD';
    const burst = (await Promise.all(Array.from({ length: 12 }, () => flow.resend(h, email)))) as { status: number }[];
    // The flow's start asked for one already (a reset code); the rest of the hour's allowance, and no more.
    const allowed = POLICY.perHour[action] - (flow.purpose === 'SIGN_UP' ? 0 : 1);
    expect(burst.filter((res) => res.status === 200)).toHaveLength(allowed);
  });
});
