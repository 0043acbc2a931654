import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceCounters, invoices, openDatabase, orders, type DbHandle } from '@connect/db';
import { USAGE_CLOSE_GRACE_MINUTES } from '@connect/shared';
import { buildApp } from '../src/app.ts';
import { payPlan } from '../src/services/account-plan/testing.ts';
import { activate, addNetwork, createApplication, newAppUser } from '../src/services/application-manager/testing.ts';
import { GatewayRepository } from '../src/services/gateway/repository.ts';
import { closeHours } from '../src/services/usage/close.ts';
import type { App } from '../src/types.ts';
import { createTestApp, testConfig, type TestContext } from './helpers.ts';

/*
 * The month's close on two nodes (two apps, each with its own pool, on one PostgreSQL database):
 * both close the same period at the same moment, drafts and numbers included; the invoices are
 * made and numbered once, 1..N without a gap, with one USAGE order each. PGlite has one
 * connection and cannot show a race: this file needs DATABASE_URL (locally
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
 */

const databaseUrl = process.env.DATABASE_URL;
const ACCOUNTS = 6;
/** The periods are relative to the clock (any date passes): JAN is the UTC month after next, FEB the one after. */
const STARTED = new Date();
const JAN = new Date(Date.UTC(STARTED.getUTCFullYear(), STARTED.getUTCMonth() + 2, 1));
const FEB = new Date(Date.UTC(STARTED.getUTCFullYear(), STARTED.getUTCMonth() + 3, 1));
/** This month's start: the plans are paid before the periods billed. */
const THIS_MONTH = new Date(Date.UTC(STARTED.getUTCFullYear(), STARTED.getUTCMonth(), 1));

describe.skipIf(!databaseUrl)('the month’s close on two nodes — needs DATABASE_URL (PostgreSQL)', () => {
  let first: TestContext;
  let pool: DbHandle;
  let second: App;

  beforeAll(async () => {
    first = await createTestApp();
    const [row] = (await first.db.query('select current_database() as name')).rows;
    const url = new URL(databaseUrl!);
    url.pathname = `/${String(row!.name)}`;
    pool = await openDatabase({ databaseUrl: url.toString(), poolSize: 8 });
    second = await buildApp({ config: testConfig(), db: pool, logger: false });
    await second.ready();

    const network = await addNetwork(first);
    for (let index = 0; index < ACCOUNTS; index++) {
      const user = await newAppUser(first);
      await activate(first, user.accountId, network.id);
      const application = await createApplication(first, user, [network.id]);
      await payPlan(first, user.accountId, 'payg-standard', THIS_MONTH);
      // 100 trial credits, then 150 + 10 × index used in JAN (on its 10th to 15th): 50 + 10 × index on credit.
      const calls = (150 + 10 * index) * 10_000;
      await new GatewayRepository(first.app.deps.dbh).addUsage(
        [
          {
            applicationId: application.id,
            networkId: network.id,
            method: 'eth_call',
            hour: new Date(JAN.getTime() + (9 + index) * 86_400_000 + 10 * 3_600_000).toISOString(),
            calls,
            microCredits: calls * 100,
          },
        ],
        first.app.events,
      );
    }
    await closeHours(first.app.deps, new Date(FEB.getTime() + USAGE_CLOSE_GRACE_MINUTES * 60_000));
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await pool?.close();
    await first?.close();
  });

  it('two nodes close the same period at once: N invoices numbered 1..N, once', async () => {
    const input = { periodEnd: FEB, now: FEB, finaliseNow: true };
    const [a, b] = await Promise.all([
      first.app.deps.runtime.invoices!.closePeriod(input),
      second.deps.runtime.invoices!.closePeriod(input),
    ]);
    // One node did the work; the other waited for its lock and found the period closed.
    expect([a.finalised, b.finalised].sort()).toEqual([0, ACCOUNTS]);

    const rows = await first.db.db.select().from(invoices).where(eq(invoices.kind, 'MONTHLY'));
    expect(rows).toHaveLength(ACCOUNTS);
    expect(rows.map((row) => row.numberSeq).sort((x, y) => x! - y!)).toEqual(
      Array.from({ length: ACCOUNTS }, (_, index) => index + 1),
    );
    expect(rows.every((row) => row.status === 'OPEN' && row.orderId)).toBe(true);
    const [counter] = await first.db.db.select().from(invoiceCounters).where(eq(invoiceCounters.series, 'INV'));
    expect(counter!.last).toBe(ACCOUNTS);
    expect(await first.db.db.select().from(orders).where(eq(orders.kind, 'USAGE'))).toHaveLength(ACCOUNTS);

    // Again on both: nothing.
    const again = await Promise.all([
      first.app.deps.runtime.invoices!.closePeriod(input),
      second.deps.runtime.invoices!.closePeriod(input),
    ]);
    expect(again.map((run) => run.drafted + run.finalised)).toEqual([0, 0]);
    expect(await first.db.db.select().from(invoices).where(eq(invoices.kind, 'MONTHLY'))).toHaveLength(ACCOUNTS);
  });
});
