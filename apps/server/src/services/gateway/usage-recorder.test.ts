import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, applicationUsageDaily } from '@connect/db';
import { ZCreateApplicationResponse, ZTokenResponse } from '@connect/shared';
import { startTestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import type { EventBus } from '../../events/port.ts';
import { OutboxRepository } from '../../events/repository.ts';
import { activate, addNetwork, createApplication, newAppUser } from '../application-manager/testing.ts';
import { GatewayRepository, type UsageCount } from './repository.ts';
import { UsageRecorder } from './usage-recorder.ts';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

const DAY_MS = 86_400_000;

/** A bus for the unit tests, whose fake repository never calls it. */
const noBus = {} as EventBus;

describe('UsageRecorder', () => {
  it('adds up calls per application, network and UTC day, and writes them in one statement', async () => {
    const written: UsageCount[][] = [];
    const recorder = new UsageRecorder({ addUsage: async (rows) => void written.push(rows) }, noBus);
    const day = Date.parse('2025-03-01T00:00:00Z');
    recorder.record('a', 'n', 1, day + 10);
    recorder.record('a', 'n', 2, day + DAY_MS - 1);
    recorder.record('b', 'n', 1, day + 20);
    recorder.record('a', 'n', 5, day + DAY_MS);
    expect(recorder.pendingCount).toBe(3);
    await recorder.flush();
    expect(written).toEqual([
      [
        { applicationId: 'a', networkId: 'n', day: '2025-03-01', requests: 3 },
        { applicationId: 'b', networkId: 'n', day: '2025-03-01', requests: 1 },
        { applicationId: 'a', networkId: 'n', day: '2025-03-02', requests: 5 },
      ],
    ]);
    expect(recorder.pendingCount).toBe(0);
    await recorder.flush();
    expect(written).toHaveLength(1);
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
        },
      },
      noBus,
      (error) => errors.push(error),
    );
    const day = Date.parse('2025-03-01T00:00:00Z');
    recorder.record('a', 'n', 2, day);
    await recorder.flush();
    expect(errors).toHaveLength(1);
    recorder.record('a', 'n', 3, day);
    isDown = false;
    await recorder.flush();
    expect(written).toEqual([[{ applicationId: 'a', networkId: 'n', day: '2025-03-01', requests: 5 }]]);
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
    const day = Date.parse('2025-03-01T12:00:00Z');

    for (let i = 0; i < 5; i++) recorder.record(kept.id, network.id, 1, day);
    recorder.record(deleted.id, network.id, 7, day);
    recorder.record(kept.id, network.id, 2, day + DAY_MS);
    await t.db.db.delete(applications).where(eq(applications.id, deleted.id));
    await recorder.flush();

    const events = await outbox.ofType('gateway.usage_counted');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.counts).toEqual([
      { accountId: owner.accountId, applicationId: kept.id, networkId: network.id, day: '2025-03-01', calls: 5 },
      { accountId: owner.accountId, applicationId: kept.id, networkId: network.id, day: '2025-03-02', calls: 2 },
    ]);
    const usage = await t.db.db
      .select({ day: applicationUsageDaily.day, requests: applicationUsageDaily.requests })
      .from(applicationUsageDaily)
      .where(eq(applicationUsageDaily.applicationId, kept.id));
    expect(usage.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
      { day: '2025-03-01', requests: 5 },
      { day: '2025-03-02', requests: 2 },
    ]);

    // A flush with nothing left to write (only a deleted application's calls) announces nothing.
    recorder.record(deleted.id, network.id, 1, day);
    await recorder.flush();
    await recorder.flush();
    expect(await outbox.ofType('gateway.usage_counted')).toHaveLength(1);
    // The next flush adds to the day's count, in an event of its own.
    recorder.record(kept.id, network.id, 4, day);
    await recorder.flush();
    expect((await outbox.ofType('gateway.usage_counted')).map((event) => event.payload.counts.length)).toEqual([2, 1]);
    expect(
      (await t.db.db.select().from(applicationUsageDaily).where(eq(applicationUsageDaily.applicationId, kept.id))).find(
        (row) => row.day === '2025-03-01',
      )!.requests,
    ).toBe(9);
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
        .from(applicationUsageDaily)
        .where(eq(applicationUsageDaily.applicationId, created.id));
      expect(rows.map((r) => r.requests)).toEqual([2]);
    } finally {
      await t.db.close();
      await chain.stop();
    }
  }, 60_000);
});
