import { asc, eq } from 'drizzle-orm';
import { mailOutbox, type Database } from '@connect/db';
import type { MailMessage } from '../adapters/mail/port.ts';

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** The only code that reads or writes `mail_outbox`: every message sent, and its delivery. */
export class MailOutboxRepository {
  constructor(private readonly db: Database) {}

  /** Stores a message to send; answers its id, or undefined when its `dedupeKey` was used before (nothing written). */
  async record(message: MailMessage): Promise<string | undefined> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({
        toAddress: message.to.toLowerCase(),
        kind: message.kind,
        subject: message.subject,
        textBody: message.text,
        code: message.code ?? null,
        dedupeKey: message.dedupeKey ?? null,
      })
      .onConflictDoNothing({ target: mailOutbox.dedupeKey })
      .returning({ id: mailOutbox.id });
    return row?.id;
  }

  /** Delivered by SMTP: the row keeps a delivery log, not the code or the body. */
  async markDelivered(id: string): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set({ sentAt: new Date(), attempts: 1, code: null, textBody: '(delivered)' })
      .where(eq(mailOutbox.id, id));
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.db.update(mailOutbox).set({ attempts: 1, lastError: error }).where(eq(mailOutbox.id, id));
  }

  /** The messages sent to an address, oldest first (the dev mailbox). */
  sentTo(address: string): Promise<OutboxRow[]> {
    return this.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, address))
      .orderBy(asc(mailOutbox.createdAt));
  }
}
