import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { idpUsers, users } from '@connect/db';
import { ZUser } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../test/helpers.ts';

describe('per-node portal user cache', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ USER_CACHE_MS: '400' });
  });
  afterAll(() => t?.close());
  afterEach(() => vi.useRealTimers());

  /** Moves the clock the cache reads (Date) past the entry's 400 ms, without waiting for it. */
  const outliveTheCache = () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 450);
  };

  const getUser = async (user: Awaited<ReturnType<typeof signInAs>>) =>
    ZUser.parse(
      (await t.app.inject({ method: 'GET', url: `/api/connect/user/${user.sub}`, headers: user.headers })).json(),
    );

  it('reuses a loaded user briefly, then reads the database again', async () => {
    const user = await signInAs(t);
    expect((await getUser(user)).firstName).toBeNull();
    // Changed behind the API's back (another node): this node may answer from its cache until it expires.
    await t.db.db.update(users).set({ firstName: 'Ada' }).where(eq(users.id, user.sub));
    expect((await getUser(user)).firstName).toBeNull();
    outliveTheCache();
    expect((await getUser(user)).firstName).toBe('Ada');
  });

  it("serves the user's own change at once", async () => {
    const user = await signInAs(t);
    await getUser(user);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/connect/user/settings',
      headers: user.headers,
      payload: { promotionalEmails: true },
    });
    expect(put.statusCode).toBe(200);
    expect((await getUser(user)).promotionalEmails).toBe(true);
  });

  it('drops the cached user after the MFA status is refreshed from the identity provider', async () => {
    const user = await signInAs(t);
    expect((await getUser(user)).mfaSetup).toBe(false);
    await t.db.db.update(idpUsers).set({ totpVerified: true }).where(eq(idpUsers.sub, user.sub));
    const status = await t.app.inject({ method: 'GET', url: '/api/connect/user/mfa-status', headers: user.headers });
    expect(status.json()).toMatchObject({ mfaSetup: true });
    expect((await getUser(user)).mfaSetup).toBe(true);
  });

  it('refuses a removed user once the cache entry expires', async () => {
    const user = await signInAs(t);
    await getUser(user);
    await t.db.db.update(users).set({ status: 'REMOVED' }).where(eq(users.id, user.sub));
    outliveTheCache();
    const res = await t.app.inject({ method: 'GET', url: `/api/connect/user/${user.sub}`, headers: user.headers });
    expect(res.statusCode).toBe(403);
  });
});
