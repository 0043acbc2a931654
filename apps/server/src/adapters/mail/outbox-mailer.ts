import { eq } from 'drizzle-orm';
import { mailOutbox, type Database } from '@connect/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from './port.ts';

export type SmtpTransport = {
  sendMail(mail: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
};

/**
 * Writes every message to the outbox table; with an SMTP transport it also delivers it and then
 * clears the code and body from the row, so the table keeps a delivery log, not secrets.
 * Without SMTP (the embedded default) the outbox is the mailbox, readable at /api/dev/outbox.
 */
export class OutboxMailer implements Mailer {
  readonly isSandbox: boolean;

  constructor(
    private readonly db: Database,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly smtp?: SmtpTransport,
  ) {
    this.isSandbox = !smtp;
  }

  async send(message: MailMessage): Promise<void> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({
        toAddress: message.to.toLowerCase(),
        kind: message.kind,
        subject: message.subject,
        textBody: message.text,
        code: message.code ?? null,
      })
      .returning({ id: mailOutbox.id });
    if (!this.smtp || !row) return;
    try {
      await this.smtp.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
      await this.db
        .update(mailOutbox)
        .set({ sentAt: new Date(), attempts: 1, code: null, textBody: '(delivered)' })
        .where(eq(mailOutbox.id, row.id));
    } catch (error) {
      // The caller's action (sign-up, reset) still succeeded; the row stays for a retry.
      this.log.error({ err: error, outboxId: row.id, kind: message.kind }, 'mail delivery failed');
      await this.db
        .update(mailOutbox)
        .set({ attempts: 1, lastError: error instanceof Error ? error.message : String(error) })
        .where(eq(mailOutbox.id, row.id));
    }
  }
}

export async function createSmtpTransport(smtpUrl: string): Promise<SmtpTransport> {
  const nodemailer = await import('nodemailer');
  return nodemailer.createTransport(smtpUrl);
}
