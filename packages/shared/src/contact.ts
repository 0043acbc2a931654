import { z } from 'zod';
import { FIELD_MESSAGES } from './messages.ts';
import { ZEmail } from './password.ts';

const text = (max: number) =>
  z
    .string({ error: FIELD_MESSAGES.required })
    .trim()
    .min(1, { message: FIELD_MESSAGES.required })
    .max(max, { message: FIELD_MESSAGES.tooLong(max) });

/** The subject of a plan enquiry sent without one (the upgrade journey's Contact Us has no subject field). */
export const PLAN_ENQUIRY_SUBJECT = 'Plan enquiry';

/**
 * Support enquiry from the profile and help pages, or a plan enquiry from the upgrade journey's
 * Contact Us (POST /contact-us-form). A plan enquiry carries the customer's current plan and may
 * leave the subject out (it is then PLAN_ENQUIRY_SUBJECT); a support enquiry needs its subject.
 */
export const ZContactUsRequest = z
  .object({
    name: text(100),
    email: ZEmail,
    company: text(200).optional(),
    subject: text(150).optional(),
    currentPlan: text(100).optional(),
    description: text(2000),
  })
  .superRefine((value, ctx) => {
    if (value.subject === undefined && value.currentPlan === undefined) {
      ctx.addIssue({ code: 'custom', path: ['subject'], message: FIELD_MESSAGES.required });
    }
  })
  .meta({ id: 'ContactUsRequest' });
export type TContactUsRequest = z.infer<typeof ZContactUsRequest>;

/** "Contact us" of the authorise intro page (POST /contact-us-authorise). */
export const ZContactAuthoriseRequest = z
  .object({
    name: text(100),
    email: ZEmail,
    company: text(200),
    description: text(2000),
  })
  .meta({ id: 'ContactAuthoriseRequest' });
export type TContactAuthoriseRequest = z.infer<typeof ZContactAuthoriseRequest>;

export const ZContactReceipt = z
  .object({ reference: z.string(), receivedAt: z.string() })
  .meta({ id: 'ContactReceipt' });
export type TContactReceipt = z.infer<typeof ZContactReceipt>;
