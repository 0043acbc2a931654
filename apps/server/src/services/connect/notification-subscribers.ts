import { createHash } from 'node:crypto';
import type { Database } from '@connect/db';
import { PLAN_TERMS, type NotificationKind } from '@connect/shared';

/** The kinds that are domain events of their own (the plan notices are written by createPlanNotices). */
type ActivityKind = Extract<
  NotificationKind,
  'token.deployed' | 'token.failed' | 'network.review_decided' | 'identity.verified'
>;
import type { Mailer } from '../../adapters/mail/port.ts';
import type { DomainEvent, DomainEvents } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { subscribeInvoiceMails } from './invoice-mails.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { formatQnt } from '../../lib/formats.ts';
import { subscribeStaffAlertMails } from '../../repositories/staff-alerts.ts';
import { subscribeLiveChanges } from './live-subscribers.ts';
import { subscribeBillingNotices } from './notification-billing.ts';
import { NotificationRepository, type Recipient } from './notifications-repository.ts';

/** The subscribers' names: deliveries are recorded under them, so they never change. */
export const NOTIFICATION_SUBSCRIBER = 'connect.notifications';
export const NOTIFICATION_EMAIL_SUBSCRIBER = 'connect.notification-emails';
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

/** Whom an event concerns: `userId` when it names one member of the account, else the whole account. */
type Audience = { accountId: string; userId: string | null };
/** What a user is told of an event. */
type Notice = { title: string; body: string; link: string | null };

type Options = {
  /** The `{product}` of the portal's paths (`/quant-flows/…`). */
  productSlug: string;
  /** Where the portal is served, for the links in emails. */
  publicUrl: string;
};

type Describer<K extends ActivityKind> = {
  audience: (payload: DomainEvent<K>['payload']) => Audience;
  notice: (payload: DomainEvent<K>['payload'], repo: NotificationRepository, options: Options) => Promise<Notice>;
};

/** The events that notify: whom, and what each one says. Portal paths are the SPA's (apps/web/src/config/paths.ts). */
const NOTICES: { [K in ActivityKind]: Describer<K> } = {
  'token.deployed': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.createdBy }),
    notice: async (payload, repo, { productSlug }) => {
      const where = await networkPhrase(repo, payload.networkId);
      const isUnpaid = payload.status === 'UNPAID';
      return {
        title: isUnpaid ? 'Token deployed, not paid' : 'Token deployed',
        body: isUnpaid
          ? `${payload.name} (${payload.unit}) is deployed${where}, but your credits did not cover it: it is unpaid until you add credits.`
          : `${payload.name} (${payload.unit}) is deployed${where} at ${payload.contractAddress}.`,
        link: tokenPath(productSlug, payload),
      };
    },
  },
  'token.failed': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.createdBy }),
    notice: async (payload, repo, { productSlug }) => ({
      title: 'Token deployment failed',
      body: `${payload.name} (${payload.unit}) could not be deployed${await networkPhrase(repo, payload.networkId)}: ${sentence(payload.reason)} You have not been charged for it.`,
      link: tokenPath(productSlug, payload),
    }),
  },
  'network.review_decided': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.requestedBy }),
    notice: async (payload) => ({
      title: payload.decision === 'APPROVED' ? 'Private network approved' : 'Private network rejected',
      body:
        payload.decision === 'APPROVED'
          ? `${payload.networkName} was approved and is active.${payload.note ? ` Note: ${payload.note}` : ''}`
          : `${payload.networkName} was rejected.${payload.note ? ` Reason: ${payload.note}` : ''}`,
      link: '/my-networks',
    }),
  },
  'identity.verified': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.userId }),
    notice: async () => ({
      title: 'Identity verified',
      body: 'Your identity is verified: mainnet networks, applications and tokens are open to you.',
      link: '/my-account/kyc',
    }),
  },
};

const NOTIFYING_EVENTS = Object.keys(NOTICES) as ActivityKind[];

function tokenPath(productSlug: string, token: { tokenId: string; tokenType: string; tierType: string }): string {
  return `/${productSlug}-flows/token-flow/${token.tokenType.toLowerCase()}/${token.tierType}?id=${encodeURIComponent(token.tokenId)}`;
}

/** A reason as a sentence of its own: node errors often end without a full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

async function networkPhrase(repo: NotificationRepository, networkId: string): Promise<string> {
  const name = await repo.networkName(networkId);
  return name ? ` on ${name}` : '';
}

/** The describer of an event's type: the map is typed per type, and the subscribers see any of them. */
const describerOf = (event: DomainEvent) =>
  NOTICES[event.type as ActivityKind] as unknown as {
    audience: (payload: DomainEvent['payload']) => Audience;
    notice: (payload: DomainEvent['payload'], repo: NotificationRepository, options: Options) => Promise<Notice>;
  };

