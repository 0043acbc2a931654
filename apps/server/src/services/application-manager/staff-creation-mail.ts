import { APPLICATION_ROLE_DESCRIPTIONS } from '@connect/shared';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { DomainEvents } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';

/** The subscriber's name: deliveries are recorded under it, so it never changes. */
export const STAFF_CREATION_EMAIL_SUBSCRIBER = 'application-manager.staff-creation-emails';

type MailOptions = { mailer: Mailer; publicUrl: string; productName: string };

/** The email telling a user that staff created an application for them (without its secret). */
export function staffCreationMail(
  created: DomainEvents['application.created_by_staff'],
  options: Pick<MailOptions, 'publicUrl' | 'productName'>,
): { subject: string; text: string } {
  const role = created.roleName.charAt(0) + created.roleName.slice(1).toLowerCase();
  return {
    subject: `An application was created for you: ${created.name}`,
    text: [
      `Our team created the ${created.applicationType} application "${created.name}" in your ${options.productName} account for you.`,
      `Role: ${role} — ${APPLICATION_ROLE_DESCRIPTIONS[created.roleName]}`,
      `Client id: ${created.clientId}`,
      '',
      // The secret is shown once, to the staff member: never in an email, which may be forwarded or kept.
      'Its client secret is not in this email. The team member who created the application will pass it on to you securely; or issue a new secret yourself from the application on My applications.',
      '',
      `Open it in the portal: ${options.publicUrl}/my-applications`,
      '',
      'You receive this email because an application was created in your account. If you did not expect it, reply to this email or contact support.',
    ].join('\n'),
  };
}

/**
 * Emails the user an application was created for (issue 33 §2), once per event: the mailer's
 * dedupe key is the event's, so a redelivery mails nothing. Always sent, whatever the user's
 * notification setting: it concerns credentials in their account.
 */
export function subscribeStaffCreationMail(events: EventBus, options: MailOptions): void {
  events.subscribeEffect(STAFF_CREATION_EMAIL_SUBSCRIBER, 'application.created_by_staff', async (event) => {
    const mail = staffCreationMail(event.payload, options);
    await options.mailer.send({
      to: event.payload.email,
      kind: 'NOTIFICATION',
      ...mail,
      dedupeKey: `event:${event.id}:${event.payload.userId}`,
    });
  });
}
