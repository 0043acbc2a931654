import { eq, like, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applications, ledgerEntries, usageRecords } from '@connect/db';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { OutboxRepository } from '../../events/repository.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { UsageRecordRepository } from '../../repositories/usage-records.ts';
import { activate, addNetwork, createApplication, newAppUser, type TestUser } from '../application-manager/testing.ts';
import { GatewayRepository, type UsageCount } from '../gateway/repository.ts';
import { closeHours } from './close.ts';

const H10 = '2026-10-05T10:00:00.000Z';
const H11 = '2026-10-05T11:00:00.000Z';
const at = (iso: string) => new Date(iso);

describe('closing the gateway’s hours', () => {
  let t: TestContext;
  let x: TestUser;
  let y: TestUser;
  let network: { id: string };
  let apps: { app1: string; app2: string; app3: string };

  beforeEach(async () => {
    t = await createTestApp();
    x = await newAppUser(t);
    y = await newAppUser(t);
    network = await addNetwork(t);
    await activate(t, x.accountId, network.id);
    await activate(t, y.accountId, network.id);
    apps = {
      app1: (await createApplication(t, x, [network.id])).id,
      app2: (await createApplication(t, x, [network.id])).id,
      app3: (await createApplication(t, y, [network.id])).id,
    };
  });
  afterEach(() => t?.close());

  const deps = () => t.app.deps;
  const count = (
    applicationId: string,
    method: string,
    hour: string,
    calls: number,
    microEach: number,
  ): UsageCount => ({
    applicationId,
    networkId: network.id,
    method,
    hour,
    calls,
    microCredits: calls * microEach,
  });
  const flush = (rows: UsageCount[]) => new GatewayRepository(t.app.deps.dbh).addUsage(rows, t.app.events);
  /** X: 0.8 + 0.5 credit at 10:00, 0.7 at 11:00; Y: 2 credits at 10:00. */
  const countHours = () =>
    flush([
      count(apps.app1, 'eth_call', H10, 8_000, 100),
      count(apps.app1, 'eth_getLogs', H10, 1_000, 500),
      count(apps.app2, 'eth_sendRawTransaction', H11, 700, 1_000),
      count(apps.app3, 'eth_call', H10, 20_000, 100),
    ]);

  /** Everything a close could move: the records, the usage entries and balances of both accounts. */
  async function totals() {
    const ledger = new LedgerRepository(t.db.db);
    const [records] = (await t.db.db
      .select({ count: sql<number>`count(*)::int`, micro: sql<string>`coalesce(sum(micro_credits), 0)::text` })
      .from(usageRecords)) as [{ count: number; micro: string }];
    const usageEntries = await t.db.db.select().from(ledgerEntries).where(like(ledgerEntries.reference, 'usage:%'));
    return {
      records,
      entries: usageEntries.length,
      balances: [
        (await ledger.balance(x.accountId, 'CREDIT')).balance,
        (await ledger.balance(y.accountId, 'CREDIT')).balance,
      ],
    };
  }
  const usageEntries = async (accountId: string) =>
    (await new LedgerRepository(t.db.db).entries(accountId, 'CREDIT'))
      .filter((entry) => entry.reference.startsWith('usage:'))
      .map((entry) => [entry.reference, entry.amount, entry.reason]);

  it('makes closed hours usage records and charges whole credits per account and billed hour, carrying fractions in the month', async () => {
    await countHours();
    const outbox = new OutboxRepository(t.db.db);
    const startX = (await new LedgerRepository(t.db.db).balance(x.accountId, 'CREDIT')).available;

    // 12:04: with the grace, 11:00 has not closed yet; 10:00 has.
    expect(await closeHours(deps(), at('2026-10-05T12:04:00Z'))).toEqual({ records: 3, charges: 2 });
    const records = await t.db.db.select().from(usageRecords).where(eq(usageRecords.applicationId, apps.app1));
    expect(
      records.map((r) => [r.id, r.methodClass, r.calls, r.microCredits, r.billedHour.toISOString()]).sort(),
    ).toEqual([
      [`gateway:${apps.app1}:${network.id}:eth_call:${H10}`, 'read', 8_000, 800_000, H10],
      [`gateway:${apps.app1}:${network.id}:eth_getLogs:${H10}`, 'log', 1_000, 500_000, H10],
    ]);
    expect(await usageEntries(x.accountId)).toEqual([
      [`usage:${x.accountId}:${H10}`, -1n, 'Gateway calls, 05.10.2026 10:00–11:00 UTC'],
    ]);
    expect(await usageEntries(y.accountId)).toEqual([
      [`usage:${y.accountId}:${H10}`, -2n, 'Gateway calls, 05.10.2026 10:00–11:00 UTC'],
    ]);

    // 12:06: 11:00 closes. X's 1.3 + 0.7 = 2 credits in the month: 1 more (the 0.3 carried).
    expect(await closeHours(deps(), at('2026-10-05T12:06:00Z'))).toEqual({ records: 1, charges: 1 });
    expect((await usageEntries(x.accountId)).map(([, amount]) => amount)).toEqual([-1n, -1n]);
    const charged = (await outbox.ofType('usage.charged')).filter((event) => event.payload.accountId === x.accountId);
    expect(charged.map((event) => event.payload)).toEqual([
      {
        accountId: x.accountId,
        billedHour: H10,
        credits: 1,
        availableBefore: Number(startX),
        availableAfter: Number(startX) - 1,
      },
      {
        accountId: x.accountId,
        billedHour: H11,
        credits: 1,
        availableBefore: Number(startX) - 1,
        availableAfter: Number(startX) - 2,
      },
    ]);

    // Calls of 10:00 counted after it closed: a correction, billed in the hour of the close that
    // found them (12:00), charged once that hour has closed too.
    await flush([count(apps.app1, 'eth_call', H10, 10_000, 100)]);
    expect(await closeHours(deps(), at('2026-10-05T12:30:00Z'))).toEqual({ records: 1, charges: 0 });
    const [correction] = await t.db.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.id, `gateway:${apps.app1}:${network.id}:eth_call:${H10}:+18000`));
    expect(correction).toMatchObject({ calls: 10_000, microCredits: 1_000_000, source: 'GATEWAY' });
    expect(correction!.hour.toISOString()).toBe(H10);
    expect(correction!.billedHour.toISOString()).toBe('2026-10-05T12:00:00.000Z');
    expect(await closeHours(deps(), at('2026-10-05T13:05:00Z'))).toEqual({ records: 0, charges: 1 });
    expect((await usageEntries(x.accountId)).map(([reference, amount]) => [reference, amount])).toEqual([
      [`usage:${x.accountId}:${H10}`, -1n],
      [`usage:${x.accountId}:${H11}`, -1n],
      [`usage:${x.accountId}:2026-10-05T12:00:00.000Z`, -1n],
    ]);

    // Replay: every close again, and the records stored again: no total moves.
    const before = await totals();
    for (const now of [
      '2026-10-05T12:04:00Z',
      '2026-10-05T12:06:00Z',
      '2026-10-05T12:30:00Z',
      '2026-10-05T13:05:00Z',
      '2026-10-05T14:00:00Z',
    ]) {
      await closeHours(deps(), at(now));
    }
    const stored = await t.db.db.select().from(usageRecords);
    expect(
      await new UsageRecordRepository(t.db.db).add(stored.map(({ createdAt: _createdAt, ...record }) => record)),
    ).toBe(0);
    expect(await totals()).toEqual(before);
    expect(before.records).toEqual({ count: 5, micro: String(800_000 + 500_000 + 700_000 + 2_000_000 + 1_000_000) });
    expect(before.entries).toBe(4);
  });

  it('two closes at once store and charge once', async () => {
    await countHours();
    const results = await Promise.all([
      closeHours(deps(), at('2026-10-05T12:06:00Z')),
      closeHours(deps(), at('2026-10-05T12:06:00Z')),
    ]);
    expect(results.map((r) => r.records).sort()).toEqual([0, 4]);
    expect(results.map((r) => r.charges).sort()).toEqual([0, 3]);
    const after = await totals();
    expect(after.entries).toBe(3);
    expect(after.records.count).toBe(4);
  });

  it('charges past the floor: the calls were served', async () => {
    const ledger = new LedgerRepository(t.db.db);
    const { available } = await ledger.balance(y.accountId, 'CREDIT');
    const calls = (Number(available) + 3) * 10_000;
    await flush([count(apps.app3, 'eth_call', H10, calls, 100)]);
    await closeHours(deps(), at('2026-10-05T12:04:00Z'));
    expect((await ledger.balance(y.accountId, 'CREDIT')).available).toBe(-3n);
  });

  it('charges the calls of an application deleted before its hour closed', async () => {
    await flush([count(apps.app3, 'eth_call', H10, 30_000, 100)]);
    await t.db.db.delete(applications).where(eq(applications.id, apps.app3));
    const before = (await new LedgerRepository(t.db.db).balance(y.accountId, 'CREDIT')).balance;
    await closeHours(deps(), at('2026-10-05T11:06:00Z'));
    const [record] = await t.db.db.select().from(usageRecords).where(eq(usageRecords.applicationId, apps.app3));
    expect(record).toMatchObject({ calls: 30_000, microCredits: 3_000_000 });
    expect((await new LedgerRepository(t.db.db).balance(y.accountId, 'CREDIT')).balance).toBe(before - 3n);
  });
});
