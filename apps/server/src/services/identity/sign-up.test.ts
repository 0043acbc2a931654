import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idpCodes, idpUsers } from '@connect/db';
import { TEST_CLIENT_ID } from '../../../test/helpers.ts';
import { expectError, lastCode, newEmail, PASSWORD, signUp, suiteHarness } from './testing.ts';

describe('identity pool wire protocol', () => {
  const h = suiteHarness();

  describe('sign-up and confirmation', () => {
    it('signs up, mails a code, stores it hashed and the password as argon2id', async () => {
      const email = newEmail();
      const res = await signUp(h, email);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        UserConfirmed: false,
        UserSub: expect.stringMatching(/^[0-9a-f-]{36}$/),
        CodeDeliveryDetails: { Destination: 'u***@e***.com', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      const [mail] = await h.outbox(email);
      expect(mail).toMatchObject({ kind: 'SIGN_UP_CODE', code: expect.stringMatching(/^\d{6}$/) });
      expect(mail!.subject).toContain('Quant Connect');
      expect(mail!.text).toContain(mail!.code!);

      const [user] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(user!.status).toBe('UNCONFIRMED');
      const codes = await h.db.db.select().from(idpCodes).where(eq(idpCodes.sub, user!.sub));
      expect(codes).toHaveLength(1);
      expect(codes[0]!.codeHash).not.toContain(mail!.code!);
      expect(JSON.stringify(codes)).not.toContain(mail!.code!);
    });

    it('refuses a taken email, a weak password and a username that is not an email', async () => {
      const email = newEmail();
      await signUp(h, email);
      expectError(await signUp(h, email.toUpperCase()), 'UsernameExistsException');
      const weak = await h.call('SignUp', { ClientId: TEST_CLIENT_ID, Username: newEmail(), Password: 'password' });
      expectError(weak, 'InvalidPasswordException', /Password did not conform with policy/);
      const notEmail = await h.call('SignUp', { ClientId: TEST_CLIENT_ID, Username: 'alice', Password: PASSWORD });
      expectError(notEmail, 'InvalidParameterException', 'Username should be an email.');
      const sneaky = await h.call('SignUp', {
        ClientId: TEST_CLIENT_ID,
        Username: newEmail(),
        Password: PASSWORD,
        UserAttributes: [{ Name: 'email_verified', Value: 'true' }],
      });
      expectError(sneaky, 'NotAuthorizedException');
    });

    it('confirms with the right code only, once, and answers unknown users like a wrong code', async () => {
      const email = newEmail();
      await signUp(h, email);
      const code = await lastCode(h, email, 'SIGN_UP_CODE');
      const wrong = code === '000000' ? '111111' : '000000';
      expectError(
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: wrong }),
        'CodeMismatchException',
        'Invalid verification code provided, please try again.',
      );
      const ok = await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({});
      expectError(
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code }),
        'NotAuthorizedException',
        'User cannot be confirmed. Current status is CONFIRMED',
      );
      expectError(
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: newEmail(), ConfirmationCode: code }),
        'CodeMismatchException',
      );
      expectError(
        await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }),
        'InvalidParameterException',
        'User is already confirmed.',
      );
    });

    it('replaces the code on resend and answers a resend for an unknown user as if it were sent', async () => {
      const email = newEmail();
      await signUp(h, email);
      const first = await lastCode(h, email, 'SIGN_UP_CODE');
      const resent = await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email });
      expect(resent.body).toEqual({
        CodeDeliveryDetails: { Destination: 'u***@e***.com', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      const second = await lastCode(h, email, 'SIGN_UP_CODE');
      if (first !== second) {
        expectError(
          await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: first }),
          'CodeMismatchException',
        );
      }
      expect(
        (await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: second })).status,
      ).toBe(200);

      const ghost = 'ghost@nowhere.org';
      const fake = await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: ghost });
      expect(fake.status).toBe(200);
      expect(fake.body).toEqual({
        CodeDeliveryDetails: { Destination: 'g***@n***.org', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      expect(await h.outbox(ghost)).toEqual([]);
    });

    it('expires a sign-up code after 24 hours', async () => {
      const email = newEmail();
      await signUp(h, email, '/clocked');
      const code = await lastCode(h, email, 'SIGN_UP_CODE');
      h.clock.advance(24 * 3600 + 1);
      expectError(
        await h.call(
          'ConfirmSignUp',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code },
          '/clocked',
        ),
        'ExpiredCodeException',
        'Invalid code provided, please request a code again.',
      );
      await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked');
      const fresh = await lastCode(h, email, 'SIGN_UP_CODE');
      h.clock.advance(23 * 3600);
      const ok = await h.call(
        'ConfirmSignUp',
        { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: fresh },
        '/clocked',
      );
      expect(ok.status).toBe(200);
    });

    it('limits resends to 5 and confirmation attempts to 15 an hour per user', async () => {
      const email = newEmail();
      await signUp(h, email, '/clocked');
      for (let i = 0; i < 5; i++) {
        expect(
          (await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked')).status,
        ).toBe(200);
      }
      expectError(
        await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked'),
        'LimitExceededException',
        'Attempt limit exceeded, please try after some time.',
      );
      const code = await lastCode(h, email, 'SIGN_UP_CODE');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 15; i++) {
        const res = await h.call(
          'ConfirmSignUp',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: wrong },
          '/clocked',
        );
        // The code itself dies at its fifth wrong attempt (codes.test.ts); the hourly count goes on.
        expectError(res, i < 4 ? 'CodeMismatchException' : 'ExpiredCodeException');
      }
      expectError(
        await h.call(
          'ConfirmSignUp',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code },
          '/clocked',
        ),
        'LimitExceededException',
      );
      h.clock.advance(3601);
      await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked');
      const later = await h.call(
        'ConfirmSignUp',
        { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: await lastCode(h, email, 'SIGN_UP_CODE') },
        '/clocked',
      );
      expect(later.status).toBe(200);
    });
  });
});
