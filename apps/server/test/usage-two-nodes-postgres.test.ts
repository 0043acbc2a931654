import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayUsageHourly, ledgerEntries, openDatabase, usageRecords, type DbHandle } from '@connect/db';
import { ZTokenResponse } from '@connect/shared';
import { buildApp } from '../src/app.ts';
import { GatewayRepository, type UsageCount } from '../src/services/gateway/repository.ts';
import {
  activate,
  addNetwork,
  createApplication,
  liftPlanLimits,
  newAppUser,
  type TestUser,
} from '../src/services/application-manager/testing.ts';
import type { App } from '../src/types.ts';
import { fakeUpstream } from './fake-upstream.ts';
import { createTestApp, testConfig, type TestContext } from './helpers.ts';

/*
 * Metering on two nodes (two apps, each with its own pool, on one PostgreSQL database): the
 * calls both gateways served are counted exactly, flushes of both nodes add up on the same
 * counter rows, and closing the hours from both nodes at once stores and charges once. PGlite has
 * one connection and cannot show a race: this file needs DATABASE_URL (the CI's PostgreSQL pass
 * sets it; locally DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
 */

const databaseUrl = process.env.DATABASE_URL;
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe.skipIf(!databaseUrl)('usage metering on two nodes — needs DATABASE_URL (PostgreSQL)', () => {
  let first: TestContext;
  let pool: DbHandle;
  let second: App;
  let upstream: Server;
  let owner: TestUser;
  let network: { id: string };
  let application: { id: string; clientId: string; clientSecret: string };

  beforeAll(async () => {
    upstream = await fakeUpstream();
    // Every call forwarded (no shared answers), so each node counts each call it served.
    first = await createTestApp({ GATEWAY_CACHE: 'off' });
    const [row] = (await first.db.query('select current_database() as name')).rows;
    const url = new URL(databaseUrl!);
    url.pathname = `/${String(row!.name)}`;
    pool = await openDatabase({ databaseUrl: url.toString(), poolSize: 8 });
    second = await buildApp({ config: testConfig({ GATEWAY_CACHE: 'off' }), db: pool, logger: false });
    await second.ready();
    owner = await newAppUser(first);
    await liftPlanLimits(first, owner.accountId);
    const rpcUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    network = await addNetwork(first, { rpcUrl, rateLimit: 1_000_000 });
    await activate(first, owner.accountId, network.id);
    application = await createApplication(first, owner, [network.id]);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await pool?.close();
    await first?.close();
    await new Promise((done) => upstream?.close(done));
  });

  it('counts every call both gateways served, per method, and the close from both nodes charges once', async () => {
    const token = ZTokenResponse.parse(
      (
        await first.app.inject({
          method: 'POST',
          url: '/oauth2/token',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic(application.clientId, application.clientSecret),
          },
          payload: 'grant_type=client_credentials',
        })
      ).json(),
    ).access_token;
    const call = (method: string, id: number) => ({ jsonrpc: '2.0', id, method, params: [] });
    const rpc = (app: App, payload: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/gateway/${network.id}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: JSON.stringify(payload),
      });
    // On each node, at once: 30 single eth_call, 10 batches of [eth_chainId, eth_call, a refused call].
    const requests = [first.app, second].flatMap((app) => [
      ...Array.from({ length: 30 }, (_, i) => rpc(app, call('eth_call', i))),
      ...Array.from({ length: 10 }, (_, i) =>
        rpc(app, [call('eth_chainId', i), call('eth_call', i + 100), call('anvil_setBalance', i + 200)]),
      ),
    ]);
    const answers = await Promise.all(requests);
    expect(answers.map((res) => res.statusCode).every((status) => status === 200)).toBe(true);

    const counters = async () =>
      (
        await first.db.db
          .select({ method: gatewayUsageHourly.method, calls: gatewayUsageHourly.calls })
          .from(gatewayUsageHourly)
          .where(eq(gatewayUsageHourly.applicationId, application.id))
      ).sort((a, b) => a.method.localeCompare(b.method));
    // Each node flushes on its own timer (USAGE_FLUSH_MS).
    await expect.poll(counters, { timeout: 10_000, interval: 250 }).toEqual([
      { method: 'eth_call', calls: 2 * (30 + 10) },
      { method: 'eth_chainId', calls: 2 * 10 },
    ]);

    // Many flushes of both nodes at once on the same rows: 40 × 1,000 reads = 4 credits.
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const rows: UsageCount[] = [
      {
        applicationId: application.id,
        networkId: network.id,
        method: 'eth_getBalance',
        hour,
        calls: 1_000,
        microCredits: 100_000,
      },
    ];
    const repositories = [new GatewayRepository(first.app.deps.dbh), new GatewayRepository(pool)];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        repositories[i % 2]!.addUsage(rows, i % 2 ? second.events : first.app.events),
      ),
    );
    expect((await counters()).find((row) => row.method === 'eth_getBalance')).toEqual({
      method: 'eth_getBalance',
      calls: 40_000,
    });

    // Both nodes close the hour at once (and again): one set of records, one charge.
    const later = new Date(Date.parse(hour) + 2 * 3_600_000);
    const closes = await Promise.all([
      first.app.deps.runtime.usage!.closeHours(later),
      second.deps.runtime.usage!.closeHours(later),
      first.app.deps.runtime.usage!.closeHours(later),
      second.deps.runtime.usage!.closeHours(later),
    ]);
    expect(closes.reduce((sum, close) => sum + close.records, 0)).toBe(3);
    expect(closes.reduce((sum, close) => sum + close.charges, 0)).toBe(1);
    const [recorded] = (await first.db.db
      .select({ calls: sql<string>`sum(calls)::text` })
      .from(usageRecords)
      .where(eq(usageRecords.applicationId, application.id))) as [{ calls: string }];
    expect(Number(recorded.calls)).toBe(40_000 + 80 + 20);
    const charges = await first.db.db
      .select()
      .from(ledgerEntries)
      .where(like(ledgerEntries.reference, `usage:${owner.accountId}:%`));
    // 4 credits of eth_getBalance + 100 reads (0.01): the fraction is not charged.
    expect(charges.map((entry) => [entry.reference, entry.amount])).toEqual([
      [`usage:${owner.accountId}:${hour}`, -4n],
    ]);
  }, 60_000);
});
