import { z } from 'zod';
import { ZQueryInt } from './numbers.ts';

/*
 * In-app notifications (the bell in the top bar), served by the connect service:
 * GET  /api/connect/notifications?limit=   newest first, with the unread count
 * POST /api/connect/notifications/read     marks the given ids (or, with none, all) as read
 * GET  /api/connect/notifications/settings and PUT: whether notifications are also emailed
 */

/** What a notification is about; the SPA picks its icon and colour from it. */
export const NOTIFICATION_KINDS = [
  'token.deployed',
  'token.failed',
  'network.review_decided',
  'identity.verified',
  'plan.changed',
  'plan.trial_reminder',
  'credits.low',
  'usage.cap',
  'order.placed',
  'order.paid',
  'order.payment_received',
  'invoice.finalised',
  'invoice.receipt_created',
  'card.charge_failed',
  'card.refunded',
  'reward.task_done',
  'reward.claim_received',
  'reward.claim_paid',
  'reward.claim_rejected',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How many notifications the bell's list shows at most. */
export const NOTIFICATION_LIST_LIMIT = 20;
/** How often the top bar asks for the unread count (ms). */
export const NOTIFICATION_POLL_MS = 30_000;

export const ZNotification = z
  .object({
    id: z.uuid(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    /** A portal path to open, e.g. `/quant-flows/token-details/…`. */
    link: z.string().nullable(),
    createdAt: z.iso.datetime(),
    readAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Notification' });
export type TNotification = z.infer<typeof ZNotification>;

export const ZNotificationsQuery = z.object({
  limit: ZQueryInt({ min: 1, max: 100 }).default(NOTIFICATION_LIST_LIMIT),
});

export const ZNotificationsResponse = z
  .object({ items: z.array(ZNotification), unread: z.number().int().min(0) })
  .meta({ id: 'NotificationsResponse' });
export type TNotificationsResponse = z.infer<typeof ZNotificationsResponse>;

export const ZMarkNotificationsReadRequest = z
  .object({ ids: z.array(z.uuid()).max(100).optional() })
  .meta({ id: 'MarkNotificationsReadRequest' });
export type TMarkNotificationsReadRequest = z.infer<typeof ZMarkNotificationsReadRequest>;

export const ZUnreadCount = z.object({ unread: z.number().int().min(0) }).meta({ id: 'UnreadNotifications' });

export const ZNotificationSettings = z.object({ emailEnabled: z.boolean() }).meta({ id: 'NotificationSettings' });
export type TNotificationSettings = z.infer<typeof ZNotificationSettings>;
