import { contactRequests, type Database } from '@connect/db';

/** PLAN: an enquiry from the upgrade journey's Contact Us, with the customer's current plan. */
export type ContactKind = 'SUPPORT' | 'AUTHORISE' | 'PLAN';

export type NewContactRequest = {
  kind: ContactKind;
  userId: string;
  name: string;
  email: string;
  company: string | null;
  subject: string | null;
  currentPlan: string | null;
  description: string;
};

/** The only code that touches `contact_requests`. */
export class ContactRepository {
  constructor(private readonly db: Database) {}

  async insert(request: NewContactRequest): Promise<{ id: string; createdAt: Date }> {
    const [row] = await this.db
      .insert(contactRequests)
      .values(request)
      .returning({ id: contactRequests.id, createdAt: contactRequests.createdAt });
    if (!row) throw new Error('contact request was not stored');
    return row;
  }
}
