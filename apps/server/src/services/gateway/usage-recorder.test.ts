import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicationMonthSpend, applications, gatewayUsageHourly } from '@connect/db';
import { ZCreateApplicationResponse, ZTokenResponse } from '@connect/shared';
import { startTestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import type { EventBus } from '../../events/port.ts';
import { OutboxRepository } from '../../events/repository.ts';
import { activate, addNetwork, createApplication, newAppUser } from '../application-manager/testing.ts';
import { GatewayRepository, type UsageCount } from './repository.ts';
import { FLUSH_ROWS, UsageRecorder } from './usage-recorder.ts';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

const HOUR_MS = 3_600_000;

/** A bus for the unit tests, whose fake repository never calls it. */
const noBus = {} as EventBus;

describe('UsageRecorder', () => {
  it('adds up calls per application, network, method and UTC hour, priced by class, written in one statement', async () => {
    const written: UsageCount[][] = [];
    const recorder = new UsageRecorder(
      {
        addUsage: async (rows) => {
          written.push(rows);
          return { capReached: [] };
        },
      },
      noBus,
    );
    const hour = Date.parse('2025-03-01T10:00:00Z');
    recorder.record('a', 'n', 'eth_call', 1, hour + 10);
    recorder.record('a', 'n', 'eth_call', 2, hour + HOUR_MS - 1);
    recorder.recordCalls('a', 'n', { jsonrpc: '2.0', id: 1, method: 'eth_getLogs' }, hour + 20);
    recorder.recordCalls(
      'b',
      'n',
      [
        { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction' },
        { jsonrpc: '2.0', id: 2, method: 'eth_call' },
        { jsonrpc: '2.0', id: 3, method: 'eth_call' },
      ],
      hour + 30,
    );
    // The hour turns, and a record from an earlier time (another request's clock) still lands in its own hour.
    recorder.record('a', 'n', 'eth_call', 5, hour + HOUR_MS);
    recorder.record('a', 'n', 'eth_call', 1, hour + 40);
    expect(recorder.pendingCount).toBe(5);
    await recorder.flush();
    const at = (ms: number) => new Date(ms).toISOString();
    expect(written).toEqual([
      [
        { applicationId: 'a', networkId: 'n', method: 'eth_call', hour: at(hour), calls: 4, microCredits: 400 },
        { applicationId: 'a', networkId: 'n', method: 'eth_getLogs', hour: at(hour), calls: 1, microCredits: 500 },
        {
          applicationId: 'b',
          networkId: 'n',
          method: 'eth_sendRawTransaction',
          hour: at(hour),
          calls: 1,
          microCredits: 1_000,
        },
        { applicationId: 'b', networkId: 'n', method: 'eth_call', hour: at(hour), calls: 2, microCredits: 200 },
        {
          applicationId: 'a',
          networkId: 'n',
          method: 'eth_call',
          hour: at(hour + HOUR_MS),
          calls: 5,
          microCredits: 500,
        },
      ],
    ]);
    expect(recorder.pendingCount).toBe(0);
    await recorder.flush();
    expect(written).toHaveLength(1);
  });

  it('writes a busy second in parts of FLUSH_ROWS keys (PostgreSQL takes 65,535 parameters a statement)', async () => {
    const sizes: number[] = [];
    const recorder = new UsageRecorder(
      {
        addUsage: async (rows) => {
          sizes.push(rows.length);
          return { capReached: [] };
        },
      },
      noBus,
    );
    const keys = 2 * FLUSH_ROWS + 1;
    for (let i = 0; i < keys; i += 1)
      recorder.record(`app-${i}`, 'n', 'eth_call', 1, Date.parse('2025-03-01T10:00:00Z'));
    await recorder.flush();
    expect(sizes).toEqual([FLUSH_ROWS, FLUSH_ROWS, 1]);
    expect(recorder.pendingCount).toBe(0);
  });

  it('flushes as soon as FLUSH_ROWS keys are waiting, without waiting for the timer', async () => {
    const sizes: number[] = [];
    const recorder = new UsageRecorder(
      {
        addUsage: async (rows) => {
          sizes.push(rows.length);
          return { capReached: [] };
        },
      },
      noBus,
    );
    const hour = Date.parse('2025-03-01T10:00:00Z');
    for (let i = 0; i < FLUSH_ROWS - 1; i += 1) recorder.record(`app-${i}`, 'n', 'eth_call', 1, hour);
    // The same keys again add up: no new key, no flush.
    for (let i = 0; i < FLUSH_ROWS - 1; i += 1) recorder.record(`app-${i}`, 'n', 'eth_call', 1, hour);
    await Promise.resolve();
    expect(sizes).toEqual([]);
    recorder.record('app-last', 'n', 'eth_call', 1, hour);
    await vi.waitFor(() => expect(sizes).toEqual([FLUSH_ROWS]));
    expect(recorder.pendingCount).toBe(0);
  });

  it('after a failed flush at the threshold, leaves the retry to the timer', async () => {
    let attempts = 0;
    const recorder = new UsageRecorder(
      {
        addUsage: async () => {
          attempts += 1;
          throw new Error('database unavailable');
        },
      },
      noBus,
    );
    const hour = Date.parse('2025-03-01T10:00:00Z');
    for (let i = 0; i < FLUSH_ROWS; i += 1) recorder.record(`app-${i}`, 'n', 'eth_call', 1, hour);
    await vi.waitFor(() => expect(attempts).toBe(1));
    // Kept, and new keys do not try again at once.
    expect(recorder.pendingCount).toBe(FLUSH_ROWS);
    recorder.record('app-new', 'n', 'eth_call', 1, hour);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(1);
    await recorder.flush(); // the timer's: in two parts (FLUSH_ROWS keys, then one)
    expect(attempts).toBe(3);
    expect(recorder.pendingCount).toBe(FLUSH_ROWS + 1);
  });

  it('keeps the counts of a failed flush for the next one', async () => {
    const written: UsageCount[][] = [];
    const errors: unknown[] = [];
    let isDown = true;
    const recorder = new UsageRecorder(
      {
        addUsage: async (rows) => {
          if (isDown) throw new Error('database unavailable');
          written.push(rows);
          return { capReached: [] };
        },
      },
      noBus,
      (error) => errors.push(error),
    );
    const hour = Date.parse('2025-03-01T00:00:00Z');
    recorder.record('a', 'n', 'eth_call', 2, hour);
    await recorder.flush();
    expect(errors).toHaveLength(1);
    recorder.record('a', 'n', 'eth_call', 3, hour);
    isDown = false;
    await recorder.flush();
    expect(written).toEqual([
      [
        {
          applicationId: 'a',
          networkId: 'n',
          method: 'eth_call',
          hour: new Date(hour).toISOString(),
          calls: 5,
          microCredits: 500,
        },
      ],
    ]);
  });

  it('tells which applications a flush took to their cap', async () => {
    const reached: string[][] = [];
    const recorder = new UsageRecorder({ addUsage: async () => ({ capReached: ['a'] }) }, noBus, undefined, (ids) =>
      reached.push(ids),
    );
    recorder.record('a', 'n', 'eth_call', 1);
    await recorder.flush();
    expect(reached).toEqual([['a']]);
  });
});

describe('usage flushes on the database', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('announces each flush that wrote counts as one gateway.usage_counted; counts of a deleted application are dropped', async () => {
    const owner = await newAppUser(t);
    const network = await addNetwork(t);
    await activate(t, owner.accountId, network.id);
    const [kept, deleted] = [
      await createApplication(t, owner, [network.id]),
      await createApplication(t, owner, [network.id]),
    ];
    const outbox = new OutboxRepository(t.db.db);
    const recorder = new UsageRecorder(new GatewayRepository(t.app.deps.dbh), t.app.events);
    const hour = Date.parse('2025-03-31T23:00:00Z');
    const next = hour + HOUR_MS; // 1 April: another month.
    const before = (await outbox.ofType('gateway.usage_counted')).length;

    for (let i = 0; i < 5; i++) recorder.record(kept.id, network.id, 'eth_call', 1, hour + i);
    recorder.record(kept.id, network.id, 'eth_getLogs', 2, hour);
    recorder.record(deleted.id, network.id, 'eth_call', 7, hour);
    recorder.record(kept.id, network.id, 'eth_call', 2, next);
    await t.db.db.delete(applications).where(eq(applications.id, deleted.id));
    await recorder.flush();

    const events = (await outbox.ofType('gateway.usage_counted')).slice(before);
    expect(events).toHaveLength(1);
    const count = (method: string, at: number, calls: number, microCredits: number) => ({
      accountId: owner.accountId,
      applicationId: kept.id,
      networkId: network.id,
      method,
      hour: new Date(at).toISOString(),
      calls,
      microCredits,
    });
    expect(events[0]!.payload.counts).toEqual(
      expect.arrayContaining([
        count('eth_call', hour, 5, 500),
        count('eth_getLogs', hour, 2, 1_000),
        count('eth_call', next, 2, 200),
      ]),
    );
    expect(events[0]!.payload.counts).toHaveLength(3);
    const counters = async () =>
      (
        await t.db.db
          .select({
            method: gatewayUsageHourly.method,
            hour: gatewayUsageHourly.hour,
            calls: gatewayUsageHourly.calls,
            micro: gatewayUsageHourly.microCredits,
            accountId: gatewayUsageHourly.accountId,
          })
          .from(gatewayUsageHourly)
          .where(eq(gatewayUsageHourly.applicationId, kept.id))
      )
        .map((row) => ({ ...row, hour: row.hour.toISOString() }))
        .sort((a, b) => `${a.hour}${a.method}`.localeCompare(`${b.hour}${b.method}`));
    expect(await counters()).toEqual([
      { method: 'eth_call', hour: '2025-03-31T23:00:00.000Z', calls: 5, micro: 500, accountId: owner.accountId },
      { method: 'eth_getLogs', hour: '2025-03-31T23:00:00.000Z', calls: 2, micro: 1_000, accountId: owner.accountId },
      { method: 'eth_call', hour: '2025-04-01T00:00:00.000Z', calls: 2, micro: 200, accountId: owner.accountId },
    ]);
    const spend = async () =>
      (
        await t.db.db
          .select({ month: applicationMonthSpend.month, micro: applicationMonthSpend.microCredits })
          .from(applicationMonthSpend)
          .where(eq(applicationMonthSpend.applicationId, kept.id))
      ).sort((a, b) => a.month.localeCompare(b.month));
    expect(await spend()).toEqual([
      { month: '2025-03-01', micro: 1_500 },
      { month: '2025-04-01', micro: 200 },
    ]);

    // A flush with nothing left to write (only a deleted application's calls) announces nothing.
    recorder.record(deleted.id, network.id, 'eth_call', 1, hour);
    await recorder.flush();
    await recorder.flush();
    expect((await outbox.ofType('gateway.usage_counted')).slice(before)).toHaveLength(1);
    // The next flush adds to the hour's count and the month's spend, in an event of its own.
    recorder.record(kept.id, network.id, 'eth_call', 4, hour);
    await recorder.flush();
    expect(
      (await outbox.ofType('gateway.usage_counted')).slice(before).map((event) => event.payload.counts.length),
    ).toEqual([3, 1]);
    expect((await counters())[0]).toMatchObject({ method: 'eth_call', calls: 9, micro: 900 });
    expect((await spend())[0]).toEqual({ month: '2025-03-01', micro: 1_900 });
  });

  it('writes a flush in one statement (and its event) when no application is near a cap', async () => {
    const owner = await newAppUser(t);
    const network = await addNetwork(t);
    await activate(t, owner.accountId, network.id);
    const app = await createApplication(t, owner, [network.id]);
    const executed: string[] = [];
    const db = t.app.deps.dbh.db;
    // Count the statements the flush's transaction runs.
    const counting = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return (work: (tx: unknown) => Promise<unknown>) =>
          target.transaction((tx) =>
            work(
              new Proxy(tx, {
                get(inner, name, innerReceiver) {
                  if (name === 'execute') {
                    return (query: unknown) => {
                      executed.push('execute');
                      return (inner as unknown as { execute: (q: unknown) => unknown }).execute(query);
                    };
                  }
                  return Reflect.get(inner, name, innerReceiver);
                },
              }),
            ),
          );
      },
    });
    const events = { emit: async () => 'event' } as unknown as EventBus;
    const recorder = new UsageRecorder(new GatewayRepository({ ...t.app.deps.dbh, db: counting }), events);
    for (let i = 0; i < 50; i++) recorder.record(app.id, network.id, i % 2 ? 'eth_call' : 'eth_chainId', 1);
    await recorder.flush();
    expect(executed).toEqual(['execute']);
  });
});

