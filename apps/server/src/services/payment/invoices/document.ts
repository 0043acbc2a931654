/*
 * An invoice as its documents say it (spec §3 Invoice, §9): one view model of formatted strings,
 * made from the invoice the page shows (ZInvoice), so the PDF and the CSV say what the page says.
 * Dates en-GB with dots in the UK's time zone, pounds and dollars with their symbols and
 * thousands separators, QNT grouped by thousands.
 */
import {
  isExplanatoryLine,
  partyAddressLines,
  type TInvoice,
  type TInvoiceParty,
  type TReceipt,
} from '@connect/shared';
import type { Config } from '../../../config.ts';
import { formatCount, formatDate, formatDollars, formatPounds } from '../../../lib/formats.ts';

export type Field = readonly [label: string, value: string];

export type PartyBlock = { heading: string; name: string; lines: string[] };

export type InvoiceDocument = {
  /** 'Invoice INV-000123' (the PDF's title). */
  title: string;
  number: string;
  issuer: PartyBlock;
  customer: PartyBlock;
  header: Field[];
  lines: { columns: string[]; rows: string[][] };
  summary: Field[];
  vatNote: string | null;
  /** The QNT section's heading: 'Paid in QNT' once paid in QNT, else 'Paying in QNT'. */
  qntHeading: string;
  /** The QNT amount, its rate and the rate's time; null when none was kept. */
  qnt: Field[] | null;
  creditNotes: { columns: string[]; rows: string[][] } | null;
  /** Where to send a bank transfer, while something is due. */
  bank: Field[] | null;
  footer: string[];
};

const STATUS_WORDS: Record<TInvoice['status'], string> = { OPEN: 'Open', PAID: 'Paid', VOID: 'Void' };

const TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** '07.03.2026 14:05 GMT' (UK time). */
export const formatDateTime = (value: string | Date) => `${formatDate(value)} ${TIME.format(new Date(value))}`;

const WEI_PER_QNT = 10n ** 18n;

/** Wei as QNT, grouped by thousands, up to six decimals (rounded down): '1,234.5 QNT'. */
export function formatQnt(wei: string | bigint): string {
  const value = BigInt(wei);
  const micro = (value % WEI_PER_QNT) / 10n ** 12n;
  const fraction = micro === 0n ? '' : `.${micro.toString().padStart(6, '0').replace(/0+$/, '')}`;
  return `${formatCount(value / WEI_PER_QNT)}${fraction} QNT`;
}

/** A unit price in pounds as a decimal string ('0.9449', '1200.00') with its symbol and grouping, at least two decimals. */
export function formatUnitPrice(pounds: string): string {
  const [whole = '0', fraction = ''] = pounds.replace(/^-/, '').split('.');
  const decimals = fraction.padEnd(2, '0');
  return `${pounds.startsWith('-') ? '-' : ''}£${formatCount(BigInt(whole))}.${decimals}`;
}

/** Basis points as a percentage: 2000 → '20 %', 2550 → '25.5 %'. */
export const formatRate = (bp: number) => `${formatCount(bp / 100)} %`;

/** A decimal rate string grouped by thousands ('80', '1234.5678' → '1,234.5678'). */
function formatDecimal(value: string): string {
  const [whole = '0', fraction] = value.split('.');
  return `${formatCount(BigInt(whole))}${fraction ? `.${fraction}` : ''}`;
}

/** A party's lines as printed: address (or that none was given), country, numbers and contacts. */
export function partyLines(party: TInvoiceParty): string[] {
  return [
    ...(party.address.length ? partyAddressLines(party) : ['Address not given']),
    ...(party.registrationNumber ? [`Company number: ${party.registrationNumber}`] : []),
    ...(party.vatNumber ? [`VAT number: ${party.vatNumber}`] : []),
    ...(party.website ? [party.website] : []),
    ...(party.telephone ? [`Telephone: ${party.telephone}`] : []),
    ...(party.email ? [party.email] : []),
  ];
}

const party = (heading: string, value: TInvoiceParty): PartyBlock => ({
  heading,
  name: value.companyName,
  lines: partyLines(value),
});

/** How a paid invoice was paid, in a sentence: 'in QNT', 'by card', 'by bank transfer'. */
const PAID_WITH: Record<NonNullable<TInvoice['paymentMethod']>, string> = {
  QNT: 'in QNT',
  FIAT: 'by card',
  BANK_TRANSFER: 'by bank transfer',
};

/**
 * The footer's first line, as the page says it: an open invoice's terms (when payment is due and
 * the reference to quote), a paid one's date and method, a void one that nothing is due.
 */
export function paymentLine(invoice: TInvoice): string {
  if (invoice.status === 'PAID') {
    const when = invoice.dateReceived ? ` on ${formatDate(invoice.dateReceived)}` : '';
    const how = invoice.paymentMethod ? ` ${PAID_WITH[invoice.paymentMethod]}` : '';
    return `Paid in full${when}${how}. Thank you.`;
  }
  if (invoice.status === 'VOID') return 'This invoice was withdrawn with its order: nothing is due.';
  return `Payment is due within ${invoice.termsDays} ${invoice.termsDays === 1 ? 'day' : 'days'} of the invoice date, by ${formatDate(invoice.dueDate)}. Quote the reference ${invoice.reference} with a bank transfer.`;
}

