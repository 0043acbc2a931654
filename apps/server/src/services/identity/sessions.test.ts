import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { idpUsers } from '@connect/db';
import { TEST_CLIENT_ID } from '../../../test/helpers.ts';
import { expectError, newEmail, PASSWORD, signedIn, signUpConfirmed, suiteHarness, type Tokens } from './testing.ts';

describe('identity pool wire protocol', () => {
  const h = suiteHarness();

  describe('sessions and refresh tokens', () => {
    it('rotates the refresh token on GetTokensFromRefreshToken and keeps the sign-in', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const first = await signedIn(h, email);
      const res = await h.call('GetTokensFromRefreshToken', {
        ClientId: TEST_CLIENT_ID,
        RefreshToken: first.RefreshToken,
      });
      expect(res.status).toBe(200);
      const next = res.body.AuthenticationResult as Tokens;
      expect(next.RefreshToken).toEqual(expect.any(String));
      expect(next.RefreshToken).not.toBe(first.RefreshToken);
      const before = decodeJwt(first.AccessToken);
      const after = decodeJwt(next.AccessToken);
      expect(after.origin_jti).toBe(before.origin_jti);
      expect(after.auth_time).toBe(before.auth_time);
      expect(after.jti).not.toBe(before.jti);
      // The old token is spent; the new one works.
      expectError(
        await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: first.RefreshToken }),
        'NotAuthorizedException',
        'Invalid Refresh Token',
      );
      const again = await h.call('GetTokensFromRefreshToken', {
        ClientId: TEST_CLIENT_ID,
        RefreshToken: next.RefreshToken,
      });
      expect(again.status).toBe(200);
    });

    it('refreshes through InitiateAuth REFRESH_TOKEN_AUTH without a new refresh token', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const first = await signedIn(h, email);
      const res = await h.call('InitiateAuth', {
        ClientId: TEST_CLIENT_ID,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: first.RefreshToken },
      });
      expect(res.status).toBe(200);
      const result = res.body.AuthenticationResult as Partial<Tokens>;
      expect(result.RefreshToken).toBeUndefined();
      expect(decodeJwt(result.AccessToken!).origin_jti).toBe(decodeJwt(first.AccessToken).origin_jti);
      expect(decodeJwt(result.IdToken!)['cognito:username']).toBe(email);
      expectError(
        await h.call('InitiateAuth', {
          ClientId: TEST_CLIENT_ID,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: 'not-a-token' },
        }),
        'NotAuthorizedException',
        'Invalid Refresh Token',
      );
    });

    it('expires refresh tokens after 30 days and access tokens after an hour', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const tokens = await signedIn(h, email, PASSWORD, '/clocked');
      h.clock.advance(3601);
      expectError(
        await h.call('GetUser', { AccessToken: tokens.AccessToken }, '/clocked'),
        'NotAuthorizedException',
        'Access Token has expired',
      );
      h.clock.advance(30 * 86_400);
      expectError(
        await h.call(
          'GetTokensFromRefreshToken',
          { ClientId: TEST_CLIENT_ID, RefreshToken: tokens.RefreshToken },
          '/clocked',
        ),
        'NotAuthorizedException',
        'Refresh Token has expired',
      );
    });

    it('GlobalSignOut revokes every refresh token and the access tokens issued before it', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const a = await signedIn(h, email);
      const b = await signedIn(h, email);
      expect((await h.call('GlobalSignOut', { AccessToken: a.AccessToken })).body).toEqual({});
      for (const tokens of [a, b]) {
        expectError(
          await h.call('GetUser', { AccessToken: tokens.AccessToken }),
          'NotAuthorizedException',
          'Access Token has been revoked',
        );
        expectError(
          await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: tokens.RefreshToken }),
          'NotAuthorizedException',
          'Refresh Token has been revoked',
        );
      }
      // A sign-in right after (within the same second) is not caught by the sign-out.
      const fresh = await signedIn(h, email);
      expect((await h.call('GetUser', { AccessToken: fresh.AccessToken })).status).toBe(200);
      const [row] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(row!.tokensValidAfter).toBeInstanceOf(Date);
    });

    it('RevokeToken revokes that sign-in only', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const a = await signedIn(h, email);
      const b = await signedIn(h, email);
      const rotated = await h.call('GetTokensFromRefreshToken', {
        ClientId: TEST_CLIENT_ID,
        RefreshToken: a.RefreshToken,
      });
      const aNext = rotated.body.AuthenticationResult as Tokens;
      expect((await h.call('RevokeToken', { ClientId: TEST_CLIENT_ID, Token: aNext.RefreshToken })).body).toEqual({});
      expectError(
        await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: aNext.RefreshToken }),
        'NotAuthorizedException',
        'Refresh Token has been revoked',
      );
      expectError(
        await h.call('GetUser', { AccessToken: a.AccessToken }),
        'NotAuthorizedException',
        'Access Token has been revoked',
      );
      expect((await h.call('GetUser', { AccessToken: b.AccessToken })).status).toBe(200);
      expect(
        (await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: b.RefreshToken })).status,
      ).toBe(200);
      // An unknown token gets the same empty answer.
      expect((await h.call('RevokeToken', { ClientId: TEST_CLIENT_ID, Token: 'unknown' })).body).toEqual({});
    });

    it('refuses access tokens that are forged, of another kind or for another client', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const tokens = await signedIn(h, email);
      expectError(
        await h.call('GetUser', { AccessToken: 'garbage' }),
        'NotAuthorizedException',
        'Invalid Access Token',
      );
      expectError(
        await h.call('GetUser', { AccessToken: tokens.IdToken }),
        'NotAuthorizedException',
        'Invalid Access Token',
      );
      const [header, payload] = tokens.AccessToken.split('.');
      const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      forged.sub = randomUUID();
      const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${tokens.AccessToken.split('.')[2]}`;
      expectError(await h.call('GetUser', { AccessToken: tampered }), 'NotAuthorizedException', 'Invalid Access Token');
    });
  });
});
