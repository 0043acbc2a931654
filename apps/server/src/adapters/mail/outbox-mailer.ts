import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import { MailOutboxRepository } from '../../repositories/mail-outbox.ts';
import type { Mailer, MailMessage } from './port.ts';

export type SmtpTransport = {
  sendMail(mail: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
};

/**
 * Writes every message to the outbox table; with an SMTP transport it also delivers it and then
 * clears the code and body from the row, so the table keeps a delivery log, not secrets.
 * Without SMTP (the embedded default) the outbox is the mailbox, readable at /api/dev/outbox.
 * A message with a `dedupeKey` is written and sent once (the key is unique in the table).
 */
export class OutboxMailer implements Mailer {
  readonly isSandbox: boolean;
  private readonly outbox: MailOutboxRepository;

  constructor(
    db: Database,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly smtp?: SmtpTransport,
  ) {
    this.isSandbox = !smtp;
    this.outbox = new MailOutboxRepository(db);
  }

  async send(message: MailMessage): Promise<void> {
    const id = await this.outbox.record(message);
    // No id: a message with this dedupeKey was written (and sent) before.
    if (!this.smtp || !id) return;
    try {
      await this.smtp.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
      await this.outbox.markDelivered(id);
    } catch (error) {
      // The caller's action (sign-up, reset) still succeeded; the row stays for a retry.
      this.log.error({ err: error, outboxId: id, kind: message.kind }, 'mail delivery failed');
      await this.outbox.markFailed(id, error instanceof Error ? error.message : String(error));
    }
  }
}

export async function createSmtpTransport(smtpUrl: string): Promise<SmtpTransport> {
  const nodemailer = await import('nodemailer');
  return nodemailer.createTransport(smtpUrl);
}
