import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, users } from '@connect/db';
import { ZNotificationSettings, ZNotificationsResponse, ZProblem, ZUnreadCount } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';

type Session = Awaited<ReturnType<typeof signInAs>>;

/** The notification centre's routes: each user sees and changes only their own notifications. */
describe('connect service: notifications', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: Session | null, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/connect${url}`,
      ...(user ? { headers: user.headers } : {}),
      ...(payload ? { payload } : {}),
    });

  async function newUser() {
    const session = await signInAs(t);
    expect((await call('GET', `/user/${session.sub}`, session)).statusCode).toBe(200);
    return session;
  }

  /** Notifications written straight to the table (the subscribers have their own tests), oldest first. */
  async function notify(user: Session, ...titles: string[]) {
    const [member] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, user.sub));
    const ids: string[] = [];
    for (const [index, title] of titles.entries()) {
      const [row] = await t.db.db
        .insert(notifications)
        .values({
          userId: user.sub,
          accountId: member!.accountId,
          kind: 'token.deployed',
          title,
          body: `${title}, in words.`,
          link: '/my-networks',
          eventId: randomUUID(),
          createdAt: new Date(Date.UTC(2025, 0, 1, 12, index)),
        })
        .returning({ id: notifications.id });
      ids.push(row!.id);
    }
    return ids;
  }

  const list = async (user: Session, query = '') => {
    const res = await call('GET', `/notifications${query}`, user);
    expect(res.statusCode, res.body).toBe(200);
    return ZNotificationsResponse.parse(res.json());
  };
  const markRead = (user: Session, payload: object) => call('POST', '/notifications/read', user, payload);

  it('answers 401 without a session on every route', async () => {
    for (const [method, url, payload] of [
      ['GET', '/notifications'],
      ['POST', '/notifications/read', {}],
      ['GET', '/notifications/settings'],
      ['PUT', '/notifications/settings', { emailEnabled: true }],
    ] as const) {
      expect((await call(method, url, null, payload)).statusCode).toBe(401);
    }
  });

  it('lists the caller’s own notifications, newest first, with the unread count of all of them', async () => {
    const user = await newUser();
    const other = await newUser();
    expect(await list(user)).toEqual({ items: [], unread: 0 });
    const [first, second, third] = await notify(user, 'First', 'Second', 'Third');
    await notify(other, 'Not yours');

    const all = await list(user);
    expect(all.unread).toBe(3);
    expect(all.items.map((item) => item.id)).toEqual([third, second, first]);
    expect(all.items[0]).toEqual({
      id: third,
      kind: 'token.deployed',
      title: 'Third',
      body: 'Third, in words.',
      link: '/my-networks',
      createdAt: '2025-01-01T12:02:00.000Z',
      readAt: null,
    });
    const limited = await list(user, '?limit=2');
    expect(limited.items.map((item) => item.title)).toEqual(['Third', 'Second']);
    expect(limited.unread).toBe(3);
    expect((await call('GET', '/notifications?limit=0', user)).statusCode).toBe(400);
    expect((await call('GET', '/notifications?limit=101', user)).statusCode).toBe(400);
  });

  it('marks the given notifications read, and with no ids all of them', async () => {
    const user = await newUser();
    const [first, second, third] = await notify(user, 'First', 'Second', 'Third');

    const res = await markRead(user, { ids: [first, second] });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZUnreadCount.parse(res.json())).toEqual({ unread: 1 });
    const after = await list(user);
    const readAt = (id: string) => after.items.find((item) => item.id === id)!.readAt;
    expect(readAt(first!)).not.toBeNull();
    expect(readAt(third!)).toBeNull();
    // Marking again keeps the first reading time.
    expect(ZUnreadCount.parse((await markRead(user, { ids: [first] })).json())).toEqual({ unread: 1 });
    expect((await list(user)).items.find((item) => item.id === first)!.readAt).toBe(readAt(first!));

    expect(ZUnreadCount.parse((await markRead(user, {})).json())).toEqual({ unread: 0 });
    expect((await list(user)).items.every((item) => item.readAt !== null)).toBe(true);
  });

  it('refuses another user’s notification ids with 404 and marks none of the request', async () => {
    const user = await newUser();
    const other = await newUser();
    const [mine] = await notify(user, 'Mine');
    const [theirs] = await notify(other, 'Theirs');

    for (const ids of [[theirs], [mine, theirs], [randomUUID()]]) {
      const res = await markRead(user, { ids });
      expect(res.statusCode).toBe(404);
      expect(ZProblem.parse(res.json()).code).toBe('NOTIFICATION_NOT_FOUND');
    }
    expect((await list(user)).unread).toBe(1);
    expect((await list(other)).unread).toBe(1);
    // Marking all of mine never reaches theirs.
    await markRead(user, {});
    expect((await list(other)).unread).toBe(1);
    expect((await markRead(user, { ids: ['not-a-uuid'] })).statusCode).toBe(400);
  });

  it('keeps email notifications off until the caller switches them on, for the caller only', async () => {
    const user = await newUser();
    const other = await newUser();
    const settings = async (who: Session) =>
      ZNotificationSettings.parse((await call('GET', '/notifications/settings', who)).json());
    expect(await settings(user)).toEqual({ emailEnabled: false });

    const on = await call('PUT', '/notifications/settings', user, { emailEnabled: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(ZNotificationSettings.parse(on.json())).toEqual({ emailEnabled: true });
    expect(await settings(user)).toEqual({ emailEnabled: true });
    expect(await settings(other)).toEqual({ emailEnabled: false });

    expect((await call('PUT', '/notifications/settings', user, { emailEnabled: false })).statusCode).toBe(200);
    expect(await settings(user)).toEqual({ emailEnabled: false });
    expect((await call('PUT', '/notifications/settings', user, { emailEnabled: 'yes' })).statusCode).toBe(400);
  });
});
