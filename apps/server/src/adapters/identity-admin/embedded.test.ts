import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpUsers, type DbHandle } from '@connect/db';
import { passwordMeetsPolicy } from '@connect/shared';
import { createTestDatabase } from '@connect/db/testing';
import { verifyPassword } from '../../lib/passwords.ts';
import { SessionRevocations } from '../../lib/session-revocations.ts';
import { IdentityPoolRepository } from '../../repositories/identity-pool.ts';
import type { Mailer, MailMessage } from '../mail/port.ts';
import { EmbeddedIdentityAdmin } from './embedded.ts';

describe('embedded identity administration', () => {
  let db: DbHandle;
  let admin: EmbeddedIdentityAdmin;
  let revocations: SessionRevocations;
  const sent: MailMessage[] = [];
  const mailer: Mailer = { isSandbox: true, send: async (message) => void sent.push(message) };

  beforeAll(async () => {
    db = await createTestDatabase();
    revocations = new SessionRevocations(db.db, { accessJwtLifetimeMs: 3_600_000, refreshMs: 1000 });
    admin = new EmbeddedIdentityAdmin({
      db: db.db,
      mailer,
      revocations,
      product: { productName: 'Acme Connect', publicUrl: 'https://connect.example' },
    });
  });
  afterAll(() => db?.close());

  const row = async (email: string) => (await db.db.select().from(idpUsers).where(eq(idpUsers.username, email)))[0];

  it('invites a user with a generated temporary password that meets the policy', async () => {
    const { user, password } = await admin.createUser({ email: 'Invitee@Example.com', groups: ['QUANT_ADMIN'] });
    expect(passwordMeetsPolicy(password)).toBe(true);
    expect(user).toMatchObject({ username: 'invitee@example.com', status: 'FORCE_CHANGE_PASSWORD', enabled: true });
    const stored = await row('invitee@example.com');
    expect(stored).toMatchObject({ emailVerified: true, groups: ['QUANT_ADMIN'] });
    expect(stored!.passwordExpiresAt!.getTime() - stored!.createdAt.getTime()).toBe(7 * 86_400_000);
    expect(await verifyPassword(stored!.passwordHash, password)).toBe(true);
    const invitation = sent.find((m) => m.to === 'invitee@example.com');
    expect(invitation).toMatchObject({ kind: 'INVITATION', code: password });
    expect(invitation!.subject).toContain('Acme Connect');
    expect(invitation!.text).toContain('https://connect.example/login');
  });

  it('creates a user with a permanent password and sends nothing', async () => {
    const before = sent.length;
    const { user, password } = await admin.createUser({
      email: 'boss@example.com',
      password: 'Given-Pass-9',
      permanent: true,
    });
    expect(password).toBe('Given-Pass-9');
    expect(user.status).toBe('CONFIRMED');
    expect((await row('boss@example.com'))!.passwordExpiresAt).toBeNull();
    expect(sent.length).toBe(before);
  });

  it('refuses a password that breaks the policy and a taken email', async () => {
    await expect(
      admin.createUser({ email: 'weak@example.com', password: 'weak', permanent: true }),
    ).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    expect(await row('weak@example.com')).toBeUndefined();
    await expect(admin.createUser({ email: 'boss@example.com' })).rejects.toMatchObject({
      name: 'UsernameExistsException',
    });
  });

  it('finds users by email or sub, resets MFA and deletes', async () => {
    const { user } = await admin.createUser({ email: 'mfa@example.com', password: 'Given-Pass-9', permanent: true });
    expect(await admin.getUser('MFA@example.com')).toMatchObject({ sub: user.sub });
    expect(await admin.getUser(user.sub)).toMatchObject({ username: 'mfa@example.com' });
    expect(await admin.getUser('nobody@example.com')).toBeNull();

    await db.db
      .update(idpUsers)
      .set({ totpSecret: 'v1.sealed', totpVerified: true, mfaEnabled: true, mfaPreferred: true, lastTotpStep: 42 })
      .where(eq(idpUsers.sub, user.sub));
    expect(await admin.getUser(user.sub)).toMatchObject({ totpVerified: true, mfaPreferred: true });
    await admin.resetMfa('mfa@example.com');
    expect(await row('mfa@example.com')).toMatchObject({
      totpSecret: null,
      totpVerified: false,
      mfaEnabled: false,
      mfaPreferred: false,
      lastTotpStep: null,
    });

    await admin.deleteUser(user.sub);
    expect(await admin.getUser('mfa@example.com')).toBeNull();
    await expect(admin.deleteUser('mfa@example.com')).rejects.toMatchObject({ name: 'UserNotFoundException' });
    await expect(admin.resetMfa('mfa@example.com')).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });

  it('signs a user out and deletes a user: the API refuses their sessions, on this node and the next', async () => {
    const sessionOf = async (sub: string) => {
      const originJti = randomUUID();
      const now = new Date();
      await new IdentityPoolRepository(db.db).insertRefreshToken({
        tokenHash: randomUUID(),
        sub,
        clientId: 'client',
        originJti,
        authTime: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        now,
      });
      // A token issued in this very second: refused because its sign-in is named, not by its time.
      return { sub, originJti, issuedAt: Math.floor(Date.now() / 1000) };
    };
    const otherNode = () => {
      const node = new SessionRevocations(db.db, { accessJwtLifetimeMs: 3_600_000, refreshMs: 1000 });
      return node.refresh().then(() => node);
    };

    const { user: out } = await admin.createUser({
      email: 'out@example.com',
      password: 'Given-Pass-9',
      permanent: true,
    });
    const outSession = await sessionOf(out.sub);
    expect(revocations.isRevoked(outSession)).toBe(false);
    await admin.signOut({ sub: out.sub, username: out.username });
    expect(revocations.isRevoked(outSession)).toBe(true);
    expect((await otherNode()).isRevoked(outSession)).toBe(true);

    const { user: gone } = await admin.createUser({
      email: 'gone@example.com',
      password: 'Given-Pass-9',
      permanent: true,
    });
    const goneSession = await sessionOf(gone.sub);
    const earlier = { ...goneSession, originJti: randomUUID(), issuedAt: goneSession.issuedAt - 60 };
    await admin.deleteUser('gone@example.com');
    for (const session of [goneSession, earlier]) {
      expect(revocations.isRevoked(session)).toBe(true);
      expect((await otherNode()).isRevoked(session)).toBe(true);
    }
  });

  it('sets attributes beside the ones the user has, and refuses the pool’s own', async () => {
    await admin.createUser({ email: 'named@example.com', password: 'Given-Pass-9', permanent: true });
    const sub = (await row('named@example.com'))!.sub;
    await db.db
      .update(idpUsers)
      .set({ attributes: { locale: 'en-GB' } })
      .where(eq(idpUsers.sub, sub));
    await admin.updateAttributes('Named@Example.com', { given_name: 'Ada', family_name: 'Lovelace' });
    expect((await row('named@example.com'))!.attributes).toEqual({
      locale: 'en-GB',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    // By sub too, as Cognito's Admin* operations accept; a second update replaces the value.
    await admin.updateAttributes(sub, { given_name: 'Augusta' });
    expect((await row('named@example.com'))!.attributes).toMatchObject({
      given_name: 'Augusta',
      family_name: 'Lovelace',
    });
    await expect(admin.updateAttributes('named@example.com', { email: 'x@example.com' })).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
    await expect(admin.updateAttributes('ghost@example.com', { given_name: 'X' })).rejects.toMatchObject({
      name: 'UserNotFoundException',
    });
    expect((await row('named@example.com'))!.email).toBe('named@example.com');
  });

  it('lists users page by page', async () => {
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) {
      await admin.createUser({ email: `${name}@list.example`, password: 'Given-Pass-9', permanent: true });
    }
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await admin.listUsers({ limit: 2, ...(token ? { paginationToken: token } : {}) });
      expect(page.users.length).toBeLessThanOrEqual(2);
      seen.push(...page.users.map((u) => u.username));
      token = page.paginationToken;
      pages++;
    } while (token);
    const all = (await db.db.select({ username: idpUsers.username }).from(idpUsers)).map((r) => r.username).sort();
    expect([...seen].sort()).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));
    await expect(admin.listUsers({ limit: 2, paginationToken: 'garbage' })).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
  });
});
