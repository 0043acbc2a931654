import { describe, expect, it } from 'vitest';
import { TEST_CLIENT_ID } from '../../../test/helpers.ts';
import { EmbeddedIdentityAdmin } from '../../adapters/identity-admin/embedded.ts';
import {
  expectError,
  lastCode,
  newEmail,
  PASSWORD,
  signedIn,
  signIn,
  signUpConfirmed,
  suiteHarness,
} from './testing.ts';

describe('identity pool wire protocol', () => {
  const h = suiteHarness();

  describe('passwords', () => {
    it('invited users choose a new password at first sign-in (NEW_PASSWORD_REQUIRED)', async () => {
      const email = newEmail();
      await h.app.deps.identityAdmin.createUser({ email });
      const [invitation] = await h.outbox(email);
      expect(invitation).toMatchObject({ kind: 'INVITATION' });
      expect(invitation!.text).toContain(invitation!.code!);
      const challenge = await signIn(h, email, invitation!.code!);
      expect(challenge.body).toMatchObject({ ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: expect.any(String) });
      const parameters = challenge.body.ChallengeParameters as Record<string, string>;
      expect(parameters.USER_ID_FOR_SRP).toBe(email);
      expect(JSON.parse(parameters.requiredAttributes!)).toEqual([]);
      expect(JSON.parse(parameters.userAttributes!)).toEqual({ email, email_verified: 'true' });
      const respond = (password: string) =>
        h.call('RespondToAuthChallenge', {
          ClientId: TEST_CLIENT_ID,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session: challenge.body.Session,
          ChallengeResponses: { USERNAME: email, NEW_PASSWORD: password, 'userAttributes.given_name': 'Ada' },
        });
      expectError(await respond('short'), 'InvalidPasswordException');
      const done = await respond('Brand-New-Pass-2');
      expect(done.body).toHaveProperty('AuthenticationResult.AccessToken');
      const tokens = await signedIn(h, email, 'Brand-New-Pass-2');
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body.UserAttributes).toContainEqual({
        Name: 'given_name',
        Value: 'Ada',
      });
      expectError(
        await signIn(h, email, invitation!.code!),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
    });

    it('temporary passwords expire after 7 days', async () => {
      const email = newEmail();
      const admin = new EmbeddedIdentityAdmin({
        db: h.db.db,
        mailer: h.app.deps.mailer,
        revocations: h.app.deps.revocations,
        product: { productName: 'Quant Connect', publicUrl: 'http://localhost' },
        clock: h.clock.now,
      });
      const { password } = await admin.createUser({ email });
      h.clock.advance(7 * 86_400 + 1);
      expectError(
        await signIn(h, email, password, '/clocked'),
        'NotAuthorizedException',
        'Temporary password has expired and must be reset by an administrator.',
      );
    });

    it('changes the password with the previous one, within 5 attempts an hour', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const tokens = await signedIn(h, email);
      const change = (previous: string, proposed: string) =>
        h.call('ChangePassword', {
          AccessToken: tokens.AccessToken,
          PreviousPassword: previous,
          ProposedPassword: proposed,
        });
      expectError(
        await change('Wrong-Password-1', 'Another-Pass-3'),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
      expectError(await change(PASSWORD, 'weak'), 'InvalidPasswordException');
      expect((await change(PASSWORD, 'Another-Pass-3')).body).toEqual({});
      expectError(await signIn(h, email), 'NotAuthorizedException');
      await signedIn(h, email, 'Another-Pass-3');
      for (let i = 0; i < 3; i++) await change('Wrong-Password-1', 'Another-Pass-4');
      expectError(await change('Another-Pass-3', 'Another-Pass-4'), 'LimitExceededException');
    });

    it('resets a forgotten password with a code valid for 24 hours, and ends other sessions', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const tokens = await signedIn(h, email, PASSWORD, '/clocked');
      const forgot = await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked');
      expect(forgot.body).toEqual({
        CodeDeliveryDetails: { Destination: 'u***@e***.com', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      const code = await lastCode(h, email, 'RESET_CODE');
      const confirm = (c: string, password = 'Reset-Pass-5') =>
        h.call(
          'ConfirmForgotPassword',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: c, Password: password },
          '/clocked',
        );
      expectError(await confirm(code === '000000' ? '111111' : '000000'), 'CodeMismatchException');
      expectError(await confirm(code, 'weak'), 'InvalidPasswordException');
      h.clock.advance(24 * 3600 + 1);
      expectError(await confirm(code), 'ExpiredCodeException');
      await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked');
      expect((await confirm(await lastCode(h, email, 'RESET_CODE'))).body).toEqual({});
      await signedIn(h, email, 'Reset-Pass-5', '/clocked');
      expectError(
        await h.call(
          'GetTokensFromRefreshToken',
          { ClientId: TEST_CLIENT_ID, RefreshToken: tokens.RefreshToken },
          '/clocked',
        ),
        'NotAuthorizedException',
        'Refresh Token has been revoked',
      );
    });

    it('answers a reset for an unknown user as if a code were sent, and limits confirmations to 10 an hour', async () => {
      const ghost = 'nobody@example.org';
      const res = await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: ghost });
      expect(res.body).toEqual({
        CodeDeliveryDetails: { Destination: 'n***@e***.org', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      expect(await h.outbox(ghost)).toEqual([]);
      expectError(
        await h.call('ConfirmForgotPassword', {
          ClientId: TEST_CLIENT_ID,
          Username: ghost,
          ConfirmationCode: '123456',
          Password: 'Reset-Pass-5',
        }),
        'CodeMismatchException',
      );

      const email = newEmail();
      await signUpConfirmed(h, email);
      await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: email });
      const code = await lastCode(h, email, 'RESET_CODE');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 10; i++) {
        await h.call('ConfirmForgotPassword', {
          ClientId: TEST_CLIENT_ID,
          Username: email,
          ConfirmationCode: wrong,
          Password: 'Reset-Pass-5',
        });
      }
      expectError(
        await h.call('ConfirmForgotPassword', {
          ClientId: TEST_CLIENT_ID,
          Username: email,
          ConfirmationCode: code,
          Password: 'Reset-Pass-5',
        }),
        'LimitExceededException',
      );
    });
  });
});
