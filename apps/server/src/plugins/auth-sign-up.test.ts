import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpUsers, users } from '@connect/db';
import { createTestApp, signInAs, type TestContext } from '../../test/helpers.ts';
import { ensureAdministrator } from '../bootstrap.ts';
import { OutboxRepository } from '../events/repository.ts';

/** user.signed_up: announced with the portal user's creation, once, and never for a refused sign-in. */
describe('sign-up announcement', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'Bootstrap-Passw0rd!' });
  });
  afterAll(() => t?.close());

  const signUps = async (userId: string) =>
    (await new OutboxRepository(t.db.db).ofType('user.signed_up')).filter((event) => event.payload.userId === userId);
  const me = (session: { sub: string; headers: { authorization: string } }) =>
    t.app.inject({ method: 'GET', url: `/api/connect/user/${session.sub}`, headers: session.headers });

  it('announces the first sign-in that creates the portal user, once, however many requests race it', async () => {
    const session = await signInAs(t);
    const answers = await Promise.all([me(session), me(session), me(session)]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect((await me(session)).statusCode).toBe(200);

    const [user] = await t.db.db.select().from(users).where(eq(users.id, session.sub));
    const events = await signUps(session.sub);
    expect(events.map((event) => [event.accountId, event.payload])).toEqual([
      [user!.accountId, { userId: session.sub, accountId: user!.accountId, email: session.email, role: 'INDIVIDUAL' }],
    ]);
  });

  it('announces nothing when the sign-in is refused', async () => {
    const session = await signInAs(t);
    // The identity was deleted before its first request reached the portal.
    await t.db.db.delete(idpUsers).where(eq(idpUsers.sub, session.sub));
    expect((await me(session)).statusCode).toBe(401);
    expect(await t.db.db.select().from(users).where(eq(users.id, session.sub))).toEqual([]);
    expect(await signUps(session.sub)).toEqual([]);
  });

  it('announces the administrator the first start creates, and only once', async () => {
    await ensureAdministrator(t.app.deps, () => undefined);
    await ensureAdministrator(t.app.deps, () => undefined);
    const events = (await new OutboxRepository(t.db.db).ofType('user.signed_up')).filter(
      (event) => event.payload.email === 'root@example.com',
    );
    expect(events.map((event) => event.payload.role)).toEqual(['QUANT_ADMIN']);
  });
});
