import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDeliveries, ledgerEntries, notifications, outboxEvents, rewardProgress } from '@connect/db';
import type { TProgressResponse } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import type { DomainEvents, EventType } from '../../events/catalogue.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import type { PlanUser } from '../account-plan/testing.ts';
import { networkId } from '../tokenise/test-support.ts';
import { ACTIVITY_SUBSCRIBER } from './activities.ts';
import { insertCampaign, newRewardsCustomer, setCampaignStatus, type TestTask } from './test-support.ts';

/** Issue 34 §1: activities recorded from the product's events, counted once, after the opt-in, while ACTIVE. */
describe('reward activities: recorded from events', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  async function emit<K extends EventType>(type: K, payload: DomainEvents[K]): Promise<string> {
    const id = await t.app.events.emit(t.db.db, type, payload);
    await t.app.events.drain();
    return id;
  }
  const registered = (user: PlanUser) =>
    emit('application.registered', {
      accountId: user.accountId,
      userId: user.sub,
      applicationId: randomUUID(),
      clientId: 'client',
      name: 'App',
      applicationType: 'testnet',
    });
  const flush = (counts: { accountId: string; calls: number }[]) =>
    emit('gateway.usage_counted', {
      counts: counts.map(({ accountId, calls }) => ({
        accountId,
        applicationId: randomUUID(),
        networkId: randomUUID(),
        method: 'eth_call',
        hour: '2026-11-29T09:00:00.000Z',
        calls,
        microCredits: calls * 1_000_000,
      })),
    });

  async function optedInCustomer(tasks: TestTask[], values: Parameters<typeof insertCampaign>[2] = {}) {
    const { campaign, tasks: rows } = await insertCampaign(t, tasks, values);
    const user = await newRewardsCustomer(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaign/campaigns/optins/${campaign.id}`,
      headers: user.headers,
    });
    expect(res.json<{ status: string }>().status).toBe('OPTED_IN');
    return { campaign, tasks: rows, user };
  }
  const progressOf = async (user: PlanUser) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/campaign/campaigns/progress', headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TProgressResponse>().campaigns.flatMap((c) => c.tasks);
  };
  const balanceOf = async (user: PlanUser) =>
    (await new LedgerRepository(t.db.db).balance(user.accountId, 'REWARD_QNT')).available;
  const grantsOf = (user: PlanUser) =>
    t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, user.accountId), like(ledgerEntries.reference, 'reward-task:%')));
  const QNT = 10n ** 18n;

  it('counts a registered application and grants its task once, with a bell notice', async () => {
    const { tasks, user } = await optedInCustomer([{ activityType: 'APPLICATION_REGISTERED', value: '2' }]);
    await registered(user);
    expect(await progressOf(user)).toEqual([
      { taskId: tasks[0]!.id, count: 1, threshold: 1, done: true, doneAt: expect.any(String) },
    ]);
    expect(await balanceOf(user)).toBe(2n * QNT);
    const grants = await grantsOf(user);
    expect(grants).toEqual([
      expect.objectContaining({
        kind: 'grant',
        amount: 2n * QNT,
        reference: `reward-task:${tasks[0]!.id}:${user.accountId}`,
      }),
    ]);
    // A second application: the task is done, nothing more is granted.
    await registered(user);
    expect(await grantsOf(user)).toHaveLength(1);
    await t.app.events.drain();
    const bell = await t.db.db.select().from(notifications).where(eq(notifications.accountId, user.accountId));
    expect(bell.filter((n) => n.kind === 'reward.task_done').map((n) => n.title)).toEqual(['Task done: Task 1 +2 QNT']);
  });

  it('counts an event delivered twice once', async () => {
    const { tasks, user } = await optedInCustomer([{ activityType: 'APPLICATION_REGISTERED', threshold: 3 }]);
    const id = await registered(user);
    // The outbox hands the same event again (as after a node died before marking it delivered).
    await t.db.db.update(outboxEvents).set({ dispatchedAt: null, lockedUntil: null }).where(eq(outboxEvents.id, id));
    expect(await t.app.events.drain()).toBeGreaterThan(0);
    const deliveries = await t.db.db
      .select()
      .from(eventDeliveries)
      .where(and(eq(eventDeliveries.eventId, id), eq(eventDeliveries.subscriber, ACTIVITY_SUBSCRIBER)));
    expect(deliveries).toHaveLength(1);
    expect(await progressOf(user)).toEqual([
      { taskId: tasks[0]!.id, count: 1, threshold: 3, done: false, doneAt: null },
    ]);
  });

  it('does not count an activity before the opt-in', async () => {
    const { campaign, tasks } = await insertCampaign(t, [{ activityType: 'APPLICATION_REGISTERED' }]);
    const user = await newRewardsCustomer(t);
    // Emitted (it happened) before the opt-in, delivered after it.
    await t.app.events.emit(t.db.db, 'application.registered', {
      accountId: user.accountId,
      userId: user.sub,
      applicationId: randomUUID(),
      clientId: 'client',
      name: 'Early',
      applicationType: 'testnet',
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/campaign/campaigns/optins/${campaign.id}`,
      headers: user.headers,
    });
    expect(res.json<{ status: string }>().status).toBe('OPTED_IN');
    await t.app.events.drain();
    expect(await progressOf(user)).toEqual([
      { taskId: tasks[0]!.id, count: 0, threshold: 1, done: false, doneAt: null },
    ]);
    expect(await balanceOf(user)).toBe(0n);
    // The same activity after the opt-in counts.
    await registered(user);
    expect((await progressOf(user))[0]).toMatchObject({ count: 1, done: true });
  });

  it('counts only while the campaign is ACTIVE', async () => {
    const { campaign, tasks, user } = await optedInCustomer(
      [{ activityType: 'APPLICATION_REGISTERED', threshold: 5 }],
      {
        status: 'PUBLISHED',
      },
    );
    await registered(user);
    expect(await progressOf(user)).toEqual([
      { taskId: tasks[0]!.id, count: 0, threshold: 5, done: false, doneAt: null },
    ]);
    await setCampaignStatus(t, campaign.id, 'ACTIVE');
    await registered(user);
    expect((await progressOf(user))[0]).toMatchObject({ count: 1 });
    await setCampaignStatus(t, campaign.id, 'COMPLETED');
    await registered(user);
    const [row] = await t.db.db.select().from(rewardProgress).where(eq(rewardProgress.taskId, tasks[0]!.id));
    expect(row!.count).toBe(1);
  });

  it('reaches a threshold of 20 gateway calls across two flushes, each carrying other accounts, and grants once', async () => {
    const { tasks, user } = await optedInCustomer([{ activityType: 'GATEWAY_CALLS', threshold: 20, value: '1.5' }]);
    const { user: other } = await optedInCustomer([{ activityType: 'GATEWAY_CALLS', threshold: 20 }]);
    const outsider = await newRewardsCustomer(t);
    await flush([
      { accountId: user.accountId, calls: 7 },
      { accountId: other.accountId, calls: 3 },
      { accountId: user.accountId, calls: 5 },
      { accountId: outsider.accountId, calls: 100 },
    ]);
    expect(await progressOf(user)).toEqual([
      { taskId: tasks[0]!.id, count: 12, threshold: 20, done: false, doneAt: null },
    ]);
    expect(await balanceOf(user)).toBe(0n);
    await flush([
      { accountId: other.accountId, calls: 4 },
      { accountId: user.accountId, calls: 8 },
    ]);
    expect((await progressOf(user))[0]).toMatchObject({ count: 20, done: true });
    expect(await balanceOf(user)).toBe(15n * 10n ** 17n);
    expect((await progressOf(other))[0]).toMatchObject({ count: 7, done: false });
    await flush([{ accountId: user.accountId, calls: 50 }]);
    expect(await grantsOf(user)).toHaveLength(1);
    expect((await progressOf(user))[0]).toMatchObject({ count: 20, done: true });
    expect(await grantsOf(outsider)).toEqual([]);
  });

  it('tells testnet from mainnet tokens, counts only deployed and paid ones, and only invoices among orders', async () => {
    const { tasks, user } = await optedInCustomer([
      { activityType: 'TESTNET_TOKEN_DEPLOYED' },
      { activityType: 'MAINNET_TOKEN_DEPLOYED' },
      { activityType: 'INVOICE_PAID' },
    ]);
    const token = (network: string, status: 'ACTIVE' | 'UNPAID'): DomainEvents['token.deployed'] => ({
      accountId: user.accountId,
      tokenId: randomUUID(),
      networkId: network,
      createdBy: user.sub,
      name: 'Token',
      unit: 'TOK',
      tokenType: 'QRC20',
      tierType: 'base',
      status,
      contractAddress: '0x' + '2'.repeat(40),
      creditsCharged: 0,
    });
    const paid = (kind: DomainEvents['order.paid']['kind']) =>
      emit('order.paid', {
        accountId: user.accountId,
        orderId: randomUUID(),
        reference: 'CNX-1',
        kind,
        totalGbpMinor: 100,
      });
    await emit('token.deployed', token(await networkId(t, 'ethereum-mainnet'), 'UNPAID'));
    await paid('PLAN');
    await paid('CREDITS');
    await paid('RENEWAL');
    expect((await progressOf(user)).map((p) => p.count)).toEqual([0, 0, 0]);
    await emit('token.deployed', token(await networkId(t, 'ethereum-testnet'), 'ACTIVE'));
    expect((await progressOf(user)).map((p) => [p.taskId, p.done])).toEqual([
      [tasks[0]!.id, true],
      [tasks[1]!.id, false],
      [tasks[2]!.id, false],
    ]);
    await emit('token.deployed', token(await networkId(t, 'polygon-mainnet'), 'ACTIVE'));
    await paid('USAGE');
    expect((await progressOf(user)).map((p) => p.done)).toEqual([true, true, true]);
    expect(await balanceOf(user)).toBe(3n * QNT);
  });

  it('records identity, networks and approved private networks, not rejected ones', async () => {
    const { user } = await optedInCustomer([
      { activityType: 'IDENTITY_VERIFIED' },
      { activityType: 'NETWORK_SELECTED' },
      { activityType: 'PRIVATE_NETWORK_CONNECTED' },
    ]);
    const review = (decision: 'APPROVED' | 'REJECTED') =>
      emit('network.review_decided', {
        accountId: user.accountId,
        networkId: randomUUID(),
        networkName: 'Private',
        requestedBy: user.sub,
        decision,
        note: null,
      });
    await review('REJECTED');
    expect((await progressOf(user)).map((p) => p.done)).toEqual([false, false, false]);
    await emit('identity.verified', { accountId: user.accountId, userId: user.sub });
    await emit('network.activated', { accountId: user.accountId, userId: user.sub, networkIds: [randomUUID()] });
    await review('APPROVED');
    expect((await progressOf(user)).map((p) => p.done)).toEqual([true, true, true]);
  });
});
