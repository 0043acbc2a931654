import { createHash } from 'node:crypto';
import type { Database } from '@connect/db';
import { PLAN_TERMS } from '@connect/shared';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { DomainEvents } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import {
  capCrossedNotice,
  creditsUsedUpNotice,
  lowCreditsNotice,
  planChangedNotice,
  qntReversedNotice,
  trialReminderNotice,
  type AccountNotice,
} from './account-notice-texts.ts';
import { NotificationRepository } from './notifications-repository.ts';

/** The subscribers' names: deliveries are recorded under them, so they never change. */
export const PLAN_NOTICE_SUBSCRIBER = 'connect.plan-notices';
export const PLAN_EMAIL_SUBSCRIBER = 'connect.plan-emails';
export const LOW_CREDITS_SUBSCRIBER = 'connect.low-credits';
export const LOW_CREDITS_EMAIL_SUBSCRIBER = 'connect.low-credits-emails';
export const USAGE_CAP_SUBSCRIBER = 'connect.usage-cap';
export const USAGE_CAP_EMAIL_SUBSCRIBER = 'connect.usage-cap-emails';
export const USAGE_CREDITS_SUBSCRIBER = 'connect.usage-credits';
export const USAGE_CREDITS_EMAIL_SUBSCRIBER = 'connect.usage-credits-emails';
export const QNT_REVERSED_SUBSCRIBER = 'connect.qnt-reversed';
export const QNT_REVERSED_EMAIL_SUBSCRIBER = 'connect.qnt-reversed-emails';

export type NoticeOptions = {
  /** The `{product}` of the portal's paths (`/quant-flows/…`). */
  productSlug: string;
  /** Where the portal is served, for the links in emails. */
  publicUrl: string;
};

/*
 * Account notices: the plan (issue 14) and the credits. They concern the account's service and
 * money, so every member is told in the bell and by email, whatever their email setting (that
 * setting is for the activity notices above). Each is written once per member and key: an
 * event's, or a reminder's (`trial-reminder:<account>:<days>`), as the notification's event id and
 * the mail's dedupe key, so a redelivery, a second sweep or a second node adds nothing.
 */

/** A stable UUID for a key (a notification's event id must be a uuid; the key is not one). */
function keyId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * What a charge of metered use tells a prepaid account (trial, subscription): that its credits are
 * used up when they went from above 0 to 0 or below, else that they run low when they crossed
 * PLAN_TERMS.lowCreditsThreshold — one notice per charge, the graver one. Pay as you go is billed
 * for its use at the month's end and its credits never run out: nothing. The available credits
 * before and after are the charge's own (the event's), so every delivery answers the same.
 */
async function usageChargedNotice(
  plans: AccountPlansRepository,
  charged: DomainEvents['usage.charged'],
): Promise<AccountNotice | null> {
  const { availableBefore: before, availableAfter: after } = charged;
  const threshold = PLAN_TERMS.lowCreditsThreshold;
  const isUsedUp = before > 0 && after <= 0;
  const isLow = before > threshold && after <= threshold;
  if (!isUsedUp && !isLow) return null;
  const state = await plans.state(charged.accountId);
  if (!state || state.plan.type === 'PAY_AS_YOU_GO') return null;
  // Whole hundredths, rounded down: never more credits than there are.
  return isUsedUp ? creditsUsedUpNotice() : lowCreditsNotice(Math.floor(after * 100) / 100);
}

/** Writes the notice to every member's bell, once per member and key (inside a delivery's transaction, or alone). */
async function addAccountNotice(repo: NotificationRepository, accountId: string, key: string, notice: AccountNotice) {
  const members = await repo.members(accountId);
  await repo.add(
    members.map((member) => ({
      userId: member.id,
      accountId,
      kind: notice.kind,
      title: notice.title,
      body: notice.body,
      link: notice.link,
      eventId: keyId(key),
    })),
  );
}

/** Emails the notice to every member, once per member and key. */
async function mailAccountNotice(
  deps: { db: Database; mailer: Mailer } & NoticeOptions,
  accountId: string,
  key: string,
  notice: AccountNotice,
) {
  if (!notice.email) return;
  const members = await new NotificationRepository(deps.db).members(accountId);
  for (const member of members) {
    await deps.mailer.send({
      to: member.email,
      kind: 'NOTIFICATION',
      subject: notice.title,
      text: [
        notice.body,
        ...(notice.link ? ['', `Open it in the portal: ${deps.publicUrl}${notice.link}`] : []),
        '',
        "You receive this email because it concerns your account's plan or credits.",
      ].join('\n'),
      dedupeKey: `${key}:${member.id}`,
    });
  }
}

/**
 * Whether the deployment's charge took the available credits across the threshold: above it
 * before the charge, at or below it after. Read from the charge's own ledger entry (its balance
 * after), so every delivery and both subscribers answer the same; only while the account is
 * still low now (credits added since: no warning).
 */
