import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationMonthSpend, applications, gatewayUsageHourly, outboxEvents, usageRecords } from '@connect/db';
import {
  ZApplicationSpend,
  ZBalanceHistory,
  ZProblem,
  ZSpendingCaps,
  ZUsageReport,
  type TUsageReportQuery,
} from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { putOnPlan } from '../../../test/plans.ts';
import { applicationChanges } from '../../lib/application-changes.ts';
import { readCsv } from '../../lib/csv-testing.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { activate, addNetwork, createApplication, newAppUser, type TestUser } from '../application-manager/testing.ts';
import { UsageReportRepository } from './report-repository.ts';
import { monthOf, UsageReportService } from './report.ts';

/** The usage API (issue 17 §2, §3): the report, its forecast, the balance's history, the CSV export, the caps. */
describe('usage API', () => {
  let t: TestContext;
  let owner: TestUser;
  let stranger: TestUser;
  let network: { id: string; name: string };
  let shop: { id: string; name: string };
  let minus: { id: string; name: string };
  let theirs: { id: string };

  const at = (iso: string) => new Date(iso);
  async function counter(
    user: TestUser,
    applicationId: string,
    method: string,
    hour: string,
    calls: number,
    microCredits: number,
  ) {
    await t.db.db.insert(gatewayUsageHourly).values({
      applicationId,
      networkId: network.id,
      method,
      hour: at(hour),
      accountId: user.accountId,
      calls,
      microCredits,
    });
  }
  async function deployment(user: TestUser, tokenId: string, hour: string, microCredits: number, suffix = '') {
    await t.db.db.insert(usageRecords).values({
      id: `deployment:${tokenId}${suffix}`,
      accountId: user.accountId,
      source: 'DEPLOYMENT',
      applicationId: null,
      networkId: network.id,
      method: 'deployment',
      methodClass: 'deployment',
      hour: at(hour),
      billedHour: at(hour),
      calls: microCredits > 0 ? 1 : -1,
      microCredits,
    });
  }
  const get = (user: TestUser | null, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/application-manager${url}`, ...(user ? { headers: user.headers } : {}) });
  const put = (user: TestUser, url: string, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/application-manager${url}`,
      headers: user.headers,
      payload: payload as object,
    });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await newAppUser(t);
    stranger = await newAppUser(t);
    network = await addNetwork(t, { name: 'Alpha testnet' });
    await activate(t, owner.accountId, network.id);
    await activate(t, stranger.accountId, network.id);
    shop = await createApplication(t, owner, [network.id], 'Shop');
    // A name the form allows that a spreadsheet would compute (−1 −1): the export must not.
    minus = await createApplication(t, owner, [network.id], '-1-1');
    theirs = await createApplication(t, stranger, [network.id], 'Theirs');

    // November 2025: the owner's two applications, a deployment and its refund's neighbour.
    await counter(owner, shop.id, 'eth_call', '2025-11-03T10:00:00Z', 100, 10_000);
    await counter(owner, shop.id, 'eth_call', '2025-11-03T11:00:00Z', 50, 5_000);
    await counter(owner, shop.id, 'eth_getLogs', '2025-11-03T11:00:00Z', 4, 2_000);
    await counter(owner, minus.id, 'eth_sendRawTransaction', '2025-11-04T00:00:00Z', 2, 2_000);
    await deployment(owner, 'tok-1', '2025-11-04T09:00:00Z', 25_000_000);
    // Deployed and refunded within the hour: nets to nothing.
    await deployment(owner, 'tok-2', '2025-11-05T09:00:00Z', 10_000_000);
    await deployment(owner, 'tok-2', '2025-11-05T09:00:00Z', -10_000_000, ':refund');
    // Another account's use in the same days never shows.
    await counter(stranger, theirs.id, 'eth_call', '2025-11-03T10:00:00Z', 7_000, 700_000);
    await deployment(stranger, 'tok-theirs', '2025-11-04T09:00:00Z', 99_000_000);
  });
  afterAll(() => t?.close());

  it('answers the account’s use per day, application, network and method, with names and totals', async () => {
    const res = await get(owner, '/usage/report?from=2025-11-01&to=2025-11-30');
    expect(res.statusCode, res.body).toBe(200);
    const report = ZUsageReport.parse(res.json());
    expect(report.buckets).toEqual([
      {
        start: '2025-11-03T00:00:00.000Z',
        applicationId: shop.id,
        networkId: network.id,
        method: 'eth_call',
        methodClass: 'read',
        calls: 150,
        credits: 0.015,
      },
      {
        start: '2025-11-03T00:00:00.000Z',
        applicationId: shop.id,
        networkId: network.id,
        method: 'eth_getLogs',
        methodClass: 'log',
        calls: 4,
        credits: 0.002,
      },
      expect.objectContaining({
        start: '2025-11-04T00:00:00.000Z',
        applicationId: minus.id,
        method: 'eth_sendRawTransaction',
        methodClass: 'send',
        calls: 2,
      }),
      {
        start: '2025-11-04T00:00:00.000Z',
        applicationId: null,
        networkId: network.id,
        method: 'deployment',
        methodClass: 'deployment',
        calls: 1,
        credits: 25,
      },
    ]);
    expect(report.applications).toEqual(
      expect.arrayContaining([
        { id: shop.id, name: 'Shop' },
        { id: minus.id, name: '-1-1' },
      ]),
    );
    expect(report.applications).toHaveLength(2);
    expect(report.networks).toEqual([{ id: network.id, name: 'Alpha testnet' }]);
    expect(report.totals).toEqual({ calls: 157, credits: 25.019 });
  });

  it('answers by hour, and one application without the account’s deployments', async () => {
    const res = await get(
      owner,
      `/usage/report?from=2025-11-03&to=2025-11-04&granularity=hour&applicationId=${shop.id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const report = ZUsageReport.parse(res.json());
    expect(report.buckets.map((b) => [b.start, b.method, b.calls])).toEqual([
      ['2025-11-03T10:00:00.000Z', 'eth_call', 100],
      ['2025-11-03T11:00:00.000Z', 'eth_call', 50],
      ['2025-11-03T11:00:00.000Z', 'eth_getLogs', 4],
    ]);
    expect(report.totals).toEqual({ calls: 154, credits: 0.017 });
  });

  it('answers another account’s application as an unknown one, and never shows its use', async () => {
    const res = await get(owner, `/usage/report?from=2025-11-01&to=2025-11-30&applicationId=${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(ZProblem.parse(res.json()).code).toBe('APPLICATION_NOT_FOUND');
    const own = ZUsageReport.parse((await get(stranger, '/usage/report?from=2025-11-01&to=2025-11-30')).json());
    expect(own.buckets.map((b) => b.applicationId)).toEqual([theirs.id, null]);
    expect(own.totals).toEqual({ calls: 7_001, credits: 99.7 });
    const caps = ZSpendingCaps.parse((await get(owner, '/usage/caps')).json());
    expect(caps.applications.map((a) => a.applicationId)).not.toContain(theirs.id);
    expect((await put(owner, `/usage/caps/${theirs.id}`, { monthlyCapCredits: 1 })).statusCode).toBe(404);
    const [row] = await t.db.db.select().from(applications).where(eq(applications.id, theirs.id));
    expect(row!.monthlyCapMicro).toBeNull();
  });

  it('refuses malformed ranges with the field and the reason', async () => {
    const refusal = async (query: string) => {
      const res = await get(owner, `/usage/report?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      return ZProblem.parse(res.json()).invalidParams?.map((p) => p.name);
    };
    expect(await refusal('from=2025-13-01&to=2025-11-30')).toEqual(['from']);
    expect(await refusal('from=2025-11-30&to=2025-11-01')).toEqual(['to']);
    expect(await refusal('from=2025-10-01&to=2025-11-30&granularity=hour')).toEqual(['from']);
    expect(await refusal('from=2024-01-01&to=2025-11-30')).toEqual(['from']);
    expect(await refusal('from=2025-11-01&to=2025-11-30&granularity=week')).toEqual(['granularity']);
    expect(await refusal('from=2025-11-01&to=2025-11-30&applicationId=not-a-uuid')).toEqual(['applicationId']);
    expect(await refusal('to=2025-11-30')).toEqual(['from']);
    const history = await get(owner, '/usage/balance-history?from=2025-11-30&to=2025-11-01');
    expect(history.statusCode).toBe(400);
    expect(ZProblem.parse(history.json()).invalidParams?.map((p) => p.name)).toEqual(['to']);
    expect((await get(owner, '/usage/export.csv?from=2025-11-01')).statusCode).toBe(400);
    expect((await get(null, '/usage/report?from=2025-11-01&to=2025-11-30')).statusCode).toBe(401);
  });

  describe('the month’s forecast', () => {
    // The forecast sets no cap: the application manager's writer is not needed here.
    const noCaps = () => Promise.reject(new Error('the forecast sets no cap'));
    const service = () => new UsageReportService(new UsageReportRepository(t.db.db, noCaps), t.app.deps.events);
    const query: TUsageReportQuery = { from: '2025-11-01', to: '2025-11-01', granularity: 'day' };

    it('prepaid: the month so far continued in a straight line, and the day the credits run out', async () => {
      // 10 of November's 30 days gone: 25.019 credits used → 75.057 by the month's end.
      const forecast = await service().forecast(owner, at('2025-11-11T00:00:00Z'));
      expect(forecast).toMatchObject({ month: '2025-11-01', usedCredits: 25.019, predictedCredits: 75.057 });
      expect(forecast.predictedCostUsdCents).toBeNull();
      // The trial's 100 credits at the last seven days' rate (25.002 credits since 4 November: 3.57 a
      // day) last 28 days, past the month's end.
      expect(forecast.creditsRunOutOn).toBeNull();
      const report = await service().report(owner, query, at('2025-11-11T00:00:00Z'));
      expect(report.forecast).toEqual(forecast);
    });

    it('prepaid: credits that run out within the month give the day', async () => {
      const user = await newAppUser(t);
      await activate(t, user.accountId, network.id);
      const app = await createApplication(t, user, [network.id]);
      const ledger = new LedgerRepository(t.db.db);
      const { available } = await ledger.balance(user.accountId, 'CREDIT');
      // Seven credits a day over the last week, and 14 credits left: two more days.
      await counter(user, app.id, 'eth_call', '2025-11-05T10:00:00Z', 490_000, 49_000_000);
      const left = 14n;
      if (available > left) {
        await ledger.consume(user.accountId, 'CREDIT', available - left, {
          reason: 'Test use',
          reference: `t:${app.id}`,
        });
      } else if (available < left) {
        await ledger.grant(user.accountId, 'CREDIT', left - available, { reason: 'Test', reference: `t:${app.id}` });
      }
      const forecast = await service().forecast(user, at('2025-11-11T12:00:00Z'));
      expect(forecast.creditsRunOutOn).toBe('2025-11-13');
      await ledger.consume(user.accountId, 'CREDIT', 14n, { reason: 'Test use', reference: `t2:${app.id}` });
      expect((await service().forecast(user, at('2025-11-11T12:00:00Z'))).creditsRunOutOn).toBe('2025-11-11');
    });

    it('pay as you go: the predicted credits at the plan’s price; in the first hours a whole day is the trend', async () => {
      const user = await newAppUser(t);
      await activate(t, user.accountId, network.id);
      const app = await createApplication(t, user, [network.id]);
      await putOnPlan(t.db.db, user.accountId, 'payg-standard');
      await counter(user, app.id, 'eth_call', '2025-11-01T00:00:00Z', 100_000, 10_000_000);
      const forecast = await service().forecast(user, at('2025-11-01T02:00:00Z'));
      // Two hours into the month, 10 credits: 10 a day (not 120), for the 29 days and 22 hours left.
      expect(forecast.usedCredits).toBe(10);
      expect(forecast.predictedCredits).toBeCloseTo(10 + 10 * (29 + 22 / 24), 5);
      expect(forecast.creditPriceUsdCents).toEqual(expect.any(Number));
      expect(forecast.predictedCostUsdCents).toBe(
        Math.round(forecast.predictedCredits * forecast.creditPriceUsdCents!),
      );
      expect(forecast.creditsRunOutOn).toBeNull();
    });
  });

  it('answers the credit balance before the range and after each ledger entry in it', async () => {
    const ledger = new LedgerRepository(t.db.db);
    await ledger.grant(owner.accountId, 'CREDIT', 500n, {
      reason: 'Goodwill',
      reference: `goodwill:${owner.accountId}`,
    });
    await ledger.consume(owner.accountId, 'CREDIT', 30n, {
      reason: 'Token deployment',
      reference: `token:x-${owner.accountId}`,
    });
    const today = new Date().toISOString().slice(0, 10);
    const res = await get(owner, `/usage/balance-history?from=${today}&to=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    const history = ZBalanceHistory.parse(res.json());
    expect(history.points.slice(-2)).toEqual([
      expect.objectContaining({ amount: 500, reason: 'Goodwill' }),
      expect.objectContaining({ amount: -30, reason: 'Token deployment' }),
    ]);
    const now = await ledger.balance(owner.accountId, 'CREDIT');
    expect(history.points.at(-1)!.balance).toBe(Number(now.balance));
    expect(history.opening + history.points.reduce((sum, p) => sum + p.amount, 0)).toBe(Number(now.balance));
    expect(history).toMatchObject({ balance: Number(now.balance), available: Number(now.available), floor: 0 });
    // A range after every entry: they are all before it.
    const later = ZBalanceHistory.parse(
      (await get(owner, '/usage/balance-history?from=2099-01-01&to=2099-01-31')).json(),
    );
    expect(later).toMatchObject({ opening: Number(now.balance), points: [] });
    // Another account's entries never show.
    const theirsHistory = ZBalanceHistory.parse(
      (await get(stranger, `/usage/balance-history?from=${today}&to=${today}`)).json(),
    );
    expect(theirsHistory.points.map((p) => p.reason)).not.toContain('Goodwill');
  });

  it('exports the report as a CSV file a spreadsheet reads without running any cell', async () => {
    await t.db.db.update(applications).set({ name: '=HYPERLINK("http://evil")' }).where(eq(applications.id, shop.id));
    try {
      const res = await get(owner, '/usage/export.csv?from=2025-11-01&to=2025-11-30');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="usage-2025-11-01-2025-11-30.csv"');
      expect(readCsv(res.body)).toEqual([
        ['Period start (UTC)', 'Application', 'Network', 'Method', 'Class', 'Calls', 'Credits'],
        ['2025-11-03T00:00:00Z', `'=HYPERLINK("http://evil")`, 'Alpha testnet', 'eth_call', 'read', '150', '0.015'],
        ['2025-11-03T00:00:00Z', `'=HYPERLINK("http://evil")`, 'Alpha testnet', 'eth_getLogs', 'log', '4', '0.002'],
        ['2025-11-04T00:00:00Z', "'-1-1", 'Alpha testnet', 'eth_sendRawTransaction', 'send', '2', '0.002'],
        ['2025-11-04T00:00:00Z', '', 'Alpha testnet', 'deployment', 'deployment', '1', '25'],
      ]);
      const one = await get(owner, `/usage/export.csv?from=2025-11-04&to=2025-11-04&applicationId=${minus.id}`);
      expect(
        readCsv(one.body)
          .slice(1)
          .map((row) => row[3]),
      ).toEqual(['eth_sendRawTransaction']);
      expect(
        (await get(owner, `/usage/export.csv?from=2025-11-01&to=2025-11-30&applicationId=${theirs.id}`)).statusCode,
      ).toBe(404);
    } finally {
      await t.db.db.update(applications).set({ name: 'Shop' }).where(eq(applications.id, shop.id));
    }
  });

  it('sets, reports and removes an application’s monthly cap; the gateway is told at once', async () => {
    const changed: string[] = [];
    const stop = applicationChanges(t.app.deps).on((id) => changed.push(id));
    try {
      const month = monthOf(new Date()).day;
      await t.db.db.insert(applicationMonthSpend).values({ applicationId: shop.id, month, microCredits: 9_000_000 });
      // Last month's spend is not this month's.
      await t.db.db
        .insert(applicationMonthSpend)
        .values({ applicationId: minus.id, month: '2025-01-01', microCredits: 500_000_000 });

      const set = await put(owner, `/usage/caps/${shop.id}`, { monthlyCapCredits: 10 });
      expect(set.statusCode, set.body).toBe(200);
      expect(ZApplicationSpend.parse(set.json())).toEqual({
        applicationId: shop.id,
        name: 'Shop',
        monthlyCapCredits: 10,
        usedCredits: 9,
        state: 'WARNING',
      });
      expect(changed).toEqual([shop.id]);
      const [row] = await t.db.db.select().from(applications).where(eq(applications.id, shop.id));
      expect(row!.monthlyCapMicro).toBe(10_000_000);

      const caps = ZSpendingCaps.parse((await get(owner, '/usage/caps')).json());
      expect(caps.month).toBe(month);
      expect(caps.applications).toEqual([
        { applicationId: minus.id, name: '-1-1', monthlyCapCredits: null, usedCredits: 0, state: 'OK' },
        { applicationId: shop.id, name: 'Shop', monthlyCapCredits: 10, usedCredits: 9, state: 'WARNING' },
      ]);

      // A cap at or below this month's use is reached at once.
      const lowered = ZApplicationSpend.parse(
        (await put(owner, `/usage/caps/${shop.id}`, { monthlyCapCredits: 8.5 })).json(),
      );
      expect(lowered).toMatchObject({ monthlyCapCredits: 8.5, state: 'REACHED' });
      // Its calls are refused from now on, so no flush will alert: setting the cap did, once per
      // cap and threshold (10 credits: 85 %; 8.5 credits: 100 %, the highest crossed, only).
      const alerts = async () =>
        (
          await t.db.db
            .select()
            .from(outboxEvents)
            .where(eq(outboxEvents.type, 'usage.cap_crossed'))
            .orderBy(outboxEvents.seq)
        )
          .map((event) => event.payload as { applicationId: string; threshold: number; capCredits: number })
          .filter((payload) => payload.applicationId === shop.id)
          .map(({ threshold, capCredits }) => ({ threshold, capCredits }));
      expect(await alerts()).toEqual([
        { threshold: 85, capCredits: 10 },
        { threshold: 100, capCredits: 8.5 },
      ]);
      await put(owner, `/usage/caps/${shop.id}`, { monthlyCapCredits: 8.5 });
      expect(await alerts()).toHaveLength(2);
      expect(
        ZApplicationSpend.parse((await put(owner, `/usage/caps/${shop.id}`, { monthlyCapCredits: 100 })).json()).state,
      ).toBe('OK');
      const removed = ZApplicationSpend.parse(
        (await put(owner, `/usage/caps/${shop.id}`, { monthlyCapCredits: null })).json(),
      );
      expect(removed).toMatchObject({ monthlyCapCredits: null, state: 'OK' });
      expect(changed).toEqual([shop.id, shop.id, shop.id, shop.id, shop.id]);
    } finally {
      stop();
    }
  });

  it('refuses caps that are not whole hundredths of a credit between 0.01 and 10,000,000', async () => {
    for (const monthlyCapCredits of [0, -5, 0.001, 1.234, 10_000_001, '10']) {
      const res = await put(owner, `/usage/caps/${shop.id}`, { monthlyCapCredits });
      expect(res.statusCode, `${monthlyCapCredits}: ${res.body}`).toBe(400);
      expect(ZProblem.parse(res.json()).invalidParams?.[0]?.name).toBe('monthlyCapCredits');
    }
    expect((await put(owner, `/usage/caps/${shop.id}`, {})).statusCode).toBe(400);
    expect((await put(owner, '/usage/caps/not-a-uuid', { monthlyCapCredits: 1 })).statusCode).toBe(400);
  });
});