describe('platform API usage on shutdown', () => {
  it('writes counted requests when the app closes', async () => {
    // GATEWAY_CACHE=off here: every call goes to the node (and is counted all the same).
    const [t, chain] = await Promise.all([createTestApp({ GATEWAY_CACHE: 'off' }), startTestChain()]);
    try {
      const owner = await newAppUser(t);
      const network = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId });
      await activate(t, owner.accountId, network.id);
      const created = ZCreateApplicationResponse.parse(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/application-manager/create-application/',
            headers: owner.headers,
            payload: {
              name: 'Shutdown app',
              callbackUrl: 'https://example.com/cb',
              applicationType: 'testnet',
              networkIds: [network.id],
            },
          })
        ).json(),
      );
      const token = ZTokenResponse.parse(
        (
          await t.app.inject({
            method: 'POST',
            url: '/oauth2/token',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: basic(created.clientId, created.clientSecret),
            },
            payload: 'grant_type=client_credentials',
          })
        ).json(),
      ).access_token;
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/gateway/${network.id}`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-gateway-cache']).toBeUndefined();
      }
      await t.app.close();
      const rows = await t.db.db
        .select()
        .from(gatewayUsageHourly)
        .where(eq(gatewayUsageHourly.applicationId, created.id));
      expect(rows.map((r) => [r.method, r.calls, r.microCredits])).toEqual([['eth_blockNumber', 2, 200]]);
    } finally {
      await t.db.close();
      await chain.stop();
    }
  }, 60_000);
});