/**
 * Who is told: the member the event concerns (the token's creator, the network's submitter, the
 * verified user) while they are still in the account; otherwise, or when nobody is named, every
 * member of the account.
 */
async function recipientsOf(repo: NotificationRepository, event: DomainEvent): Promise<Recipient[]> {
  const audience = describerOf(event).audience(event.payload);
  const members = await repo.members(audience.accountId);
  const named = audience.userId ? members.filter((member) => member.id === audience.userId) : [];
  return named.length ? named : members;
}

/**
 * Notifications from events (issue 13 §5): a subscriber writes each recipient's notification in
 * its delivery's transaction (one per user and event), and an effect emails those who opted in,
 * through the mailer keyed by the event and the recipient, so a redelivered event neither
 * notifies nor mails twice. Registered where the connect service is built.
 */
export function subscribeNotifications(events: EventBus, deps: { db: Database; mailer: Mailer } & Options): void {
  const options: Options = { productSlug: deps.productSlug, publicUrl: deps.publicUrl };
  subscribeAccountNotices(events, deps);
  // Staff alerts (repositories/staff-alerts.ts) are mailed with the other mails, on every node.
  subscribeStaffAlertMails(events, deps.mailer, deps.publicUrl);
  // The invoices' emails (a month's invoice, a receipt): every member, whatever their email setting.
  subscribeInvoiceMails(events, deps);
  for (const type of NOTIFYING_EVENTS) {
    events.subscribe(NOTIFICATION_SUBSCRIBER, type, async (event, tx) => {
      const repo = new NotificationRepository(tx);
      const recipients = await recipientsOf(repo, event);
      if (!recipients.length) return;
      const notice = await describerOf(event).notice(event.payload, repo, options);
      const { accountId } = describerOf(event).audience(event.payload);
      await repo.add(
        recipients.map((recipient) => ({
          userId: recipient.id,
          accountId,
          kind: event.type,
          ...notice,
          eventId: event.id,
        })),
      );
    });
    events.subscribeEffect(NOTIFICATION_EMAIL_SUBSCRIBER, type, async (event) => {
      const repo = new NotificationRepository(deps.db);
      const recipients = (await recipientsOf(repo, event)).filter((recipient) => recipient.emailEnabled);
      // Most users keep email off: then the text is not even written.
      if (!recipients.length) return;
      const notice = await describerOf(event).notice(event.payload, repo, options);
      for (const recipient of recipients) {
        await deps.mailer.send({
          to: recipient.email,
          kind: 'NOTIFICATION',
          subject: notice.title,
          text: [
            notice.body,
            ...(notice.link ? ['', `Open it in the portal: ${options.publicUrl}${notice.link}`] : []),
            '',
            'You receive this email because you switched on email notifications in the portal.',
          ].join('\n'),
          dedupeKey: `event:${event.id}:${recipient.id}`,
        });
      }
    });
  }
  // The billing events' notices (issue 28); then, after every notice of an event is written, the
  // push to the account's open pages (GET /api/connect/live).
  subscribeBillingNotices(events);
  subscribeLiveChanges(events, deps.db);
}

/*
 * Account notices: the plan (issue 14) and the credits. They concern the account's service and
 * money, so every member is told in the bell and by email, whatever their email setting (that
 * setting is for the activity notices above). Each is written once per member and key: an
 * event's, or a reminder's (`trial-reminder:<account>:<days>`), as the notification's event id and
 * the mail's dedupe key, so a redelivery, a second sweep or a second node adds nothing.
 */

/** What the account's members are told: the notice, its kind (the bell's icon), and whether it is also emailed. */
type AccountNotice = Notice & { kind: string; email: boolean };

/** The portal's pages for the plan (apps/web/src/config/paths.ts). */
const PLAN_PAGE = '/my-account';
const UPGRADE_PAGE = '/account-plan/upgrade';
/** The usage page: use by application and method, and the applications' caps. */
const USAGE_PAGE = '/usage';

const DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
/** Spec §9: en-GB dates with dots, read in the UK's time zone (where the invoices are). */
export const formatNoticeDate = (date: Date | string) => DATE.format(new Date(date)).replaceAll('/', '.');

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/** A stable UUID for a key (a notification's event id must be a uuid; the key is not one). */
function keyId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What a change of the plan tells the customer; null when it tells nothing (another email does, or nothing changed for them). */
export function planChangedNotice(change: DomainEvents['plan.changed']): AccountNotice | null {
  const until = change.periodEnd ? formatNoticeDate(change.periodEnd) : null;
  const notice = (title: string, body: string, link: string, email = true): AccountNotice => ({
    kind: 'plan.changed',
    title,
    body,
    link,
    email,
  });
  switch (change.cause) {
    case 'ORDER_PLACED':
      return null; // the order's own email (account-plan order-mails.ts) says what to pay
    case 'ORDER_CANCELLED':
      return notice(
        'Your order was cancelled',
        change.status === 'ACTIVE'
          ? `The order awaiting payment was cancelled. You stay on ${change.planName}.`
          : `The order awaiting payment was cancelled. Your plan ${change.planName} is inactive: choose a plan to continue.`,
        change.status === 'ACTIVE' ? PLAN_PAGE : UPGRADE_PAGE,
      );
    case 'PLAN_PAID':
      // In the bell only: the order's paid email confirms it by mail.
      return notice(
        'Your plan is active',
        until ? `${change.planName} is active. It renews on ${until}.` : `${change.planName} is active.`,
        PLAN_PAGE,
        false,
      );
    case 'PERIOD_ENDED':
      if (change.status === 'INACTIVE') {
        return notice(
          'Your plan has ended',
          `${change.previousPlanName} ended as you asked. Your applications, tokens and networks stay, but nothing new can be created and your applications' calls are refused until you choose a plan.`,
          UPGRADE_PAGE,
        );
      }
      if (change.statusReason === 'RENEWAL_DUE' && change.planType === 'PAY_AS_YOU_GO') {
        // Pay as you go rolled on with the month's bill (its period end is the next month's).
        return notice(
          'Your monthly bill is due',
          `${change.planName}: the credits used last month are billed. We charge your saved card or email how to pay; please pay within ${days(PLAN_TERMS.renewalGraceDays)} to keep your plan active.`,
          PLAN_PAGE,
        );
      }
      if (change.statusReason === 'RENEWAL_DUE' && change.periodEnd) {
        const grace = formatNoticeDate(
          new Date(Date.parse(change.periodEnd) + PLAN_TERMS.renewalGraceDays * 86_400_000),
        );
        return notice(
          'Your renewal is due',
          `The period of ${change.planName} ended on ${until}. Please pay the renewal invoice by ${grace} to keep your plan active; we have emailed how to pay it.`,
          PLAN_PAGE,
        );
      }
      return null; // pay as you go rolls on into its next month: the month's invoice tells
    case 'BILL_PAID':
      return null; // the order's paid email tells
    case 'RENEWAL_FAILED':
      return notice(
        'Your renewal payment is overdue',
        `The renewal of ${change.planName} was not paid within ${days(PLAN_TERMS.renewalGraceDays)}, so your plan is inactive. Pay the renewal invoice, or choose a plan, to make it active again.`,
        UPGRADE_PAGE,
      );
    case 'TRIAL_ENDED':
      return notice(
        'Your trial has ended',
        "Your trial has ended. Your applications, tokens and networks stay, but nothing new can be created and your applications' calls are refused until you choose a plan.",
        UPGRADE_PAGE,
      );
    case 'TRIAL_EXTENDED':
      return notice(
        'Your trial is extended',
        'Your trial was extended: your plan page shows its new end date.',
        PLAN_PAGE,
      );
    case 'CANCEL_REQUESTED':
      return notice(
        until ? `Your plan ends on ${until}` : 'Your plan is cancelled',
        `${change.planName} is cancelled and will not renew. It stays active${until ? ` until ${until}` : ''}; you can resume it on your plan page until then.`,
        PLAN_PAGE,
      );
    case 'CANCEL_WITHDRAWN':
      return notice(
        'Your plan will renew',
        until
          ? `${change.planName} is no longer cancelled: it renews on ${until}.`
          : `${change.planName} is no longer cancelled.`,
        PLAN_PAGE,
      );
    case 'DOWNGRADE_CHOSEN':
      return notice(
        'Your next plan is set',
        `Your choice of plan for your next period is saved. ${change.planName} stays${until ? ` until ${until}` : ''}.`,
        PLAN_PAGE,
      );
    case 'DISABLED_BY_STAFF':
      return notice(
        'Your plan is disabled',
        'Our staff disabled your plan: nothing new can be created and your applications’ calls are refused. Please contact support.',
        '/support',
      );
    case 'ENABLED_BY_STAFF':
      return notice('Your plan is active again', `${change.planName} is active again.`, PLAN_PAGE);
    case 'PAYMENT_REVERSED':
      // The QNT notice (qntReversedNotice) says why; this one says what it means for the plan.
      return notice(
        'Your order is awaiting payment again',
        change.status === 'PENDING'
          ? `The payment of ${change.planName} was taken back, so it is not active until its order is paid. Please pay the order again.`
          : `The payment of your ${change.planName} renewal or bill was taken back: please pay it again to keep your plan active.`,
        UPGRADE_PAGE,
      );
  }
}

/**
 * What the customer is told when the chain lost the block of a QNT transfer already credited and
 * the transfer is not on the chain now (issue 27 §4): the QNT taken back, what the account holds
 * or owes now, and that the orders it paid wait for their payment again.
 */
