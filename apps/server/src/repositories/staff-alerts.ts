import { and, desc, eq, isNull } from 'drizzle-orm';
import { staffAlerts, type Database } from '@connect/db';
import type { Mailer } from '../adapters/mail/port.ts';
import type { EventBus } from '../events/port.ts';

export type StaffAlertRow = typeof staffAlerts.$inferSelect;

/** What staff are told: a stable code (what kind of thing happened), a readable message, and the record it concerns. */
export type StaffAlert = {
  /** Upper snake case, stable (`QNT_TRANSFER_REVERSED`): staff filter and count by it. */
  code: string;
  message: string;
  record?: { type: string; id: string };
  /** The same key raises once (a retry, a redelivery, a second node): built from the cause, never random. */
  dedupeKey?: string;
};

/** The subscriber's name (deliveries are recorded under it): never renamed. */
export const STAFF_ALERT_MAIL_SUBSCRIBER = 'staff-alerts.mail';

/**
 * The one staff-alert channel (issue 27 §4; docs/architecture.md "Staff alerts"): a table staff
 * read and acknowledge (GET /api/connect/management/alerts), and a mail to the configured address
 * (STAFF_ALERT_EMAIL; else ADMIN_EMAIL, else SUPPORT_EMAIL: config.staffAlertEmail) for each alert.
 *
 * `raise` is made inside the transaction of its cause: the alert row and its `staff.alert_raised`
 * event are written with the cause or not at all; the event's effect mails it after the commit
 * through the mailer (the mail outbox; SMTP when configured), keyed by the alert, so a crash
 * between the commit and the mail sends it once, later.
 */
export class StaffAlertsRepository {
  constructor(
    private readonly db: Database,
    private readonly events?: EventBus,
  ) {}

  /**
   * Stores the alert and announces it, to be mailed to `to`. Answers the alert, or null when an
   * alert with its dedupe key exists already (nothing written, nothing mailed again).
   */
  async raise(alert: StaffAlert, to: string): Promise<StaffAlertRow | null> {
    if (!this.events) throw new Error('StaffAlertsRepository: raising an alert needs the event bus');
    const [row] = await this.db
      .insert(staffAlerts)
      .values({
        code: alert.code,
        message: alert.message,
        recordType: alert.record?.type ?? null,
        recordId: alert.record?.id ?? null,
        dedupeKey: alert.dedupeKey ?? null,
      })
      .onConflictDoNothing({ target: staffAlerts.dedupeKey })
      .returning();
    if (!row) return null;
    await this.events.emit(this.db, 'staff.alert_raised', {
      alertId: row.id,
      code: row.code,
      message: row.message,
      recordType: row.recordType,
      recordId: row.recordId,
      to,
    });
    return row;
  }

  /** The alerts, newest first: only those nobody acknowledged yet with `openOnly`. */
  list(options: { openOnly: boolean; limit: number }): Promise<StaffAlertRow[]> {
    return this.db
      .select()
      .from(staffAlerts)
      .where(options.openOnly ? isNull(staffAlerts.acknowledgedAt) : undefined)
      .orderBy(desc(staffAlerts.raisedAt), desc(staffAlerts.id))
      .limit(options.limit);
  }

  /**
   * Marks the alert acknowledged by `userId`, now; an alert acknowledged already keeps who and
   * when. Answers the alert as it stands, or null when there is no such alert.
   */
  /** `wasAcknowledged`: someone had acknowledged it before this call (nothing changed). */
  async acknowledge(id: string, userId: string): Promise<(StaffAlertRow & { wasAcknowledged: boolean }) | null> {
    const [updated] = await this.db
      .update(staffAlerts)
      .set({ acknowledgedAt: new Date(), acknowledgedBy: userId })
      .where(and(eq(staffAlerts.id, id), isNull(staffAlerts.acknowledgedAt)))
      .returning();
    if (updated) return { ...updated, wasAcknowledged: false };
    const [row] = await this.db.select().from(staffAlerts).where(eq(staffAlerts.id, id));
    return row ? { ...row, wasAcknowledged: true } : null;
  }
}

/**
 * Mails every raised alert to the address it was raised for (an effect: at least once, keyed by
 * the alert so the outbox writes it once). Registered on every node with the other mail
 * subscribers (services/connect notification-subscribers.ts, called from app.ts).
 */
export function subscribeStaffAlertMails(events: EventBus, mailer: Mailer, publicUrl: string): void {
  events.subscribeEffect(STAFF_ALERT_MAIL_SUBSCRIBER, 'staff.alert_raised', async (event) => {
    const alert = event.payload;
    await mailer.send({
      to: alert.to,
      kind: 'STAFF_ALERT',
      subject: `Staff alert: ${alert.code}`,
      text: [
        alert.message,
        '',
        ...(alert.recordType ? [`Record: ${alert.recordType} ${alert.recordId ?? ''}`.trim()] : []),
        `Raised: ${event.occurredAt.toISOString()}`,
        `Alert: ${alert.alertId}`,
        '',
        `Acknowledge it with POST ${publicUrl}/api/connect/management/alerts/${alert.alertId}/acknowledge (staff console).`,
      ].join('\n'),
      dedupeKey: `staff-alert:${alert.alertId}`,
    });
  });
}
