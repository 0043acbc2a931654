import { z } from 'zod';
import { LIMITS } from './constants.ts';
import { ZQueryInt, ZQueryPage } from './numbers.ts';
import { PAYMENT_METHODS } from './plans.ts';
import { ZOrder } from './subscriptions.ts';

/*
 * Invoices (issue 18, spec §3, §4, §7, §9): what a customer is billed, numbered without gaps,
 * with VAT by the customer's country, totals in pounds and dollars and the QNT amount at its rate.
 * Money on the wire is in minor units (pence, cents) as integers; a unit price that is not a whole
 * number of pence is a decimal string in pounds ("0.9449"). Dates are ISO strings.
 */

/** What an invoice bills: an order (placed and numbered at once), or a month's pay-as-you-go use (the close). */
export const INVOICE_KINDS = ['ORDER', 'MONTHLY'] as const;
export type TInvoiceKind = (typeof INVOICE_KINDS)[number];

/**
 * DRAFT: a month's invoice during its grace window — no number, never shown to the customer.
 * OPEN: numbered and due. PAID. VOID: its order was withdrawn (it keeps its number).
 */
export const INVOICE_STATUSES = ['DRAFT', 'OPEN', 'PAID', 'VOID'] as const;
export type TInvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** The statuses a customer sees (drafts are not listed). */
export const CUSTOMER_INVOICE_STATUSES = ['OPEN', 'PAID', 'VOID'] as const;

/**
 * How VAT applies to an invoice: STANDARD (the customer's country's rate from the table),
 * REVERSE_CHARGE (another country's business with a valid VAT number: 0 %, the customer accounts
 * for it), OUTSIDE_SCOPE (a country the table does not list: no VAT).
 */
export const VAT_TREATMENTS = ['STANDARD', 'REVERSE_CHARGE', 'OUTSIDE_SCOPE'] as const;
export type TVatTreatment = (typeof VAT_TREATMENTS)[number];

/** The legend a reverse-charged invoice carries (PDF, page, CSV). */
export const REVERSE_CHARGE_LEGEND = 'Reverse charge: the customer accounts for VAT on this supply.';

/** The number series: invoices, credit notes and receipts each count from their own counter. */
export const INVOICE_SERIES = { invoice: 'INV', creditNote: 'CN', receipt: 'RCT' } as const;
export type TInvoiceSeries = (typeof INVOICE_SERIES)[keyof typeof INVOICE_SERIES];

/** A document's number as printed: `INV-000042` (the counter's value, six digits at least). */
export function documentNumber(series: TInvoiceSeries, seq: number | bigint): string {
  return `${series}-${String(seq).padStart(6, '0')}`;
}

export { DEFAULT_VAT_RATES_BP } from './vat-rates.ts';

/**
 * The one VAT rule (docs/decisions/usage-and-invoices.md, "Invoices (issue 18)"). The issuer's own country, or a
 * customer without a country: that country's rate. Another country with a valid VAT number:
 * reverse charge at 0 %. Another country in the table without one: its rate. A country the table
 * does not list: outside the scope of VAT.
 */
export function vatFor(input: {
  issuerCountry: string;
  customerCountry: string | null;
  vatNumberValid: boolean;
  rates: Readonly<Record<string, number>>;
}): { treatment: TVatTreatment; rateBp: number } {
  const country = (input.customerCountry ?? input.issuerCountry).toUpperCase();
  const issuer = input.issuerCountry.toUpperCase();
  if (country !== issuer && input.vatNumberValid) return { treatment: 'REVERSE_CHARGE', rateBp: 0 };
  const rate = input.rates[country];
  if (rate === undefined) return { treatment: 'OUTSIDE_SCOPE', rateBp: 0 };
  return { treatment: 'STANDARD', rateBp: rate };
}

/**
 * The VAT inside an amount that includes it (catalogue prices are what the customer pays; VAT,
 * where due, is shown inside them), rounded half up to the minor unit: `{ net, vat }`, net + vat = gross.
 */
