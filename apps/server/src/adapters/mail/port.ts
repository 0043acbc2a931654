export type MailKind = 'SIGN_UP_CODE' | 'RESET_CODE' | 'INVITATION' | 'CONTACT_REQUEST';

export type MailMessage = {
  to: string;
  kind: MailKind;
  subject: string;
  text: string;
  /** The one-time code or temporary password the message carries, if any. */
  code?: string;
};

export interface Mailer {
  /** True when messages only reach the outbox (no SMTP configured). */
  readonly isSandbox: boolean;
  send(message: MailMessage): Promise<void>;
}
