import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewardCampaigns, rewardClaims, rewardOptins } from '@connect/db';
import type {
  TActiveCampaignsResponse,
  TCampaignHistoryResponse,
  TOptinResponse,
  TOptinsResponse,
  TProgressResponse,
} from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { putOnPlan } from '../../../test/plans.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { newPlanUser, type PlanUser } from '../account-plan/testing.ts';
import { Entitlements } from '../entitlements/index.ts';
import { insertCampaign, newRewardsCustomer, setCampaignStatus } from './test-support.ts';

/** Issue 34 §2: the customer's rewards — the gate, opting in, the open campaigns, the history. */
describe('customer rewards: access, opt-in, campaigns and history', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const call = (user: PlanUser, method: 'GET' | 'POST', url: string) =>
    t.app.inject({ method, url: `/api/campaign${url}`, headers: user.headers });
  const optIn = async (user: PlanUser, campaignId: string) => {
    const res = await call(user, 'POST', `/campaigns/optins/${campaignId}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TOptinResponse>();
  };
  /** Ends every other open campaign: what the reward state says depends on all of them. */
  const onlyOpen = (campaignId: string) =>
    t.db.db
      .update(rewardCampaigns)
      .set({ status: 'COMPLETED' })
      .where(and(ne(rewardCampaigns.id, campaignId), inArray(rewardCampaigns.status, ['PUBLISHED', 'ACTIVE'])));
  const optedIn = async (campaignId: string) =>
    (await t.db.db.select().from(rewardCampaigns).where(eq(rewardCampaigns.id, campaignId)))[0]!.optedIn;

  describe('the gate: the feature reward and a paid plan bought with QNT', () => {
    const GATED = ['/campaigns/active', '/campaigns/progress', '/campaigns/completed'];

    async function expectRefused(user: PlanUser, campaignId: string) {
      for (const url of GATED) {
        const res = await call(user, 'GET', url);
        expect(res.statusCode, url).toBe(409);
        expect(res.json<{ code: string }>().code).toBe('REWARDS_NEED_QNT_PLAN');
      }
      const res = await call(user, 'POST', `/campaigns/optins/${campaignId}`);
      expect(res.statusCode).toBe(409);
      expect(res.json<{ code: string }>().code).toBe('REWARDS_NEED_QNT_PLAN');
      expect(await optedIn(campaignId)).toBe(0);
      // The reward state answers, saying what is missing.
      const state = await call(user, 'GET', '/campaigns/optins');
      expect(state.statusCode).toBe(200);
      expect(state.json<TOptinsResponse>()).toMatchObject({ allowedToOptIn: false, reason: 'PLAN' });
    }

    it('refuses the trial, a plan paid otherwise, an inactive plan and an account whose feature is off (409, never 403)', async () => {
      const { campaign } = await insertCampaign(t, [{ activityType: 'APPLICATION_REGISTERED' }]);
      const trial = await newPlanUser(t);
      await expectRefused(trial, campaign.id);

      const byBank = await newPlanUser(t);
      await putOnPlan(t.db.db, byBank.accountId, 'annual-standard', { lastPaymentMethod: 'BANK_TRANSFER' });
      await expectRefused(byBank, campaign.id);

      const lapsed = await newPlanUser(t);
      await putOnPlan(t.db.db, lapsed.accountId, 'annual-standard', {
        lastPaymentMethod: 'QNT',
        status: 'INACTIVE',
        statusReason: 'RENEWAL_FAILED',
      });
      await expectRefused(lapsed, campaign.id);

      const switchedOff = await newRewardsCustomer(t);
      await new Entitlements(t.db.db).setOverride(switchedOff.accountId, 'reward', { enabled: false });
      await expectRefused(switchedOff, campaign.id);

      // The same account with the feature back is let in.
      await new Entitlements(t.db.db).clearOverride(switchedOff.accountId, 'reward');
      expect((await call(switchedOff, 'GET', '/campaigns/active')).statusCode).toBe(200);
    });
  });

  describe('opting in', () => {
    it('opts in once: a second opt-in answers ALREADY_OPTED_IN and takes no second place', async () => {
      const { campaign } = await insertCampaign(t, [{ activityType: 'APPLICATION_REGISTERED' }], {
        status: 'PUBLISHED',
        startDate: '2099-01-01',
        endDate: '2099-01-31',
      });
      await onlyOpen(campaign.id);
      const user = await newRewardsCustomer(t);
      expect((await call(user, 'GET', '/campaigns/optins')).json<TOptinsResponse>()).toMatchObject({
        allowedToOptIn: true,
        reason: null,
        everOptedIn: false,
      });
      expect(await optIn(user, campaign.id)).toEqual({ status: 'OPTED_IN', allowedToOptIn: false });
      expect(await optIn(user, campaign.id)).toEqual({ status: 'ALREADY_OPTED_IN', allowedToOptIn: false });
      expect(await optedIn(campaign.id)).toBe(1);
      const rows = await t.db.db.select().from(rewardOptins).where(eq(rewardOptins.campaignId, campaign.id));
      expect(rows).toEqual([expect.objectContaining({ accountId: user.accountId, userId: user.sub })]);
      const state = (await call(user, 'GET', '/campaigns/optins')).json<TOptinsResponse>();
      expect(state).toMatchObject({
        allowedToOptIn: false,
        reason: 'OPTED_IN',
        everOptedIn: true,
        optins: [{ campaignId: campaign.id }],
      });
    });

    it('answers FULL when the places are taken, and of two opt-ins for the last place exactly one wins', async () => {
      const { campaign } = await insertCampaign(t, [{ activityType: 'APPLICATION_REGISTERED' }], { participants: 2 });
      await onlyOpen(campaign.id);
      const [first, second, third] = await Promise.all([1, 2, 3].map(() => newRewardsCustomer(t)));
      expect((await optIn(first!, campaign.id)).status).toBe('OPTED_IN');
      const answers = await Promise.all([optIn(second!, campaign.id), optIn(third!, campaign.id)]);
      expect(answers.map((a) => a.status).sort()).toEqual(['FULL', 'OPTED_IN']);
      expect(answers.every((a) => a.allowedToOptIn === false)).toBe(true);
      expect(await optedIn(campaign.id)).toBe(2);
      const rows = await t.db.db.select().from(rewardOptins).where(eq(rewardOptins.campaignId, campaign.id));
      expect(rows).toHaveLength(2);
      const loser = answers[0]!.status === 'FULL' ? second! : third!;
      // The one left out: the campaign shows full, the state says why.
      const active = (await call(loser, 'GET', '/campaigns/active')).json<TActiveCampaignsResponse>();
      expect(active.campaigns.find((c) => c.id === campaign.id)).toMatchObject({ full: true, optedIn: 2 });
      const state = (await call(loser, 'GET', '/campaigns/optins')).json<TOptinsResponse>();
      expect(state).toMatchObject({ allowedToOptIn: false, reason: 'FULL', optins: [] });
    });

    it('takes one place for two opt-ins of the same account at once', async () => {
      const { campaign } = await insertCampaign(t, [{ activityType: 'APPLICATION_REGISTERED' }]);
      const user = await newRewardsCustomer(t);
      const answers = await Promise.all([optIn(user, campaign.id), optIn(user, campaign.id)]);
      expect(answers.map((a) => a.status).sort()).toEqual(['ALREADY_OPTED_IN', 'OPTED_IN']);
      expect(await optedIn(campaign.id)).toBe(1);
    });

    it('refuses a draft or completed campaign (409) and an unknown one (404)', async () => {
      const user = await newRewardsCustomer(t);
      for (const status of ['DRAFT', 'COMPLETED'] as const) {
        const { campaign } = await insertCampaign(t, [{ activityType: 'APPLICATION_REGISTERED' }], { status });
        const res = await call(user, 'POST', `/campaigns/optins/${campaign.id}`);
        expect(res.statusCode).toBe(409);
        expect(res.json<{ code: string }>().code).toBe('CAMPAIGN_NOT_OPEN');
        expect(await optedIn(campaign.id)).toBe(0);
      }
      const unknown = await call(user, 'POST', `/campaigns/optins/${randomUUID()}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<{ code: string }>().code).toBe('CAMPAIGN_NOT_FOUND');
      expect((await call(user, 'POST', '/campaigns/optins/not-a-uuid')).statusCode).toBe(400);
    });
  });

  it('lists the open campaigns with their published tasks only, never drafts or ended ones', async () => {
    const { campaign, tasks } = await insertCampaign(t, [
      { activityType: 'APPLICATION_REGISTERED', value: '2' },
      { activityType: 'GATEWAY_CALLS', threshold: 20, value: '0.5' },
      { activityType: 'INVOICE_PAID', status: 'DRAFT' },
    ]);
    const { campaign: draft } = await insertCampaign(t, [{ activityType: 'IDENTITY_VERIFIED' }], { status: 'DRAFT' });
    const { campaign: noTasks } = await insertCampaign(t, [{ activityType: 'IDENTITY_VERIFIED', status: 'DRAFT' }]);
    const user = await newRewardsCustomer(t);
    const { campaigns } = (await call(user, 'GET', '/campaigns/active')).json<TActiveCampaignsResponse>();
    const ids = campaigns.map((c) => c.id);
    expect(ids).toContain(campaign.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(noTasks.id);
    const listed = campaigns.find((c) => c.id === campaign.id)!;
    expect(listed).toMatchObject({ qntValue: '2.5', taskCount: 2, full: false, status: 'ACTIVE' });
    expect(listed.tasks.map((task) => [task.taskId, task.value, task.threshold, task.activity.type])).toEqual([
      [tasks[0]!.id, '2', 1, 'APPLICATION_REGISTERED'],
      [tasks[1]!.id, '0.5', 20, 'GATEWAY_CALLS'],
    ]);
  });

  it('shows each account its own opt-ins, balance, claims and history, never another account’s', async () => {
    const { campaign, tasks } = await insertCampaign(t, [
      { activityType: 'APPLICATION_REGISTERED', value: '3' },
      { activityType: 'IDENTITY_VERIFIED', value: '1' },
    ]);
    const [mine, theirs] = await Promise.all([newRewardsCustomer(t), newRewardsCustomer(t)]);
    await optIn(mine, campaign.id);
    await t.app.events.emit(t.db.db, 'application.registered', {
      accountId: mine.accountId,
      userId: mine.sub,
      applicationId: randomUUID(),
      clientId: 'client',
      name: 'App',
      applicationType: 'testnet',
    });
    await t.app.events.drain();
    // A claim of part of it waits (the claims' own suite makes them through POST /reward).
    await new LedgerRepository(t.db.db).claim(mine.accountId, 'REWARD_QNT', 10n ** 18n, {
      reason: 'test claim',
      reference: `test-claim:${randomUUID()}`,
    });
    await t.db.db.insert(rewardClaims).values({
      trackingCode: `T-${randomUUID().slice(0, 8)}`,
      accountId: mine.accountId,
      address: '0x' + '1'.repeat(40),
      amountWei: 10n ** 18n,
    });

    const state = (await call(mine, 'GET', '/campaigns/optins')).json<TOptinsResponse>();
    expect(state).toMatchObject({ balance: '2', held: '1', minClaim: '1', everOptedIn: true });
    const progress = (await call(mine, 'GET', '/campaigns/progress')).json<TProgressResponse>();
    expect(progress.campaigns).toEqual([
      {
        campaignId: campaign.id,
        earned: '3',
        tasks: [
          { taskId: tasks[0]!.id, count: 1, threshold: 1, done: true, doneAt: expect.any(String) },
          { taskId: tasks[1]!.id, count: 0, threshold: 1, done: false, doneAt: null },
        ],
      },
    ]);

    const other = (await call(theirs, 'GET', '/campaigns/optins')).json<TOptinsResponse>();
    expect(other).toMatchObject({ balance: '0', held: '0', everOptedIn: false, optins: [], allowedToOptIn: true });
    expect((await call(theirs, 'GET', '/campaigns/progress')).json<TProgressResponse>()).toEqual({ campaigns: [] });

    // Ended: it leaves the progress and joins the history, with what was earned.
    await setCampaignStatus(t, campaign.id, 'COMPLETED');
    expect((await call(mine, 'GET', '/campaigns/progress')).json<TProgressResponse>()).toEqual({ campaigns: [] });
    const history = (await call(mine, 'GET', '/campaigns/completed')).json<TCampaignHistoryResponse>();
    expect(history).toMatchObject({ totalElements: 1, totalPages: 1, number: 0, size: 5 });
    expect(history.content).toEqual([
      {
        campaignId: campaign.id,
        visibleName: 'Test Campaign',
        startDate: campaign.startDate,
        endDate: campaign.endDate,
        qntValue: '4',
        earned: '3',
        tasksDone: 1,
        taskCount: 2,
      },
    ]);
    const theirHistory = (await call(theirs, 'GET', '/campaigns/completed')).json<TCampaignHistoryResponse>();
    expect(theirHistory).toMatchObject({ content: [], totalElements: 0, totalPages: 0 });
  });

  it('pages the history, latest ended first', async () => {
    const user = await newRewardsCustomer(t);
    const ended = [];
    for (const month of ['01', '02', '03']) {
      const { campaign } = await insertCampaign(t, [{ activityType: 'IDENTITY_VERIFIED' }], {
        startDate: `2020-${month}-01`,
        endDate: `2020-${month}-28`,
      });
      await optIn(user, campaign.id);
      await setCampaignStatus(t, campaign.id, 'COMPLETED');
      ended.push(campaign.id);
    }
    const page = async (n: number) =>
      (await call(user, 'GET', `/campaigns/completed?page=${n}&size=2`)).json<TCampaignHistoryResponse>();
    const [first, second] = [await page(0), await page(1)];
    expect(first).toMatchObject({ totalElements: 3, totalPages: 2, number: 0, size: 2 });
    expect([...first.content, ...second.content].map((c) => c.campaignId)).toEqual([...ended].reverse());
    expect((await call(user, 'GET', '/campaigns/completed?size=0')).statusCode).toBe(400);
  });
});