export function splitVat(grossMinor: number, rateBp: number): { netMinor: number; vatMinor: number } {
  if (rateBp === 0 || grossMinor === 0) return { netMinor: grossMinor, vatMinor: 0 };
  const vatMinor = Math.round((grossMinor * rateBp) / (10_000 + rateBp));
  return { netMinor: grossMinor - vatMinor, vatMinor };
}

const DAY_MS = 86_400_000;
const noonOfUtcDay = (time: number) => new Date(Math.floor(time / DAY_MS) * DAY_MS + DAY_MS / 2).toISOString();

/**
 * An invoice's period as shown (list, page, PDF, CSV). A month's invoice covers UTC days up to its
 * end, exclusive ([1 Nov, 1 Dec)): it shows its first and last day, each as noon UTC so that the
 * day reads the same in any time zone of the world. An order's period shows as stored (its plan's
 * dates).
 */
export function invoicePeriod(
  kind: TInvoiceKind,
  start: Date | null,
  end: Date | null,
): { start: string | null; end: string | null } {
  if (kind !== 'MONTHLY') return { start: start?.toISOString() ?? null, end: end?.toISOString() ?? null };
  return {
    start: start ? noonOfUtcDay(start.getTime()) : null,
    end: end ? noonOfUtcDay(end.getTime() - 1) : null,
  };
}

// ── The list's sort (spec §3 table, §4 cycle, §9 default) ────────────────────────────────────

export const INVOICE_SORT_FIELDS = ['invoiceNumber', 'startDate', 'endDate', 'subtotal', 'status'] as const;
export type TInvoiceSortField = (typeof INVOICE_SORT_FIELDS)[number];
export type TInvoiceSort = { field: TInvoiceSortField; direction: 'asc' | 'desc' } | null;

/** The list's first sort: invoice number, newest first (spec §9). */
export const INITIAL_INVOICE_SORT: TInvoiceSort = { field: 'invoiceNumber', direction: 'desc' };

/**
 * The invoice sort cycle per click (spec §4): a column without a marker → desc, asc → desc,
 * desc → asc. Only one column carries a marker: choosing a column clears the others.
 */
export function nextInvoiceSort(current: TInvoiceSort, field: TInvoiceSortField): TInvoiceSort {
  if (!current || current.field !== field) return { field, direction: 'desc' };
  return { field, direction: current.direction === 'desc' ? 'asc' : 'desc' };
}

/** The wire form `field:direction`, or '' for none (spec §7). */
export function formatInvoiceSort(sort: TInvoiceSort): string {
  return sort ? `${sort.field}:${sort.direction}` : '';
}

/** Reads `field:direction`; '' or anything the list cannot sort by is null (the server then sorts by the default). */
export function parseInvoiceSort(value: string | undefined | null): TInvoiceSort {
  const [field, direction, ...rest] = (value ?? '').split(':');
  if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) return null;
  if (!(INVOICE_SORT_FIELDS as readonly string[]).includes(field ?? '')) return null;
  return { field: field as TInvoiceSortField, direction };
}

export const INVOICE_PAGE_SIZES = LIMITS.pageSizes;

/** GET /user/invoices query: zero-based page (negative → 0), a spec page size, `sort=field:direction` or ''. */
export const ZInvoiceListQuery = z.object({
  page: ZQueryPage.optional().transform((page) => page ?? 0),
  size: ZQueryInt()
    .refine((size) => (INVOICE_PAGE_SIZES as readonly number[]).includes(size), {
      message: `The page size must be one of ${INVOICE_PAGE_SIZES.join(', ')}.`,
    })
    .default(10),
  sort: z
    .string()
    .max(40)
    .optional()
    .refine((sort) => !sort || parseInvoiceSort(sort) !== null, {
      message: `The sort must be field:asc or field:desc, the field one of ${INVOICE_SORT_FIELDS.join(', ')}.`,
    }),
  status: z.enum(CUSTOMER_INVOICE_STATUSES).optional(),
});
export type TInvoiceListQuery = {
  page?: number;
  size?: number;
  sort?: string;
  status?: (typeof CUSTOMER_INVOICE_STATUSES)[number] | undefined;
};

