export type MailKind =
  | 'SIGN_UP_CODE'
  | 'RESET_CODE'
  | 'INVITATION'
  | 'CONTACT_REQUEST'
  | 'NOTIFICATION'
  /** To the staff-alert address (repositories/staff-alerts.ts). */
  | 'STAFF_ALERT';

export type MailMessage = {
  to: string;
  kind: MailKind;
  subject: string;
  text: string;
  /** The one-time code or temporary password the message carries, if any. */
  code?: string;
  /**
   * Makes sending idempotent: a second message with the same key is neither written nor sent
   * (an event's subscriber passes `event:<event id>:<recipient>`, so a redelivery mails nothing).
   */
  dedupeKey?: string;
};

export interface Mailer {
  /** True when messages only reach the outbox (no SMTP configured). */
  readonly isSandbox: boolean;
  /** Writes the message to the outbox and delivers it; does nothing for a `dedupeKey` already used. */
  send(message: MailMessage): Promise<void>;
}
