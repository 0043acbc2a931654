import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, notifications, orders } from '@connect/db';
import { PLAN_TERMS, ZSubscription, type TSubscription } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import type { AccountPlanRuntime } from './periods.ts';
import { newPlanUser, payPlan, planByCode, setTrialEnd, type PlanUser } from './testing.ts';
import { addDays, addMonths } from './transitions.ts';

/*
 * The plans' time, with `now` given: each sweep runs twice (the second changes nothing) and two
 * at once (as on two nodes), and what the customer is told follows from the plan's events.
 */
describe('account-plan: the periods (sweeps with a given now)', () => {
  let t: TestContext;
  let periods: AccountPlanRuntime;
  beforeAll(async () => {
    t = await createTestApp();
    periods = t.app.deps.runtime.accountPlan!;
  });
  afterAll(() => t?.close());

  const stateOf = (user: PlanUser) => new AccountPlansRepository(t.db.db, t.app.events).state(user.accountId);
  async function subscription(user: PlanUser): Promise<TSubscription> {
    const res = await t.app.inject({ method: 'GET', url: '/api/account-plan/subscription', headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return ZSubscription.parse(res.json());
  }
  /** Runs the sweep twice one after the other and twice at once; then delivers the events. */
  async function sweepRepeatedly(now: Date) {
    const first = await periods.sweep(now);
    await periods.sweep(now);
    await Promise.all([periods.sweep(now), periods.sweep(now)]);
    await t.app.events.drain();
    return first;
  }
  const bell = (user: PlanUser) =>
    t.db.db.select().from(notifications).where(eq(notifications.userId, user.sub)).orderBy(notifications.createdAt);
  const mails = (user: PlanUser) =>
    t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email)).orderBy(mailOutbox.createdAt);
  const renewalOrders = (user: PlanUser) =>
    t.db.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, user.accountId), eq(orders.kind, 'RENEWAL')));
  const start = () => new Date(Math.floor(Date.now() / 1000) * 1000);

  it('trial reminders 7 and 1 days before the end: once each, in the bell and by email', async () => {
    const user = await newPlanUser(t);
    const end = addDays(start(), 20);
    await setTrialEnd(t, user.accountId, end);

    await sweepRepeatedly(addDays(end, -8));
    expect(await bell(user)).toEqual([]);

    await sweepRepeatedly(addDays(end, -6.5));
    const week = await bell(user);
    expect(week.map((n) => [n.kind, n.title])).toEqual([['plan.trial_reminder', 'Your trial ends in 7 days']]);
    expect(week[0]!.link).toBe('/account-plan/upgrade');
    expect((await mails(user)).map((m) => m.subject)).toEqual(['Your trial ends in 7 days']);
    expect((await mails(user))[0]!.dedupeKey).toBe(`trial-reminder:${user.accountId}:7:${user.sub}`);

    await sweepRepeatedly(addDays(end, -2));
    expect(await bell(user)).toHaveLength(1);

    await sweepRepeatedly(addDays(end, -0.5));
    expect((await bell(user)).map((n) => n.title)).toEqual(['Your trial ends in 7 days', 'Your trial ends in 1 day']);
    expect((await mails(user)).map((m) => m.subject)).toEqual([
      'Your trial ends in 7 days',
      'Your trial ends in 1 day',
    ]);
    expect((await stateOf(user))?.status).toBe('ACTIVE');
  });

  it('a trial that has less than a day left when first swept gets the 1-day reminder only', async () => {
    const user = await newPlanUser(t);
    const end = addDays(start(), 3);
    await setTrialEnd(t, user.accountId, end);
    await sweepRepeatedly(addDays(end, -0.25));
    await sweepRepeatedly(addDays(end, -0.1));
    expect((await bell(user)).map((n) => n.title)).toEqual(['Your trial ends in 1 day']);
  });

  it('the trial ends at its end: INACTIVE, TRIAL_ENDED, out of service, told once', async () => {
    const user = await newPlanUser(t);
    const end = addDays(start(), 2);
    await setTrialEnd(t, user.accountId, end);
    await sweepRepeatedly(addDays(end, -0.001));
    expect((await stateOf(user))?.status).toBe('ACTIVE');

    await sweepRepeatedly(end);
    expect(await subscription(user)).toMatchObject({
      status: 'INACTIVE',
      statusReason: 'TRIAL_ENDED',
      inService: false,
    });
    const ended = (await bell(user)).filter((n) => n.kind === 'plan.changed');
    expect(ended.map((n) => n.title)).toEqual(['Your trial has ended']);
    expect((await mails(user)).filter((m) => m.subject === 'Your trial has ended')).toHaveLength(1);
  });

  it('a cancelled plan ends at its period end: INACTIVE, CANCELLED, told once', async () => {
    const user = await newPlanUser(t);
    const paid = await payPlan(t, user.accountId, 'annual-standard', start());
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/account-plan/subscription/cancel',
      headers: user.headers,
    });
    expect(cancel.statusCode).toBe(200);
    await t.app.events.drain();
    const until = paid.periodEnd!;
    const day = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    })
      .format(until)
      .replaceAll('/', '.');
    expect((await mails(user)).map((m) => m.subject)).toContain(`Your plan ends on ${day}`);

    await sweepRepeatedly(addDays(until, -1));
    expect((await stateOf(user))?.status).toBe('ACTIVE');
    await sweepRepeatedly(until);
    expect(await subscription(user)).toMatchObject({
      status: 'INACTIVE',
      statusReason: 'CANCELLED',
      cancelAtPeriodEnd: false,
      pendingOrder: null,
    });
    expect((await mails(user)).filter((m) => m.subject === 'Your plan has ended')).toHaveLength(1);
    expect(await renewalOrders(user)).toEqual([]);
  });

  it('pay as you go rolls on a month at its period end, without an order or a message', async () => {
    const user = await newPlanUser(t);
    const paid = await payPlan(t, user.accountId, 'payg-standard', start());
    await t.app.events.drain();
    const before = (await bell(user)).length;
    await sweepRepeatedly(paid.periodEnd!);
    const state = await stateOf(user);
    expect(state).toMatchObject({ status: 'ACTIVE', statusReason: null, periodEnd: addMonths(paid.periodEnd!, 1) });
    expect(await renewalOrders(user)).toEqual([]);
    expect(await bell(user)).toHaveLength(before);
  });

  it('a subscription at its period end: one renewal order for the next year, RENEWAL_DUE and still in service', async () => {
    const user = await newPlanUser(t);
    const paid = await payPlan(t, user.accountId, 'annual-standard', start());
    const end = paid.periodEnd!;
    await sweepRepeatedly(end);

    const renewals = await renewalOrders(user);
    expect(renewals).toHaveLength(1);
    const [renewal] = renewals;
    expect(renewal).toMatchObject({
      kind: 'RENEWAL',
      status: 'AWAITING_PAYMENT',
      ratePlanId: paid.plan.id,
      periodStart: end,
      periodEnd: addMonths(end, 12),
    });
    const sub = await subscription(user);
    expect(sub).toMatchObject({
      status: 'ACTIVE',
      statusReason: 'RENEWAL_DUE',
      inService: true,
      pendingOrder: { id: renewal!.id, kind: 'RENEWAL', status: 'AWAITING_PAYMENT' },
    });
    expect((await mails(user)).filter((m) => m.subject === 'Your renewal is due')).toHaveLength(1);

    // The grace days: still active the day before they end, INACTIVE (RENEWAL_FAILED) when they do.
    const grace = addDays(end, PLAN_TERMS.renewalGraceDays);
    await sweepRepeatedly(addDays(grace, -1));
    expect((await stateOf(user))?.statusReason).toBe('RENEWAL_DUE');
    await sweepRepeatedly(grace);
    expect(await subscription(user)).toMatchObject({
      status: 'INACTIVE',
      statusReason: 'RENEWAL_FAILED',
      inService: false,
      pendingOrder: { id: renewal!.id },
    });
    expect((await mails(user)).filter((m) => m.subject === 'Your renewal payment is overdue')).toHaveLength(1);
    expect(await renewalOrders(user)).toHaveLength(1);
  });

  it('a chosen downgrade is the plan of the renewal', async () => {
    const user = await newPlanUser(t);
    const paid = await payPlan(t, user.accountId, 'annual-advance', start());
    const lower = await planByCode(t, 'annual-standard');
    const chosen = await t.app.inject({
      method: 'POST',
      url: '/api/account-plan/subscription/downgrade',
      headers: user.headers,
      payload: { ratePlanId: lower.id },
    });
    expect(chosen.statusCode).toBe(200);
    await sweepRepeatedly(paid.periodEnd!);
    expect(await subscription(user)).toMatchObject({
      plan: { code: 'annual-standard' },
      nextPlan: null,
      statusReason: 'RENEWAL_DUE',
    });
    const renewals = await renewalOrders(user);
    expect(renewals.map((order) => order.ratePlanId)).toEqual([lower.id]);
  });

  it('a second sweep with the same now changes nothing anywhere', async () => {
    const now = addDays(start(), 400);
    await periods.sweep(now);
    expect(await periods.sweep(now)).toMatchObject({ trialsEnded: 0, periodsEnded: 0, renewalsFailed: 0 });
  });
});