/** A row of My Invoices (spec §3 table). */
export const ZInvoiceRow = z
  .object({
    id: z.uuid(),
    invoiceNumber: z.string(),
    kind: z.enum(INVOICE_KINDS),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    /** The total without VAT, in pence (the "Amount" column). */
    subtotal: z.number().int(),
    total: z.number().int(),
    currency: z.literal('GBP'),
    status: z.enum(CUSTOMER_INVOICE_STATUSES),
    /** OPEN and past its due date. */
    overdue: z.boolean(),
    /** Credit notes against it, in pence (a refund). */
    credited: z.number().int(),
    dueDate: z.string(),
    lastUpdatedAt: z.string(),
    orderId: z.uuid().nullable(),
  })
  .meta({ id: 'InvoiceRow' });
export type TInvoiceRow = z.infer<typeof ZInvoiceRow>;

export const ZInvoicePage = z
  .object({
    content: z.array(ZInvoiceRow),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
    /** The sort the server applied, `field:direction`. */
    sort: z.string(),
  })
  .meta({ id: 'InvoicePage' });
export type TInvoicePage = z.infer<typeof ZInvoicePage>;

/** A party of an invoice: the customer (snapshotted when the invoice is numbered) or the issuer (configuration). */
export const ZInvoiceParty = z
  .object({
    companyName: z.string(),
    /** Address lines, printed one per line (city and postcode included); empty when none was given. */
    address: z.array(z.string()),
    country: z.string().nullable(),
    registrationNumber: z.string().nullable(),
    vatNumber: z.string().nullable(),
    website: z.string().nullable(),
    telephone: z.string().nullable(),
    email: z.string().nullable(),
  })
  .meta({ id: 'InvoiceParty' });
export type TInvoiceParty = z.infer<typeof ZInvoiceParty>;

const REGION_NAMES = new Intl.DisplayNames(['en-GB'], { type: 'region' });

