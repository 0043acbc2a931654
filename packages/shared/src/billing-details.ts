import { z } from 'zod';

/*
 * Billing details (issue 18, spec §3): the customer side of an invoice — who invoices are made out
 * to, and the VAT number with its prefix rules. Snapshotted onto an invoice when it is numbered
 * (invoices.ts ZInvoiceParty).
 */

/** VAT numbers: a two-letter country prefix and 2–13 letters or digits (the VIES/HMRC shape); checked by the VAT adapter. */
export const VAT_NUMBER_PATTERN = /^[A-Z]{2}[0-9A-Z]{2,13}$/;
/**
 * NONE: no VAT number. VALID: the register knows it (reverse charge may apply). UNCHECKED: the
 * register could not be asked; checked again when the details are saved. A number the register
 * says is unknown is refused (VAT_NUMBER_INVALID), never stored.
 */
export const VAT_NUMBER_STATUSES = ['NONE', 'VALID', 'UNCHECKED'] as const;
export type TVatNumberStatus = (typeof VAT_NUMBER_STATUSES)[number];

/** VAT number prefixes that are not the country's ISO code: Greece (EL) and Northern Ireland (XI, in the UK). */
const VAT_PREFIX_OF: Readonly<Record<string, string>> = { GR: 'EL' };
const COUNTRY_OF_VAT_PREFIX: Readonly<Record<string, string>> = { EL: 'GR', XI: 'GB' };

/** The ISO country a VAT number belongs to, from its prefix ('EL123…' → 'GR'). */
export function vatNumberCountry(vatNumber: string): string {
  const prefix = vatNumber.slice(0, 2).toUpperCase();
  return COUNTRY_OF_VAT_PREFIX[prefix] ?? prefix;
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `At most ${max} characters.` })
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional()
    .transform((value) => value ?? null);

/** PUT /user/billing-details (connect service): who invoices are made out to. */
export const ZBillingDetailsRequest = z
  .object({
    companyName: z.string().trim().min(1, { message: 'Enter the company or your name.' }).max(200),
    addressLine1: z.string().trim().min(1, { message: 'Enter the first line of the address.' }).max(200),
    addressLine2: optionalText(200),
    city: z.string().trim().min(1, { message: 'Enter the town or city.' }).max(100),
    postcode: optionalText(20),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, { message: 'Choose the country.' }),
    registrationNumber: optionalText(40),
    vatNumber: z
      .string()
      .trim()
      .toUpperCase()
      .transform((value) => value.replace(/[\s.-]/g, ''))
      .refine((value) => value === '' || VAT_NUMBER_PATTERN.test(value), {
        message: 'A VAT number starts with its two-letter country code, e.g. GB123456789.',
      })
      .transform((value) => (value === '' ? null : value))
      .nullable()
      .optional()
      .transform((value) => value ?? null),
    website: optionalText(200),
    telephone: optionalText(40),
    email: z
      .union([z.literal(''), z.email({ message: 'Enter a valid email address.' })])
      .nullable()
      .optional()
      .transform((value) => (value ? value : null)),
  })
  .superRefine((details, ctx) => {
    // Reverse charge follows the VAT number, so it must be the billing country's own.
    if (details.vatNumber && vatNumberCountry(details.vatNumber) !== details.country) {
      ctx.addIssue({
        code: 'custom',
        path: ['vatNumber'],
        message: `The VAT number must be one of the billing country (${VAT_PREFIX_OF[details.country] ?? details.country}…).`,
      });
    }
  })
  .meta({ id: 'BillingDetailsRequest' });
export type TBillingDetailsRequest = z.input<typeof ZBillingDetailsRequest>;

/** GET/PUT /user/billing-details answer: the details, and what the VAT number check found. */
export const ZBillingDetails = z
  .object({
    companyName: z.string(),
    addressLine1: z.string(),
    addressLine2: z.string().nullable(),
    city: z.string(),
    postcode: z.string().nullable(),
    country: z.string(),
    registrationNumber: z.string().nullable(),
    vatNumber: z.string().nullable(),
    vatNumberStatus: z.enum(VAT_NUMBER_STATUSES),
    website: z.string().nullable(),
    telephone: z.string().nullable(),
    email: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'BillingDetails' });
export type TBillingDetails = z.infer<typeof ZBillingDetails>;

/** GET /user/billing-details when none were given yet. */
export const ZBillingDetailsResponse = z
  .object({ details: ZBillingDetails.nullable() })
  .meta({ id: 'BillingDetailsResponse' });
export type TBillingDetailsResponse = z.infer<typeof ZBillingDetailsResponse>;
