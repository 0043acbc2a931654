import type { NotificationKind } from '@connect/shared';

/** How a notification looks: its icon and colour in the bell's list. */
export type NotificationTone = 'success' | 'error' | 'info';

/** A new kind adds a line here; a kind the SPA does not know yet shows as info. */
const TONES: Partial<Record<NotificationKind, NotificationTone>> = {
  'token.deployed': 'success',
  'token.failed': 'error',
  'identity.verified': 'success',
  // A review can go either way; the title says which.
  'network.review_decided': 'info',
  'plan.changed': 'info',
  'plan.trial_reminder': 'info',
  'credits.low': 'error',
  'order.placed': 'info',
  'order.paid': 'success',
  'order.payment_received': 'success',
  'invoice.finalised': 'info',
  'invoice.receipt_created': 'success',
  'card.charge_failed': 'error',
  'card.refunded': 'info',
  'reward.task_done': 'success',
  'reward.claim_received': 'info',
  'reward.claim_paid': 'success',
  'reward.claim_rejected': 'error',
};

export function toneOf(kind: string): NotificationTone {
  return TONES[kind as NotificationKind] ?? 'info';
}
