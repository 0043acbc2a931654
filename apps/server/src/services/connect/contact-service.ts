import {
  PLAN_ENQUIRY_SUBJECT,
  type TContactAuthoriseRequest,
  type TContactReceipt,
  type TContactUsRequest,
} from '@connect/shared';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { Config } from '../../config.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { ContactKind, ContactRepository } from './contact-repository.ts';

/**
 * The reference a customer quotes: derived from the stored row's id, so support finds the row
 * with a prefix search and no second unique column is needed. Eight hex characters are for
 * people, not a key; together with the sender's email they identify an enquiry.
 */
export function contactReference(id: string): string {
  return `ENQ-${id.replaceAll('-', '').slice(0, 8).toUpperCase()}`;
}

const KIND_LABELS: Record<ContactKind, string> = {
  SUPPORT: 'Support enquiry',
  AUTHORISE: 'Authorise enquiry',
  PLAN: 'Plan enquiry',
};

type Enquiry = {
  name: string;
  email: string;
  company: string | null;
  subject: string | null;
  currentPlan: string | null;
  description: string;
};

/**
 * Support enquiries (profile and help pages), plan enquiries (the upgrade journey's Contact Us, sent
 * to the same endpoint with the customer's current plan) and authorise enquiries (the authorise
 * intro page): each is stored with the caller's user id, then the team is emailed at the support
 * address.
 */
export class ContactService {
  constructor(
    private readonly repo: ContactRepository,
    private readonly mailer: Mailer,
    private readonly config: Pick<Config, 'supportEmail' | 'productName'>,
  ) {}

  async submitSupport(caller: PortalUser, input: TContactUsRequest): Promise<TContactReceipt> {
    const currentPlan = input.currentPlan ?? null;
    return this.submit(caller, currentPlan === null ? 'SUPPORT' : 'PLAN', {
      name: input.name,
      email: input.email,
      company: input.company || null,
      // The schema lets only a plan enquiry leave the subject out.
      subject: input.subject ?? PLAN_ENQUIRY_SUBJECT,
      currentPlan,
      description: input.description,
    });
  }

  async submitAuthorise(caller: PortalUser, input: TContactAuthoriseRequest): Promise<TContactReceipt> {
    return this.submit(caller, 'AUTHORISE', {
      name: input.name,
      email: input.email,
      company: input.company,
      subject: null,
      currentPlan: null,
      description: input.description,
    });
  }

  private async submit(caller: PortalUser, kind: ContactKind, input: Enquiry): Promise<TContactReceipt> {
    // Stored first: if the email fails, the enquiry is still on record and the caller sees an error.
    const row = await this.repo.insert({ kind, userId: caller.id, ...input });
    const reference = contactReference(row.id);
    const topic = input.subject ?? input.company ?? input.name;
    await this.mailer.send({
      to: this.config.supportEmail,
      kind: 'CONTACT_REQUEST',
      subject: `[${reference}] ${KIND_LABELS[kind]}: ${topic}`,
      text: [
        `${KIND_LABELS[kind]} ${reference} from the ${this.config.productName} portal.`,
        '',
        `Name: ${input.name}`,
        `Reply to: ${input.email}`,
        `Company: ${input.company ?? '-'}`,
        ...(input.subject ? [`Subject: ${input.subject}`] : []),
        ...(input.currentPlan ? [`Current plan: ${input.currentPlan}`] : []),
        `Portal user: ${caller.email} (user ${caller.id}, account ${caller.accountId}, role ${caller.role})`,
        `Received: ${row.createdAt.toISOString()}`,
        '',
        input.description,
      ].join('\n'),
    });
    return { reference, receivedAt: row.createdAt.toISOString() };
  }
}