async function lowCreditsAfter(ledger: LedgerRepository, deployed: DomainEvents['token.deployed']) {
  if (deployed.status !== 'ACTIVE' || deployed.creditsCharged <= 0) return null;
  const threshold = BigInt(PLAN_TERMS.lowCreditsThreshold);
  const now = await ledger.balance(deployed.accountId, 'CREDIT');
  if (now.available > threshold) return null;
  // The deployment's charge (services/tokenise/settlement.ts references it by the token).
  const entries = await ledger.entries(deployed.accountId, 'CREDIT');
  const charge = entries.findLast((entry) => entry.reference === `token:${deployed.tokenId}`);
  if (!charge) return null;
  const after = charge.balanceAfter - now.floor;
  const before = after + BigInt(deployed.creditsCharged);
  return before > threshold && after <= threshold ? Number(after) : null;
}

/** The account notices of events: plan changes, low credits after a deployment or metered use, spending caps crossed. */
export function subscribeAccountNotices(
  events: EventBus,
  deps: { db: Database; mailer: Mailer } & NoticeOptions,
): void {
  events.subscribe(PLAN_NOTICE_SUBSCRIBER, 'plan.changed', async (event, tx) => {
    const notice = planChangedNotice(event.payload);
    if (notice)
      await addAccountNotice(new NotificationRepository(tx), event.payload.accountId, `event:${event.id}`, notice);
  });
  events.subscribeEffect(PLAN_EMAIL_SUBSCRIBER, 'plan.changed', async (event) => {
    const notice = planChangedNotice(event.payload);
    if (notice) await mailAccountNotice(deps, event.payload.accountId, `event:${event.id}`, notice);
  });
  events.subscribe(LOW_CREDITS_SUBSCRIBER, 'token.deployed', async (event, tx) => {
    const available = await lowCreditsAfter(new LedgerRepository(tx), event.payload);
    if (available === null) return;
    const key = `low-credits:${event.id}`;
    await addAccountNotice(new NotificationRepository(tx), event.payload.accountId, key, lowCreditsNotice(available));
  });
  events.subscribeEffect(LOW_CREDITS_EMAIL_SUBSCRIBER, 'token.deployed', async (event) => {
    const available = await lowCreditsAfter(new LedgerRepository(deps.db), event.payload);
    if (available === null) return;
    await mailAccountNotice(deps, event.payload.accountId, `low-credits:${event.id}`, lowCreditsNotice(available));
  });
  events.subscribe(USAGE_CAP_SUBSCRIBER, 'usage.cap_crossed', async (event, tx) => {
    const key = `usage-cap:${event.id}`;
    await addAccountNotice(
      new NotificationRepository(tx),
      event.payload.accountId,
      key,
      capCrossedNotice(event.payload),
    );
  });
  events.subscribeEffect(USAGE_CAP_EMAIL_SUBSCRIBER, 'usage.cap_crossed', async (event) => {
    await mailAccountNotice(deps, event.payload.accountId, `usage-cap:${event.id}`, capCrossedNotice(event.payload));
  });
  events.subscribe(QNT_REVERSED_SUBSCRIBER, 'qnt.transfer_reversed', async (event, tx) => {
    const notice = qntReversedNotice(event.payload);
    await addAccountNotice(new NotificationRepository(tx), event.payload.accountId, `event:${event.id}`, notice);
  });
  events.subscribeEffect(QNT_REVERSED_EMAIL_SUBSCRIBER, 'qnt.transfer_reversed', async (event) => {
    await mailAccountNotice(deps, event.payload.accountId, `event:${event.id}`, qntReversedNotice(event.payload));
  });
  events.subscribe(USAGE_CREDITS_SUBSCRIBER, 'usage.charged', async (event, tx) => {
    const notice = await usageChargedNotice(new AccountPlansRepository(tx, events), event.payload);
    if (!notice) return;
    const key = `usage-credits:${event.id}`;
    await addAccountNotice(new NotificationRepository(tx), event.payload.accountId, key, notice);
  });
  events.subscribeEffect(USAGE_CREDITS_EMAIL_SUBSCRIBER, 'usage.charged', async (event) => {
    const notice = await usageChargedNotice(new AccountPlansRepository(deps.db, events), event.payload);
    if (notice) await mailAccountNotice(deps, event.payload.accountId, `usage-credits:${event.id}`, notice);
  });
}

/**
 * The notices the account-plan's sweeps give outside any event (services/account-plan/periods.ts):
 * the trial reminders, each once per account and reminder however often the sweep runs.
 */
export function createPlanNotices(deps: { db: Database; mailer: Mailer } & NoticeOptions) {
  return {
    async trialReminder(reminder: { accountId: string; days: number; trialEndsAt: Date; now: Date }): Promise<void> {
      const key = `trial-reminder:${reminder.accountId}:${reminder.days}`;
      const notice = trialReminderNotice(reminder.trialEndsAt, reminder.now);
      await addAccountNotice(new NotificationRepository(deps.db), reminder.accountId, key, notice);
      await mailAccountNotice(deps, reminder.accountId, key, notice);
    },
  };
}
