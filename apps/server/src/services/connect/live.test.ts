import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DbHandle } from '@connect/db';
import { buildApp } from '../../app.ts';
import type { App } from '../../types.ts';
import { createTestApp, testConfig, type TestContext } from '../../../test/helpers.ts';
import {
  administrator,
  customer,
  placePlan,
  planByCode,
  planOrder,
  receipt,
  type Session,
} from '../account-plan/test-support.ts';
import { LIVE_TIMING } from './live-routes.ts';

/*
 * GET /api/connect/live (issue 28): the signed-in account's changes as Server-Sent Events over a
 * fetch stream. app.inject cannot read a stream that never ends, so the app listens on a port of
 * its own and the tests read the stream with fetch, as the SPA does.
 */

type Frame = { event: string; data: unknown } | { comment: string };

/** A stream read in the background: its frames as they come, and whether it ended. */
async function openStream(base: string, token: string | null) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/connect/live`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: controller.signal,
  });
  const frames: Frame[] = [];
  let isEnded = false;
  const ended = (async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res.body.getReader();
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true });
        let at;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          if (block.startsWith(':')) frames.push({ comment: block.slice(1).trim() });
          else {
            const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
            const data = /^data: (.*)$/m.exec(block)?.[1];
            frames.push({ event, data: data ? JSON.parse(data) : null });
          }
        }
      }
    } catch {
      // aborted by the test
    }
    isEnded = true;
  })();
  const until = <T>(find: () => T | undefined, ms: number): Promise<T> =>
    vi.waitFor(
      () => {
        const found = find();
        if (found === undefined) throw new Error(`nothing within ${ms} ms; frames: ${JSON.stringify(frames)}`);
        return found;
      },
      { timeout: ms, interval: 10 },
    );
  return {
    res,
    frames,
    events: (name: string) =>
      frames.filter((f): f is { event: string; data: unknown } => 'event' in f && f.event === name),
    /** The first frame of `event` whose data matches, within `ms`. */
    next: (event: string, match: (data: Record<string, unknown>) => boolean, ms = 5_000) =>
      until(() => {
        const frame = frames.find((f) => 'event' in f && f.event === event && match(f.data as Record<string, unknown>));
        return frame as { event: string; data: Record<string, unknown> } | undefined;
      }, ms),
    ended: (ms: number) => until(() => (isEnded ? true : undefined), ms),
    close: async () => {
      controller.abort();
      await ended;
    },
  };
}

describe('GET /api/connect/live', () => {
  let t: TestContext;
  let base: string;
  let staff: Awaited<ReturnType<typeof administrator>>;
  const streams: { close: () => Promise<void> }[] = [];
  const open = async (session: { accessToken: string } | null) => {
    const stream = await openStream(base, session?.accessToken ?? null);
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    staff = await administrator(t);
  });
  afterAll(async () => {
    await Promise.all(streams.map((stream) => stream.close()));
    await t?.close();
  });

  /** A customer with a plan order awaiting its bank transfer. */
  async function awaitingTransfer(): Promise<{ user: Session; order: Awaited<ReturnType<typeof placePlan>> }> {
    const user = await customer(t);
    const order = await placePlan(t, user, planOrder((await planByCode(t, 'annual-standard')).id));
    return { user, order };
  }

  it('refuses a caller without a token, and one whose token is not an access token', async () => {
    const anonymous = await open(null);
    expect(anonymous.res.status).toBe(401);
    expect((await anonymous.res.json()).code).toBe('UNAUTHORIZED');
    const forged = await open({ accessToken: 'not-a-jwt' });
    expect(forged.res.status).toBe(401);
  });

  it('streams events: ready at once, with no caching', async () => {
    const { user } = await awaitingTransfer();
    const stream = await open(user);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.res.headers.get('cache-control')).toContain('no-store');
    await stream.next('ready', () => true);
  });

  it('delivers a receipt staff record to the customer’s open stream, and to no other account', async () => {
    const { user, order } = await awaitingTransfer();
    const other = await awaitingTransfer();
    // Their orders' own events are delivered before the streams open.
    await t.app.events.drain();
    const mine = await open(user);
    const theirs = await open(other.user);
    await mine.next('ready', () => true);
    await theirs.next('ready', () => true);

    // Part of it first: the page hears that a payment came, the bell says what is left.
    const part = await receipt(t, staff, order.id, { amountGbpMinor: 100 });
    expect(part.statusCode, part.body).toBe(200);
    await mine.next('change', (data) => data.type === 'order.payment_received' && data.orderId === order.id);

    const res = await receipt(t, staff, order.id, { amountGbpMinor: order.totalGbpMinor - 100 });
    expect(res.statusCode, res.body).toBe(200);
    const paid = await mine.next('change', (data) => data.type === 'order.paid' && data.orderId === order.id);
    expect(paid.data).toEqual({ type: 'order.paid', orderId: order.id });
    await mine.next('change', (data) => data.type === 'plan.changed');

    // The other account's stream heard nothing of it: a payment on their own order, recorded
    // after, reaches their stream (changes come in the order they are committed), and it is the
    // first change that stream has heard.
    const marker = await receipt(t, staff, other.order.id, { amountGbpMinor: 100 });
    expect(marker.statusCode, marker.body).toBe(200);
    await theirs.next('change', (data) => data.type === 'order.payment_received' && data.orderId === other.order.id);
    expect(theirs.events('change')[0]?.data).toEqual({ type: 'order.payment_received', orderId: other.order.id });
    expect(
      theirs.events('change').filter((frame) => (frame.data as { orderId?: string }).orderId === order.id),
    ).toEqual([]);
  });

  it('puts the receipts, the payment and the credits in the bell too', async () => {
    const { user, order } = await awaitingTransfer();
    // The order's own notice is written while it still waits (one delivered after the payment has
    // nothing left to ask for, and says nothing).
    await t.app.events.drain();
    await receipt(t, staff, order.id, { amountGbpMinor: 100 });
    await receipt(t, staff, order.id, { amountGbpMinor: order.totalGbpMinor - 100 });
    await t.app.events.drain();
    const bell = await t.app.inject({ method: 'GET', url: '/api/connect/notifications', headers: user.headers });
    const titles = (bell.json() as { items: { title: string; kind: string; body: string }[] }).items.map(
      (item) => `${item.kind}: ${item.title}`,
    );
    expect(titles).toEqual(
      expect.arrayContaining([
        `order.placed: Order ${order.reference} awaits your payment`,
        `order.payment_received: Payment received for order ${order.reference}`,
        expect.stringMatching(/^order\.paid: Invoice INV-\S+ is paid$/),
        'plan.changed: Your plan is active',
      ]),
    );
  });

  it('ends the stream when the session is signed out', async () => {
    const { user } = await awaitingTransfer();
    const stream = await open(user);
    await stream.next('ready', () => true);
    const out = await t.app.inject({ method: 'POST', url: '/api/connect/sign-out', headers: user.headers });
    expect(out.statusCode).toBe(204);
    await stream.next('end', (data) => data.code === 'SESSION_SIGNED_OUT', 3_000);
    await stream.ended(1_000);
    // And a new one is refused.
    expect((await open(user)).res.status).toBe(401);
  });

  it('sends heartbeats while nothing happens', async () => {
    const { user } = await awaitingTransfer();
    const heartbeatMs = LIVE_TIMING.heartbeatMs;
    const checkMs = LIVE_TIMING.checkMs;
    LIVE_TIMING.heartbeatMs = 100;
    LIVE_TIMING.checkMs = 50;
    try {
      const stream = await open(user);
      await stream.next('ready', () => true);
      await vi.waitFor(
        () => expect(stream.frames.some((frame) => 'comment' in frame && frame.comment === 'heartbeat')).toBe(true),
        { timeout: 2_000, interval: 20 },
      );
    } finally {
      LIVE_TIMING.heartbeatMs = heartbeatMs;
      LIVE_TIMING.checkMs = checkMs;
    }
  });
});

/*
 * Two nodes (two apps, each with its own pool and its one LISTEN, on one PostgreSQL database): a
 * receipt recorded through one node reaches a stream held by the other. Needs DATABASE_URL (the
 * CI's PostgreSQL pass sets it; locally DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('GET /api/connect/live on two nodes — needs DATABASE_URL (PostgreSQL)', () => {
  let first: TestContext;
  let pool: DbHandle;
  let second: App;
  let secondBase: string;
  const streams: { close: () => Promise<void> }[] = [];

  beforeAll(async () => {
    first = await createTestApp();
    const [row] = (await first.db.query('select current_database() as name')).rows;
    const url = new URL(databaseUrl!);
    url.pathname = `/${String(row!.name)}`;
    pool = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
    second = await buildApp({ config: testConfig(), db: pool, logger: false });
    await second.listen({ port: 0, host: '127.0.0.1' });
    secondBase = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(streams.map((stream) => stream.close()));
    await second?.close();
    await pool?.close();
    await first?.close();
  });

  it('hears a receipt recorded on the other node through one LISTEN per node', async () => {
    const staff = await administrator(first);
    const user = await customer(first);
    const order = await placePlan(first, user, planOrder((await planByCode(first, 'annual-standard')).id));
    const otherUser = await customer(first);
    const otherOrder = await placePlan(first, otherUser, planOrder((await planByCode(first, 'annual-standard')).id));
    await first.app.events.drain();
    const stream = await openStream(secondBase, user.accessToken);
    streams.push(stream);
    const other = await openStream(secondBase, otherUser.accessToken);
    streams.push(other);
    await stream.next('ready', () => true);
    await other.next('ready', () => true);
    const listening = await pool.query(
      `select count(*)::int as n from pg_stat_activity where query = 'listen "connect_live"'`,
    );
    expect(Number(listening.rows[0]!.n)).toBe(1);

    const res = await receipt(first, staff, order.id, { amountGbpMinor: order.totalGbpMinor });
    expect(res.statusCode, res.body).toBe(200);
    await stream.next('change', (data) => data.type === 'order.paid' && data.orderId === order.id);
    // The other customer's own payment, recorded after, reaches their stream on this node; the
    // first receipt's changes, committed before it, did not.
    const marker = await receipt(first, staff, otherOrder.id, { amountGbpMinor: 100 });
    expect(marker.statusCode, marker.body).toBe(200);
    await other.next('change', (data) => data.type === 'order.payment_received' && data.orderId === otherOrder.id);
    expect(other.events('change').filter((frame) => (frame.data as { orderId?: string }).orderId === order.id)).toEqual(
      [],
    );
  });
});