export function qntReversedNotice(reversed: DomainEvents['qnt.transfer_reversed']): AccountNotice {
  const balance = BigInt(reversed.balanceAfter);
  const standing =
    balance < 0n
      ? `You now owe ${formatQnt(-balance)}: it was already used, and is taken from the next QNT you send.`
      : `You now hold ${formatQnt(balance)}.`;
  return {
    kind: 'qnt.reversed',
    title: 'A QNT payment was taken back',
    body: `The blockchain lost the block of your QNT transfer ${reversed.txHash} after it had been confirmed, and the transfer is not on the chain now, so its ${formatQnt(reversed.amount)} were taken back. ${standing} Any order it paid is awaiting payment again: please send the transfer again, or contact support.`,
    link: PLAN_PAGE,
    email: true,
  };
}

/** The reminder before a trial ends, `days` (7 or 1) before it; `left` counts the whole days still to come. */
export function trialReminderNotice(trialEndsAt: Date, now: Date): AccountNotice {
  const left = Math.max(1, Math.ceil((trialEndsAt.getTime() - now.getTime()) / 86_400_000));
  return {
    kind: 'plan.trial_reminder',
    title: `Your trial ends in ${days(left)}`,
    body: `Your trial ends on ${formatNoticeDate(trialEndsAt)}. Choose a plan before then to keep creating applications, tokens and networks, and to keep your applications' calls running.`,
    link: UPGRADE_PAGE,
    email: true,
  };
}

/** The warning when a deployment takes the available credits to PLAN_TERMS.lowCreditsThreshold or below. */
export function lowCreditsNotice(available: number): AccountNotice {
  return {
    kind: 'credits.low',
    title: 'Your credits are running low',
    body: `You have ${available} credits left. Add credits, or choose a plan with more, so that your next deployments are not left unpaid.`,
    link: UPGRADE_PAGE,
    email: true,
  };
}

const CREDITS = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const SMALL_CREDITS = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4 });
/**
 * Credits as people read them (spec §9), as the usage page shows them: four decimals below 10
 * credits (a read call is 0.0001), two above; thousands separated.
 */
const credits = (value: number) => (Math.abs(value) < 10 ? SMALL_CREDITS : CREDITS).format(value);
const MONTH_DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long' });

/**
 * What a crossed spending cap tells (issue 17 §3): at 85 % that the cap is near, at 100 % that the
 * application's calls are refused until the cap is raised or the UTC month turns (its first day named).
 */
export function capCrossedNotice(crossed: DomainEvents['usage.cap_crossed']): AccountNotice {
  const name = crossed.applicationName;
  const used = `${credits(crossed.usedCredits)} of its ${credits(crossed.capCredits)} credits`;
  if (crossed.threshold === 100) {
    const start = new Date(`${crossed.month}T00:00:00.000Z`);
    const turn = MONTH_DAY.format(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)));
    return {
      kind: 'usage.cap',
      title: `${name} reached its monthly cap`,
      body: `${name} reached its monthly cap: its calls are refused until you raise the cap or the month turns (${turn}). It has used ${used} this month.`,
      link: USAGE_PAGE,
      email: true,
    };
  }
  return {
    kind: 'usage.cap',
    title: `${name} has used ${crossed.threshold} % of its monthly cap`,
    body: `${name} has used ${crossed.threshold} % of its monthly cap: ${used} this month. At 100 % its calls are refused until you raise the cap or the month turns.`,
    link: USAGE_PAGE,
    email: true,
  };
}

/** The warning when metered use takes a prepaid account's credits to nothing or below. */
export function creditsUsedUpNotice(): AccountNotice {
  return {
    kind: 'credits.low',
    title: 'Your credits are used up',
    body: "Your applications' calls have used up your credits. Their calls are still served: metered use beyond your balance is taken from the next credits you buy. Add credits, or choose a plan with more.",
    link: UPGRADE_PAGE,
    email: true,
  };
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
  deps: { db: Database; mailer: Mailer } & Options,
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
function subscribeAccountNotices(events: EventBus, deps: { db: Database; mailer: Mailer } & Options): void {
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
export function createPlanNotices(deps: { db: Database; mailer: Mailer } & Options) {
  return {
    async trialReminder(reminder: { accountId: string; days: number; trialEndsAt: Date; now: Date }): Promise<void> {
      const key = `trial-reminder:${reminder.accountId}:${reminder.days}`;
      const notice = trialReminderNotice(reminder.trialEndsAt, reminder.now);
      await addAccountNotice(new NotificationRepository(deps.db), reminder.accountId, key, notice);
      await mailAccountNotice(deps, reminder.accountId, key, notice);
    },
  };
}