/** A country's English name from its ISO code ('DE' → 'Germany'); the code itself when unknown. */
export function countryName(code: string): string {
  try {
    return REGION_NAMES.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/**
 * A party's address as the page and the PDF print it: its lines, then the country's name unless
 * the last line says it already; empty when no address was given (the documents then say so).
 */
export function partyAddressLines(party: Pick<TInvoiceParty, 'address' | 'country'>): string[] {
  if (party.address.length === 0) return [];
  const country = party.country ? countryName(party.country) : null;
  return country && party.address.at(-1)?.trim() !== country ? [...party.address, country] : [...party.address];
}

export const ZInvoiceLine = z
  .object({
    description: z.string(),
    quantity: z.number().int(),
    /** Pounds per unit, as a decimal string (a credit's price need not be whole pence). */
    unitPrice: z.string(),
    vatRateBp: z.number().int(),
    /** VAT of the line, in pence. */
    vat: z.number().int(),
    /** The line without VAT, in pence. */
    amount: z.number().int(),
  })
  .meta({ id: 'InvoiceLine' });
export type TInvoiceLine = z.infer<typeof ZInvoiceLine>;

/**
 * A line that only explains the bill (the calls made, the credits used, what the credit balance
 * covered): no price, no VAT, no amount. The page and the PDF show a dash in its money columns
 * rather than a column of £0.00; the CSV keeps the zeros.
 */
export function isExplanatoryLine(line: Pick<TInvoiceLine, 'unitPrice' | 'vat' | 'amount'>): boolean {
  return line.amount === 0 && line.vat === 0 && Number(line.unitPrice) === 0;
}

/** A credit note against the invoice (a refund), as the invoice shows it. */
export const ZInvoiceCreditNote = z
  .object({
    id: z.uuid(),
    number: z.string(),
    amount: z.number().int(),
    reason: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'InvoiceCreditNote' });
export type TInvoiceCreditNote = z.infer<typeof ZInvoiceCreditNote>;

export const ZReceipt = z
  .object({
    id: z.uuid(),
    number: z.string(),
    invoiceId: z.uuid(),
    invoiceNumber: z.string(),
    /** Pence received. */
    amount: z.number().int(),
    currency: z.literal('GBP'),
    method: z.string(),
    paidAt: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Receipt' });
export type TReceipt = z.infer<typeof ZReceipt>;

/** GET /user/invoice/{id}: the invoice as its page, PDF and CSV show it (spec §3 Invoice). */
export const ZInvoice = z
  .object({
    id: z.uuid(),
    number: z.string(),
    kind: z.enum(INVOICE_KINDS),
    status: z.enum(CUSTOMER_INVOICE_STATUSES),
    overdue: z.boolean(),
    /** The invoice date (when it was numbered). */
    date: z.string(),
    /** The order's reference (quote it on a transfer), or the invoice number for a month's invoice without an order. */
    reference: z.string(),
    accountNumber: z.string(),
    dueDate: z.string(),
    termsDays: z.number().int(),
    periodStart: z.string().nullable(),
    periodEnd: z.string().nullable(),
    lastUpdatedAt: z.string(),
    customer: ZInvoiceParty,
    issuer: ZInvoiceParty,
    lines: z.array(ZInvoiceLine),
    currency: z.literal('GBP'),
    /** Σ line amounts (pence). */
    subtotal: z.number().int(),
    totalWithoutVat: z.number().int(),
    vat: z.number().int(),
    vatTreatment: z.enum(VAT_TREATMENTS),
    vatRateBp: z.number().int(),
    /** The reverse-charge legend, or null. */
    vatNote: z.string().nullable(),
    totalGbp: z.number().int(),
    totalUsd: z.number().int(),
    /** US dollars per pound the totals were converted at. */
    usdPerGbp: z.string(),
    paymentReceived: z.number().int(),
    dateReceived: z.string().nullable(),
    /** How it was paid: the method of the last payment received for it; null while nothing was received. */
    paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
    amountDue: z.number().int(),
    /** The QNT amount at its rate and the rate's time: a month's total at the close, or the quote an order was paid in QNT at; else null. */
    qnt: z.object({ amountWei: z.string(), gbpPerQnt: z.string(), rateAt: z.string() }).nullable(),
    orderId: z.uuid().nullable(),
    creditNotes: z.array(ZInvoiceCreditNote),
    receipt: ZReceipt.nullable(),
  })
  .meta({ id: 'Invoice' });
export type TInvoice = z.infer<typeof ZInvoice>;

/**
 * GET /user/invoice/payment-rate/{id}: what paying the invoice in QNT takes now — the amount at the
 * quoted rate (billing state's qntPaymentAmount), the QNT the account holds, and the order carrying
 * the quote (its `qnt` has the deposit address and chain for a transfer).
 */
export const ZInvoicePaymentRate = z
  .object({
    invoiceId: z.uuid(),
    invoiceNumber: z.string(),
    amountDue: z.number().int(),
    qntPaymentAmount: z.string().regex(/^\d+$/),
    gbpPerQnt: z.string(),
    rateAt: z.string(),
    expiresAt: z.string(),
    /** QNT the account holds (wei): enough of it settles the invoice at once. */
    heldQnt: z.string().regex(/^\d+$/),
    order: ZOrder,
  })
  .meta({ id: 'InvoicePaymentRate' });
export type TInvoicePaymentRate = z.infer<typeof ZInvoicePaymentRate>;

/** POST /user/invoice/create-receipt (connect service). */
export const ZCreateReceiptRequest = z
  .object({ invoiceId: z.uuid({ message: 'The invoice id must be a UUID.' }) })
  .meta({ id: 'CreateReceiptRequest' });
export type TCreateReceiptRequest = z.infer<typeof ZCreateReceiptRequest>;

/** POST /api/dev/billing/close-period (development only): the month ending at `at` (default: now) closed at once. */
export const ZClosePeriodResult = z
  .object({
    periodStart: z.string(),
    periodEnd: z.string(),
    drafted: z.number().int(),
    finalised: z.number().int(),
    invoiceIds: z.array(z.uuid()),
  })
  .meta({ id: 'ClosePeriodResult' });
export type TClosePeriodResult = z.infer<typeof ZClosePeriodResult>;
