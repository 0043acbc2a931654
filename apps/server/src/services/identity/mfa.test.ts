import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idpUsers } from '@connect/db';
import { TEST_CLIENT_ID } from '../../../test/helpers.ts';
import {
  expectError,
  newEmail,
  PASSWORD,
  signedIn,
  signIn,
  signUpConfirmed,
  suiteHarness,
  type Tokens,
} from './testing.ts';
import { totpCodeAt } from './totp.ts';

describe('identity pool wire protocol', () => {
  const h = suiteHarness({}, { mounts: { '/mfa-on': { mfaConfiguration: 'ON' } } });

  describe('authenticator app (TOTP)', () => {
    async function enableTotp(email: string, prefix = '/idp'): Promise<{ secret: string; tokens: Tokens }> {
      await signUpConfirmed(h, email, prefix);
      const tokens = await signedIn(h, email, PASSWORD, prefix);
      const associated = await h.call('AssociateSoftwareToken', { AccessToken: tokens.AccessToken }, prefix);
      const secret = associated.body.SecretCode as string;
      const verified = await h.call(
        'VerifySoftwareToken',
        {
          AccessToken: tokens.AccessToken,
          UserCode: totpCodeAt(secret, prefix === '/idp' ? new Date() : h.clock.now()),
          FriendlyDeviceName: 'phone',
        },
        prefix,
      );
      expect(verified.body).toEqual({ Status: 'SUCCESS' });
      const preference = await h.call(
        'SetUserMFAPreference',
        { AccessToken: tokens.AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } },
        prefix,
      );
      expect(preference.status).toBe(200);
      return { secret, tokens };
    }

    it('sets up an authenticator: wrong code refused, secret stored encrypted, preference reported', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const tokens = await signedIn(h, email);
      const associated = await h.call('AssociateSoftwareToken', { AccessToken: tokens.AccessToken });
      const secret = associated.body.SecretCode as string;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const [row] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(row!.pendingTotpSecret).toMatch(/^v1\./);
      expect(row!.pendingTotpSecret).not.toContain(secret);

      expectError(
        await h.call('SetUserMFAPreference', {
          AccessToken: tokens.AccessToken,
          SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
        }),
        'SoftwareTokenMFANotFoundException',
      );
      const right = totpCodeAt(secret, new Date());
      const wrong = right === '000000' ? '111111' : '000000';
      expectError(
        await h.call('VerifySoftwareToken', { AccessToken: tokens.AccessToken, UserCode: wrong }),
        'EnableSoftwareTokenMFAException',
      );
      expect((await h.call('VerifySoftwareToken', { AccessToken: tokens.AccessToken, UserCode: right })).body).toEqual({
        Status: 'SUCCESS',
      });
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body).not.toHaveProperty(
        'PreferredMfaSetting',
      );
      await h.call('SetUserMFAPreference', {
        AccessToken: tokens.AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      });
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body).toMatchObject({
        PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
        UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
      });

      // Starting another set-up does not switch off the authenticator in use.
      await h.call('AssociateSoftwareToken', { AccessToken: tokens.AccessToken });
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body).toMatchObject({
        PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
      });
      const signIn = await h.call('InitiateAuth', {
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: TEST_CLIENT_ID,
        AuthParameters: { USERNAME: email, PASSWORD: PASSWORD },
      });
      expect(signIn.body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
    });

    it('asks for the code at sign-in; a wrong code keeps the session, a used session or code is refused', async () => {
      const email = newEmail();
      const { secret } = await enableTotp(email, '/clocked');
      // The set-up code used this time step: sign in one step later.
      h.clock.advance(30);
      const challenge = await signIn(h, email, PASSWORD, '/clocked');
      expect(challenge.body).toMatchObject({
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: expect.any(String),
        ChallengeParameters: { USER_ID_FOR_SRP: email },
      });
      const respond = (code: string, session = challenge.body.Session) =>
        h.call(
          'RespondToAuthChallenge',
          {
            ClientId: TEST_CLIENT_ID,
            ChallengeName: 'SOFTWARE_TOKEN_MFA',
            Session: session,
            ChallengeResponses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: code },
          },
          '/clocked',
        );
      const code = totpCodeAt(secret, h.clock.now());
      expectError(
        await respond(code === '000000' ? '111111' : '000000'),
        'CodeMismatchException',
        'Invalid code received for user',
      );
      const ok = await respond(code);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ AuthenticationResult: { AccessToken: expect.any(String) } });
      expectError(
        await respond(code),
        'NotAuthorizedException',
        'Invalid session for the user, session can only be used once.',
      );

      const replay = await signIn(h, email, PASSWORD, '/clocked');
      expectError(
        await respond(code, replay.body.Session),
        'ExpiredCodeException',
        'Your software token has already been used once.',
      );
      h.clock.advance(30);
      expect((await respond(totpCodeAt(secret, h.clock.now()), replay.body.Session)).status).toBe(200);
    });

    it('expires a challenge session after 3 minutes', async () => {
      const email = newEmail();
      const { secret } = await enableTotp(email, '/clocked');
      h.clock.advance(30);
      const challenge = await signIn(h, email, PASSWORD, '/clocked');
      h.clock.advance(181);
      const res = await h.call(
        'RespondToAuthChallenge',
        {
          ClientId: TEST_CLIENT_ID,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: challenge.body.Session,
          ChallengeResponses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: totpCodeAt(secret, h.clock.now()) },
        },
        '/clocked',
      );
      expectError(res, 'NotAuthorizedException', 'Invalid session for the user, session is expired.');
    });

    it('turning the preference off removes the sign-in step', async () => {
      const email = newEmail();
      const { tokens } = await enableTotp(email);
      await h.call('SetUserMFAPreference', {
        AccessToken: tokens.AccessToken,
        SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
      });
      expect((await signIn(h, email)).body).toHaveProperty('AuthenticationResult');
    });

    it('with MFA required, sets up the authenticator during sign-in (MFA_SETUP)', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/mfa-on');
      const challenge = await signIn(h, email, PASSWORD, '/mfa-on');
      expect(challenge.body).toMatchObject({
        ChallengeName: 'MFA_SETUP',
        ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
      });
      const associated = await h.call('AssociateSoftwareToken', { Session: challenge.body.Session }, '/mfa-on');
      expect(associated.body).toMatchObject({ SecretCode: expect.any(String), Session: expect.any(String) });
      const secret = associated.body.SecretCode as string;
      const verified = await h.call(
        'VerifySoftwareToken',
        { Session: associated.body.Session, UserCode: totpCodeAt(secret, h.clock.now()) },
        '/mfa-on',
      );
      expect(verified.body).toMatchObject({ Status: 'SUCCESS', Session: expect.any(String) });
      const done = await h.call(
        'RespondToAuthChallenge',
        {
          ClientId: TEST_CLIENT_ID,
          ChallengeName: 'MFA_SETUP',
          Session: verified.body.Session,
          ChallengeResponses: { USERNAME: email },
        },
        '/mfa-on',
      );
      expect(done.body).toHaveProperty('AuthenticationResult.AccessToken');
      expect((await signIn(h, email, PASSWORD, '/mfa-on')).body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
      expectError(
        await h.call('AssociateSoftwareToken', { Session: challenge.body.Session }, '/mfa-on'),
        'NotAuthorizedException',
        'Invalid session for the user, session can only be used once.',
      );
    });
  });
});
