import type { Database } from '@connect/db';
import type { NotificationKind } from '@connect/shared';

/** The kinds that are domain events of their own (the plan notices are written by createPlanNotices). */
type ActivityKind = Extract<
  NotificationKind,
  | 'token.deployed'
  | 'token.failed'
  | 'network.review_decided'
  | 'identity.verified'
  | 'reward.task_done'
  | 'reward.claim_received'
  | 'reward.claim_paid'
  | 'reward.claim_rejected'
>;
import type { Mailer } from '../../adapters/mail/port.ts';
import type { DomainEvent } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { subscribeStaffAlertMails } from '../../repositories/staff-alerts.ts';
import { subscribeAccountNotices, type NoticeOptions } from './account-notice-subscribers.ts';
import type { Notice } from './account-notice-texts.ts';
import { subscribeInvoiceMails } from './invoice-mails.ts';
import { subscribeLiveChanges } from './live-subscribers.ts';
import { subscribeBillingNotices } from './notification-billing.ts';
import { NotificationRepository, type Recipient } from './notifications-repository.ts';

/** The subscribers' names: deliveries are recorded under them, so they never change (the account notices' are in account-notice-subscribers.ts). */
export const NOTIFICATION_SUBSCRIBER = 'connect.notifications';
export const NOTIFICATION_EMAIL_SUBSCRIBER = 'connect.notification-emails';

/** Whom an event concerns: `userId` when it names one member of the account, else the whole account. */
type Audience = { accountId: string; userId: string | null };

type Describer<K extends ActivityKind> = {
  audience: (payload: DomainEvent<K>['payload']) => Audience;
  notice: (payload: DomainEvent<K>['payload'], repo: NotificationRepository, options: NoticeOptions) => Promise<Notice>;
  /**
   * An answer the user waits for (a private network's review, issue 33 §4): emailed whatever
   * their email setting, with this line saying why. Without it, only those who opted in.
   */
  alwaysMailed?: string;
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
    alwaysMailed: 'You receive this email because it answers the review of a private network of your account.',
  },
  'identity.verified': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.userId }),
    notice: async () => ({
      title: 'Identity verified',
      body: 'Your identity is verified: mainnet networks, applications and tokens are open to you.',
      link: '/my-account/kyc',
    }),
  },
  // A reward task done (issue 34): every member of the account, whose REWARD_QNT it is.
  'reward.task_done': {
    audience: (payload) => ({ accountId: payload.accountId, userId: null }),
    notice: async (payload) => ({
      title: `Task done: ${payload.taskName} +${payload.value} QNT`,
      body: `You completed "${payload.taskName}" in ${payload.campaignName}: ${payload.value} QNT was added to your reward balance.`,
      link: '/rewards',
    }),
  },
  // A claim's steps (issue 34 §3): the claimant (every member once they left), by email too.
  'reward.claim_received': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.userId }),
    notice: async (payload) => ({
      title: `Claim ${payload.trackingCode} received`,
      body: `We received your claim of ${payload.amount} QNT to ${payload.address}. It is taken from your reward balance and paid within 5 working days.`,
      link: '/rewards/history',
    }),
    alwaysMailed: 'You receive this email because it concerns a claim of your reward balance.',
  },
  'reward.claim_paid': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.userId }),
    notice: async (payload) => ({
      title: `Claim ${payload.trackingCode} paid`,
      body: `${payload.amount} QNT was sent to ${payload.address}${payload.networkName ? ` on ${payload.networkName}` : ''} (transaction ${payload.txHash}).`,
      link: '/rewards/history',
    }),
    alwaysMailed: 'You receive this email because it concerns a claim of your reward balance.',
  },
  'reward.claim_rejected': {
    audience: (payload) => ({ accountId: payload.accountId, userId: payload.userId }),
    notice: async (payload) => ({
      title: `Claim ${payload.trackingCode} rejected`,
      body: `Your claim of ${payload.amount} QNT was rejected: ${sentence(payload.reason)} The amount is back in your reward balance.`,
      link: '/rewards/history',
    }),
    alwaysMailed: 'You receive this email because it concerns a claim of your reward balance.',
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
    notice: (payload: DomainEvent['payload'], repo: NotificationRepository, options: NoticeOptions) => Promise<Notice>;
    alwaysMailed?: string;
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
 * its delivery's transaction (one per user and event), and an effect emails those who opted in
 * (everyone told, for an `alwaysMailed` kind), through the mailer keyed by the event and the
 * recipient, so a redelivered event neither notifies nor mails twice. Registered where the
 * connect service is built.
 */
export function subscribeNotifications(events: EventBus, deps: { db: Database; mailer: Mailer } & NoticeOptions): void {
  const options: NoticeOptions = { productSlug: deps.productSlug, publicUrl: deps.publicUrl };
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
      const { alwaysMailed } = describerOf(event);
      const recipients = (await recipientsOf(repo, event)).filter(
        (recipient) => alwaysMailed !== undefined || recipient.emailEnabled,
      );
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
            alwaysMailed ?? 'You receive this email because you switched on email notifications in the portal.',
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
