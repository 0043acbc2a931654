import { sql } from 'drizzle-orm';
import type { Database, InvoiceCustomer, VatTreatment } from '@connect/db';
import { vatFor } from '@connect/shared';
import type { Config } from '../config.ts';

/** Who an invoice is made out to, and how VAT applies to it (docs/decisions/usage-and-invoices.md, "Invoices (issue 18)", 2–3). */
export type InvoiceTerms = { customer: InvoiceCustomer; vatTreatment: VatTreatment; vatRateBp: number };

type CustomerRow = {
  accountId: string;
  organisationName: string | null;
  ownerName: string | null;
  ownerEmail: string | null;
  companyName: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  postcode: string | null;
  country: string | null;
  registrationNumber: string | null;
  vatNumber: string | null;
  vatNumberStatus: string | null;
  website: string | null;
  telephone: string | null;
  email: string | null;
};

/**
 * The one rule of an invoice's customer and VAT, for order invoices (placed one at a time) and the
 * month's close (thousands at once): the accounts' billing details and first member read in ONE
 * query, then per account the customer snapshot and `vatFor` (pure). An account without billing
 * details is its organisation's name (else the first member's name), no address, the first
 * member's email, and the issuer country's VAT (its country is not known).
 */
export async function invoiceTermsOf(
  db: Database,
  accountIds: readonly string[],
  invoices: Pick<Config['invoices'], 'issuer' | 'vatRates'>,
): Promise<Map<string, InvoiceTerms>> {
  const terms = new Map<string, InvoiceTerms>();
  if (accountIds.length === 0) return terms;
  const result = (await db.execute(sql`
    select a.id as "accountId", a.organisation_name as "organisationName",
      nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') as "ownerName", u.email as "ownerEmail",
      b.company_name as "companyName", b.address_line1 as "addressLine1", b.address_line2 as "addressLine2",
      b.city, b.postcode, b.country, b.registration_number as "registrationNumber", b.vat_number as "vatNumber",
      b.vat_number_status as "vatNumberStatus", b.website, b.telephone, b.email
    from unnest(${`{${accountIds.join(',')}}`}::uuid[]) as ids(id)
      join accounts a on a.id = ids.id
      left join billing_details b on b.account_id = a.id
      left join lateral (
        select first_name, last_name, email from users
        where users.account_id = a.id order by (users.status = 'ACTIVE') desc, users.created_at, users.id limit 1
      ) u on true`)) as unknown as { rows: CustomerRow[] };
  for (const row of result.rows) terms.set(row.accountId, termsOf(row, invoices));
  return terms;
}

function termsOf(row: CustomerRow, invoices: Pick<Config['invoices'], 'issuer' | 'vatRates'>): InvoiceTerms {
  const vat = vatFor({
    issuerCountry: invoices.issuer.country ?? 'GB',
    customerCountry: row.country,
    vatNumberValid: row.vatNumberStatus === 'VALID',
    rates: invoices.vatRates,
  });
  const customer: InvoiceCustomer = row.companyName
    ? {
        companyName: row.companyName,
        address: [row.addressLine1, row.addressLine2, [row.city, row.postcode].filter(Boolean).join(' ')].filter(
          (line): line is string => Boolean(line),
        ),
        country: row.country,
        registrationNumber: row.registrationNumber,
        vatNumber: row.vatNumber,
        website: row.website,
        telephone: row.telephone,
        email: row.email ?? row.ownerEmail,
      }
    : {
        companyName: row.organisationName?.trim() || row.ownerName || row.ownerEmail || 'Customer',
        address: [],
        country: null,
        registrationNumber: null,
        vatNumber: null,
        website: null,
        telephone: null,
        email: row.ownerEmail,
      };
  return { customer, vatTreatment: vat.treatment, vatRateBp: vat.rateBp };
}
