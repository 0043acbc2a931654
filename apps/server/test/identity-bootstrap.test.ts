import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idpUsers, users } from '@connect/db';
import { passwordMeetsPolicy } from '@connect/shared';
import { ensureAdministrator } from '../src/bootstrap.ts';
import { createTestApp, TEST_CLIENT_ID, type TestContext } from './helpers.ts';

function signIn(t: TestContext, username: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/idp',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    payload: JSON.stringify({
      ClientId: TEST_CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  });
}

async function counts(t: TestContext) {
  return {
    identities: (await t.db.db.select().from(idpUsers)).length,
    portalUsers: (await t.db.db.select().from(users)).length,
  };
}

describe('first-start administrator', () => {
  it('seeds an administrator with a temporary password printed once', async () => {
    const t = await createTestApp();
    try {
      const lines: string[] = [];
      await ensureAdministrator(t.app.deps, (line) => lines.push(line));
      const printed = lines.join('\n');
      expect(printed).toContain('admin@connect.localhost');
      const temporary = /temporary password:\s+(\S+)/.exec(printed)?.[1];
      expect(temporary).toBeDefined();
      expect(passwordMeetsPolicy(temporary!)).toBe(true);

      const [identity] = await t.db.db.select().from(idpUsers).where(eq(idpUsers.username, 'admin@connect.localhost'));
      expect(identity).toMatchObject({ status: 'FORCE_CHANGE_PASSWORD', groups: ['QUANT_ADMIN'], emailVerified: true });
      const [portal] = await t.db.db.select().from(users).where(eq(users.id, identity!.sub));
      expect(portal).toMatchObject({ role: 'QUANT_ADMIN', email: 'admin@connect.localhost' });

      const first = await signIn(t, 'admin@connect.localhost', temporary!);
      expect(first.json()).toMatchObject({ ChallengeName: 'NEW_PASSWORD_REQUIRED' });

      const before = await counts(t);
      const again: string[] = [];
      await ensureAdministrator(t.app.deps, (line) => again.push(line));
      expect(again).toEqual([]);
      expect(await counts(t)).toEqual(before);
    } finally {
      await t.close();
    }
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD as a permanent password, printing nothing', async () => {
    const t = await createTestApp({ ADMIN_EMAIL: 'Owner@Example.com', ADMIN_PASSWORD: 'Owner-Pass-7' });
    try {
      const lines: string[] = [];
      await ensureAdministrator(t.app.deps, (line) => lines.push(line));
      expect(lines).toEqual([]);
      const res = await signIn(t, 'owner@example.com', 'Owner-Pass-7');
      expect(res.statusCode).toBe(200);
      const token = (res.json() as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult.AccessToken;
      const claims = await t.app.verifyAccessToken(token);
      expect(claims.groups).toEqual(['QUANT_ADMIN']);
      const [portal] = await t.db.db.select().from(users).where(eq(users.id, claims.sub));
      expect(portal).toMatchObject({ role: 'QUANT_ADMIN', email: 'owner@example.com' });
      const outbox = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=owner@example.com' });
      expect(outbox.json()).toEqual({ messages: [] });

      const before = await counts(t);
      await ensureAdministrator(t.app.deps, (line) => lines.push(line));
      expect(lines).toEqual([]);
      expect(await counts(t)).toEqual(before);
    } finally {
      await t.close();
    }
  });

  it('refuses an ADMIN_PASSWORD that breaks the password policy', async () => {
    const t = await createTestApp({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'password' });
    try {
      await expect(ensureAdministrator(t.app.deps, () => undefined)).rejects.toMatchObject({
        name: 'InvalidPasswordException',
      });
      expect(await counts(t)).toEqual({ identities: 0, portalUsers: 0 });
    } finally {
      await t.close();
    }
  });
});