/** The invoice's document (PDF, CSV): its page's sections as formatted strings. */
export function invoiceDocument(invoice: TInvoice, bank: Config['billing']['bank']): InvoiceDocument {
  const period =
    invoice.periodStart && invoice.periodEnd
      ? `${formatDate(invoice.periodStart)} – ${formatDate(invoice.periodEnd)}`
      : null;
  const vatLabel =
    invoice.vatTreatment === 'REVERSE_CHARGE'
      ? 'VAT (reverse charge)'
      : invoice.vatTreatment === 'OUTSIDE_SCOPE'
        ? 'VAT (outside the scope)'
        : `VAT (${formatRate(invoice.vatRateBp)})`;
  return {
    title: `Invoice ${invoice.number}`,
    number: invoice.number,
    issuer: party('From', invoice.issuer),
    customer: party('Bill to', invoice.customer),
    header: [
      ['Invoice number', invoice.number],
      ['Invoice date', formatDate(invoice.date)],
      ['Reference', invoice.reference],
      ['Account number', invoice.accountNumber],
      ['Due date', formatDate(invoice.dueDate)],
      ['Terms', `${invoice.termsDays} ${invoice.termsDays === 1 ? 'day' : 'days'}`],
      ...(period ? ([['Period', period]] as Field[]) : []),
      ['Status', `${STATUS_WORDS[invoice.status]}${invoice.overdue ? ' (overdue)' : ''}`],
    ],
    lines: {
      columns: ['Description', 'Quantity', 'Unit price', 'VAT', 'Amount'],
      rows: invoice.lines.map((line) =>
        isExplanatoryLine(line)
          ? [line.description, formatCount(line.quantity), '—', '—', '—']
          : [
              line.description,
              formatCount(line.quantity),
              formatUnitPrice(line.unitPrice),
              `${formatPounds(line.vat)} (${formatRate(line.vatRateBp)})`,
              formatPounds(line.amount),
            ],
      ),
    },
    summary: [
      ['Subtotal', formatPounds(invoice.subtotal)],
      ['Total without VAT', formatPounds(invoice.totalWithoutVat)],
      [vatLabel, formatPounds(invoice.vat)],
      ['Total (GBP)', formatPounds(invoice.totalGbp)],
      ['Total (USD)', `${formatDollars(invoice.totalUsd)} at $${invoice.usdPerGbp} to the pound`],
      ['Payment received', formatPounds(invoice.paymentReceived)],
      ['Date received', invoice.dateReceived ? formatDate(invoice.dateReceived) : '—'],
      ['Amount due', formatPounds(invoice.amountDue)],
    ],
    vatNote: invoice.vatNote,
    qntHeading: invoice.status === 'PAID' && invoice.paymentMethod === 'QNT' ? 'Paid in QNT' : 'Paying in QNT',
    qnt: invoice.qnt
      ? [
          ['QNT amount', formatQnt(invoice.qnt.amountWei)],
          ['Exchange rate', `£${formatDecimal(invoice.qnt.gbpPerQnt)} per QNT`],
          ['Exchange date and time', formatDateTime(invoice.qnt.rateAt)],
        ]
      : null,
    creditNotes: invoice.creditNotes.length
      ? {
          columns: ['Credit note', 'Date', 'Reason', 'Amount'],
          rows: invoice.creditNotes.map((note) => [
            note.number,
            formatDate(note.createdAt),
            note.reason,
            formatPounds(note.amount),
          ]),
        }
      : null,
    bank:
      invoice.amountDue > 0
        ? [
            ['Account name', bank.accountName],
            ['Bank', bank.bankName],
            ['Sort code', bank.sortCode],
            ['Account number', bank.accountNumber],
            ['IBAN', bank.iban],
            ['BIC', bank.bic],
            ['Reference', invoice.reference],
          ]
        : null,
    footer: [
      paymentLine(invoice),
      [
        invoice.issuer.companyName,
        invoice.issuer.registrationNumber && `Company number ${invoice.issuer.registrationNumber}`,
        invoice.issuer.vatNumber && `VAT number ${invoice.issuer.vatNumber}`,
      ]
        .filter(Boolean)
        .join(' · '),
    ],
  };
}

export type ReceiptDocument = {
  title: string;
  number: string;
  issuer: PartyBlock;
  customer: PartyBlock;
  header: Field[];
  footer: string[];
};

const METHOD_WORDS: Record<string, string> = { QNT: 'QNT', FIAT: 'Card', BANK_TRANSFER: 'Bank transfer' };

/** A receipt's document: who received what, for which invoice, when and how. */
export function receiptDocument(receipt: TReceipt, invoice: TInvoice): ReceiptDocument {
  return {
    title: `Receipt ${receipt.number}`,
    number: receipt.number,
    issuer: party('From', invoice.issuer),
    customer: party('Received from', invoice.customer),
    header: [
      ['Receipt number', receipt.number],
      ['Receipt date', formatDate(receipt.createdAt)],
      ['Invoice number', receipt.invoiceNumber],
      ['Reference', invoice.reference],
      ['Amount received', formatPounds(receipt.amount)],
      ['Paid on', formatDate(receipt.paidAt)],
      ['Payment method', METHOD_WORDS[receipt.method] ?? receipt.method],
    ],
    footer: [`Thank you for your payment of invoice ${receipt.invoiceNumber}.`],
  };
}
