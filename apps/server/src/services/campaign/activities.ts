import type { Database } from '@connect/db';
import { weiToQnt, type TActivityType } from '@connect/shared';
import type { DomainEvent, DomainEvents, EventType } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { liveHubOf } from '../connect/index.ts';
import { RewardProgressRepository, taskGrantReference, type ActivityCount } from './progress-repository.ts';

/** The subscriber's name: deliveries are recorded under it (one per event), so it never changes. */
export const ACTIVITY_SUBSCRIBER = 'campaign.activities';

/** What an event is, as activities: which one, and how many of it each account did. */
type Recorded = { activity: TActivityType; counts: ActivityCount[] } | null;

type Reader<K extends EventType> = (payload: DomainEvents[K], repo: RewardProgressRepository) => Promise<Recorded>;

const once = (activity: TActivityType, accountId: string): Recorded => ({
  activity,
  counts: [{ accountId, count: 1 }],
});

/**
 * The activity catalogue's sources (issue 34 §1): each activity is read from an event the product
 * already emits through its outbox, never declared by the customer. Later areas add theirs here
 * (bridges: BRIDGE_CREATED, BRIDGE_TRANSFER).
 *
 * INVOICE_PAID is an order of kind USAGE paid: the month's pay-as-you-go invoice. A plan, a
 * renewal or a credit bundle is a purchase, not an invoice: every participant has bought a plan
 * with QNT already, so counting it would pay for the entry ticket (docs/decisions/rewards.md).
 */
const READERS: { [K in EventType]?: Reader<K> } = {
  'identity.verified': async ({ accountId }) => once('IDENTITY_VERIFIED', accountId),
  'network.activated': async ({ accountId }) => once('NETWORK_SELECTED', accountId),
  'network.review_decided': async ({ accountId, decision }) =>
    decision === 'APPROVED' ? once('PRIVATE_NETWORK_CONNECTED', accountId) : null,
  'application.registered': async ({ accountId }) => once('APPLICATION_REGISTERED', accountId),
  // One flush carries many accounts' calls: one statement records them all.
  'gateway.usage_counted': async ({ counts }) => ({
    activity: 'GATEWAY_CALLS',
    counts: counts.map(({ accountId, calls }) => ({ accountId, count: calls })),
  }),
  'token.deployed': async ({ accountId, networkId, status }, repo) => {
    if (status !== 'ACTIVE') return null;
    const type = await repo.networkType(networkId);
    if (!type) return null;
    return once(type === 'mainnet' ? 'MAINNET_TOKEN_DEPLOYED' : 'TESTNET_TOKEN_DEPLOYED', accountId);
  },
  'order.paid': async ({ accountId, kind }) => (kind === 'USAGE' ? once('INVOICE_PAID', accountId) : null),
};

/** The event types the recorder hears (bench/rewards.ts and the tests use the list). */
export const ACTIVITY_EVENT_TYPES = Object.keys(READERS) as EventType[];

/**
 * Records one event's activities in the delivery's transaction `tx` (the bus first records the
 * delivery, so an event delivered twice counts once): the opted-in accounts' progress, then for
 * each task that reached its threshold its value granted as REWARD_QNT (the ledger's reference
 * `reward-task:<taskId>:<accountId>` pays a task once whatever happens) and `reward.task_done`
 * announced (the bell's notice: connect). The accounts whose progress moved are told at the commit
 * (GET /api/connect/live, `reward.progress`), so an open Rewards page reads it again at once.
 */
export async function recordActivities(
  tx: Database,
  events: EventBus,
  liveDb: Database,
  event: DomainEvent,
): Promise<void> {
  const reader = READERS[event.type] as Reader<EventType> | undefined;
  const repo = new RewardProgressRepository(tx);
  const recorded = await reader?.(event.payload, repo);
  if (!recorded) return;
  const written = await repo.record(recorded.activity, recorded.counts, event.occurredAt);
  if (written.length === 0) return;
  const ledger = new LedgerRepository(tx);
  // By account id (as PostgreSQL orders uuids): the ledger locks each account's balance in the
  // same order as any other flush does, so two never wait for each other.
  const done = written
    .filter((row) => row.done)
    .sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
  for (const task of done) {
    const grant = await ledger.grant(task.accountId, 'REWARD_QNT', task.valueWei, {
      reason: `Reward: ${task.taskName} (${task.campaignName})`,
      reference: taskGrantReference(task.taskId, task.accountId),
    });
    if (grant.outcome !== 'applied') continue;
    await events.emit(tx, 'reward.task_done', {
      accountId: task.accountId,
      campaignId: task.campaignId,
      campaignName: task.campaignName,
      taskId: task.taskId,
      taskName: task.taskName,
      value: weiToQnt(task.valueWei),
    });
  }
  const hub = liveHubOf(liveDb);
  for (const accountId of new Set(written.map((row) => row.accountId))) {
    await hub.publish(tx, accountId, { type: 'reward.progress' });
  }
}

/** Registers the recorder for every event of the catalogue's sources (module.ts, on every node). */
export function subscribeActivities(events: EventBus, db: Database): void {
  for (const type of ACTIVITY_EVENT_TYPES) {
    events.subscribe(ACTIVITY_SUBSCRIBER, type, (event, tx) => recordActivities(tx, events, db, event));
  }
}
