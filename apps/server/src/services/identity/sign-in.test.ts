import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { idpRefreshTokens, idpUsers } from '@connect/db';
import { TEST_CLIENT_ID } from '../../../test/helpers.ts';
import {
  expectError,
  newEmail,
  PASSWORD,
  signedIn,
  signIn,
  signUp,
  signUpConfirmed,
  suiteHarness,
  type Tokens,
} from './testing.ts';

describe('identity pool wire protocol', () => {
  const h = suiteHarness();

  describe('sign-in', () => {
    it('gives unknown users and wrong passwords the same answer, and unconfirmed users their own', async () => {
      const email = newEmail();
      await signUp(h, email);
      const unknown = await signIn(h, newEmail());
      const wrong = await signIn(h, email, 'Wrong-Password-1');
      expectError(unknown, 'NotAuthorizedException', 'Incorrect username or password.');
      expect(wrong.body).toEqual(unknown.body);
      expectError(await signIn(h, email), 'UserNotConfirmedException');
    });

    it('costs two statements on the pool’s tables: the user, then the refresh token with the expired ones removed', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      await signIn(h, email);
      const [user] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      const expired = new Date(Date.now() - 86_400_000);
      await h.db.db.insert(idpRefreshTokens).values({
        tokenHash: `expired-${email}`,
        sub: user!.sub,
        clientId: TEST_CLIENT_ID,
        originJti: crypto.randomUUID(),
        authTime: expired,
        expiresAt: expired,
      });
      // Every statement Drizzle runs goes through its session's client (PGlite's thread or the pg pool).
      const { client } = (
        h.db.db as unknown as { session: { client: { query: (query: string | { text: string }) => unknown } } }
      ).session;
      const query = vi.spyOn(client, 'query');
      let statements: string[];
      try {
        expect((await signIn(h, email)).status).toBe(200);
      } finally {
        // PGlite's client takes the text; node-postgres's takes a prepared statement's { name, text }.
        statements = query.mock.calls.map(([sent]) =>
          typeof sent === 'string' ? sent : (sent as { text: string }).text,
        );
        query.mockRestore();
      }
      const onThePool = statements.filter((text) => text.includes('"idp_'));
      expect(onThePool).toHaveLength(2);
      const left = await h.db.db.select().from(idpRefreshTokens).where(eq(idpRefreshTokens.sub, user!.sub));
      expect(left.map((row) => row.tokenHash)).not.toContain(`expired-${email}`);
      expect(left).toHaveLength(2);
    });

    it('issues tokens with Cognito claims that the API accepts', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const res = await signIn(h, email.toUpperCase());
      expect(res.body).toMatchObject({
        ChallengeParameters: {},
        AuthenticationResult: { ExpiresIn: 3600, TokenType: 'Bearer', RefreshToken: expect.any(String) },
      });
      const tokens = res.body.AuthenticationResult as Tokens;
      const claims = await h.app.verifyAccessToken(tokens.AccessToken);
      expect(claims).toMatchObject({ username: email, clientId: TEST_CLIENT_ID });
      const id = decodeJwt(tokens.IdToken);
      expect(id).toMatchObject({
        sub: claims.sub,
        'cognito:username': email,
        email,
        email_verified: true,
        token_use: 'id',
        aud: TEST_CLIENT_ID,
      });
      const user = await h.call('GetUser', { AccessToken: tokens.AccessToken });
      expect(user.body).toEqual({
        Username: email,
        UserAttributes: [
          { Name: 'sub', Value: claims.sub },
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      });
    });

    it('locks out after 5 failures for 2^(n-5) seconds, without extending it, and unlocks on time', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const wrong = () => signIn(h, email, 'Wrong-Password-1', '/clocked');
      for (let i = 0; i < 5; i++)
        expectError(await wrong(), 'NotAuthorizedException', 'Incorrect username or password.');
      // Locked for 1 s: even the right password is refused.
      expectError(await signIn(h, email, PASSWORD, '/clocked'), 'NotAuthorizedException', 'Password attempts exceeded');
      h.clock.advance(1);
      expectError(await wrong(), 'NotAuthorizedException', 'Incorrect username or password.'); // 6th: 2 s
      h.clock.advance(1);
      expectError(await wrong(), 'NotAuthorizedException', 'Password attempts exceeded'); // does not extend
      h.clock.advance(1);
      await signedIn(h, email, PASSWORD, '/clocked');
      const [row] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(row).toMatchObject({ failedSignIns: 0, lockedUntil: null });
    });

    it('caps the lockout at 15 minutes and forgets failures after 15 quiet minutes', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const row = async () => (await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email)))[0]!;
      for (let i = 1; i <= 16; i++) {
        expectError(
          await signIn(h, email, 'Wrong-Password-1', '/clocked'),
          'NotAuthorizedException',
          'Incorrect username or password.',
        );
        const { lockedUntil } = await row();
        // Wait out exactly the lockout: the next failure still falls inside the 15 minutes.
        if (lockedUntil) h.clock.advance((lockedUntil.getTime() - h.clock.now().getTime()) / 1000);
      }
      const locked = await row();
      expect(locked.failedSignIns).toBe(16);
      expect((locked.lockedUntil!.getTime() - locked.lastFailedSignInAt!.getTime()) / 1000).toBe(900);

      h.clock.advance(1);
      expectError(
        await signIn(h, email, 'Wrong-Password-1', '/clocked'),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
      expect((await row()).failedSignIns).toBe(1);
      expect((await row()).lockedUntil).toBeNull();
    });
  });
});
