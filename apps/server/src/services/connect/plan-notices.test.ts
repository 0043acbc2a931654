import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networks } from '@connect/db';
import { PLAN_TERMS } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { TRIAL_CREDITS } from '../../lib/trial-credits.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { lifecycleOf, payPlan } from '../account-plan/testing.ts';
import { planChangedNotice } from './account-notice-texts.ts';
import { accountNotices } from './testing.ts';

/** The account notices: plan changes and low credits reach every member, in the bell and by email, once. */
describe('account notices: the plan and low credits', () => {
  let t: TestContext;
  let networkId: string;
  beforeAll(async () => {
    t = await createTestApp();
    const [network] = await t.db.db.select({ id: networks.id }).from(networks).limit(1);
    networkId = network!.id;
  });
  afterAll(() => t?.close());

  const { accountWithMember, bell, mails } = accountNotices(() => t);

  it('a cancelled plan: every member is told and emailed, once however often it is asked or delivered', async () => {
    const { owner, member } = await accountWithMember();
    await payPlan(t, owner.accountId, 'annual-standard', new Date('2026-03-01T12:00:00.000Z'));
    await lifecycleOf(t).apply(owner.accountId, { type: 'CANCEL_REQUESTED' });
    // Asked twice: nothing changes the second time, so nothing is announced or told again.
    await lifecycleOf(t).apply(owner.accountId, { type: 'CANCEL_REQUESTED' });
    await t.app.events.drain();
    await t.app.events.drain();
    for (const [userId, email] of [
      [owner.sub, owner.email],
      [member.id, member.email],
    ] as const) {
      const told = await bell(userId, 'plan.changed');
      // The payment is in the bell only (the order's own email confirms it); the cancellation in both.
      expect(told.map((n) => n.title).sort()).toEqual(['Your plan ends on 01.03.2027', 'Your plan is active']);
      const mailed = (await mails(email)).map((m) => m.subject);
      expect(mailed).toEqual(['Your plan ends on 01.03.2027']);
    }
  });

  it('says what each change means, and nothing for an order placed or a month rolled on', () => {
    const change = {
      accountId: randomUUID(),
      planName: 'Annual Subscription',
      previousPlanName: 'Annual Subscription',
      status: 'ACTIVE' as const,
      previousStatus: 'ACTIVE' as const,
      statusReason: null,
      periodEnd: '2027-03-01T12:00:00.000Z',
      orderId: null,
    };
    expect(planChangedNotice({ ...change, cause: 'ORDER_PLACED' })).toBeNull();
    expect(planChangedNotice({ ...change, cause: 'PERIOD_ENDED' })).toBeNull();
    // Pay as you go rolled on with the month's bill; its payment says nothing here (the paid email does).
    expect(
      planChangedNotice({ ...change, planType: 'PAY_AS_YOU_GO', cause: 'PERIOD_ENDED', statusReason: 'RENEWAL_DUE' }),
    ).toMatchObject({ title: 'Your monthly bill is due', email: true });
    expect(planChangedNotice({ ...change, planType: 'PAY_AS_YOU_GO', cause: 'BILL_PAID' })).toBeNull();
    expect(planChangedNotice({ ...change, cause: 'PERIOD_ENDED', statusReason: 'RENEWAL_DUE' })).toMatchObject({
      title: 'Your renewal is due',
      body: expect.stringContaining('by 15.03.2027'),
      email: true,
    });
    expect(
      planChangedNotice({ ...change, cause: 'RENEWAL_FAILED', status: 'INACTIVE', statusReason: 'RENEWAL_FAILED' }),
    ).toMatchObject({ title: 'Your renewal payment is overdue', link: '/account-plan/upgrade' });
    expect(planChangedNotice({ ...change, cause: 'PLAN_PAID' })).toMatchObject({
      title: 'Your plan is active',
      body: 'Annual Subscription is active. It renews on 01.03.2027.',
      email: false,
    });
    expect(planChangedNotice({ ...change, cause: 'CANCEL_WITHDRAWN' })?.title).toBe('Your plan will renew');
    expect(
      planChangedNotice({ ...change, cause: 'TRIAL_ENDED', status: 'INACTIVE', statusReason: 'TRIAL_ENDED' })?.title,
    ).toBe('Your trial has ended');
  });

  it(`warns once when a deployment takes the available credits to ${PLAN_TERMS.lowCreditsThreshold} or below, again after a top-up`, async () => {
    const { owner, member } = await accountWithMember();
    const ledger = new LedgerRepository(t.db.db);
    /** A deployment's charge as tokenise settles it (its ledger entry is `token:<id>`), then its event. */
    async function deploy(credits: number) {
      const tokenId = randomUUID();
      await ledger.consume(owner.accountId, 'CREDIT', BigInt(credits), {
        reason: 'Token deployment',
        reference: `token:${tokenId}`,
      });
      await t.app.events.emit(t.db.db, 'token.deployed', {
        accountId: owner.accountId,
        tokenId,
        networkId,
        createdBy: owner.sub,
        name: 'Ada Coin',
        unit: 'ADA',
        tokenType: 'QRC20',
        tierType: 'base',
        status: 'ACTIVE',
        contractAddress: '0x0000000000000000000000000000000000000001',
        creditsCharged: credits,
      });
      await t.app.events.drain();
      await t.app.events.drain();
    }
    const low = async () => (await bell(owner.sub, 'credits.low')).map((n) => n.body);

    await deploy(TRIAL_CREDITS - PLAN_TERMS.lowCreditsThreshold - 5); // 25 left: not low
    expect(await low()).toEqual([]);
    await deploy(10); // 15 left: crossed
    expect(await low()).toEqual([expect.stringContaining('You have 15 credits left')]);
    expect(await bell(member.id, 'credits.low')).toHaveLength(1);
    await deploy(5); // 10 left: still low, no second warning
    expect(await low()).toHaveLength(1);

    await ledger.purchase(owner.accountId, 'CREDIT', 100n, { reason: 'Top-up', reference: `test:${randomUUID()}` });
    await deploy(100); // 10 left again: a new crossing
    expect(await low()).toHaveLength(2);
    const warned = (await mails(member.email)).filter((m) => m.subject === 'Your credits are running low');
    expect(warned).toHaveLength(2);
  });
});
