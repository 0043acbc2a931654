import { z } from 'zod';
import { FIELD_MESSAGES } from './messages.ts';
import { ZEmail } from './password.ts';

const text = (max: number) =>
  z
    .string({ error: FIELD_MESSAGES.required })
    .trim()
    .min(1, { message: FIELD_MESSAGES.required })
    .max(max, { message: FIELD_MESSAGES.tooLong(max) });

/** Support enquiry from the profile page (POST /contact-us-form). */
export const ZContactUsRequest = z
  .object({
    name: text(100),
    email: ZEmail,
    company: text(200).optional(),
    subject: text(150),
    description: text(2000),
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
