import type { TInvoice } from '@connect/shared';
import { toCsv, type CsvCell } from '../../../lib/csv.ts';
import { invoiceDocument } from './document.ts';
import type { Config } from '../../../config.ts';

/** Pence as pounds, a plain number for a spreadsheet's sums: 123456 → 1234.56. */
const pounds = (pence: number) => Number((pence / 100).toFixed(2));

/**
 * The invoice as CSV (lib/csv.ts: RFC 4180, CRLF, BOM, spreadsheet-safe text): the header fields
 * of the page, the customer and the summary as `Field,Value` rows, a blank row, then the lines.
 * Amounts are plain numbers in pounds (no symbol, no grouping) so a spreadsheet can add them up;
 * the words are the page's (document.ts).
 */
export function invoiceCsv(invoice: TInvoice, bank: Config['billing']['bank']): string {
  const document = invoiceDocument(invoice, bank);
  const rows: CsvCell[][] = [
    ...document.header.map(([label, value]) => [label, value]),
    ['Customer', invoice.customer.companyName],
    ['Customer address', invoice.customer.address.join(', ')],
    ['Customer country', invoice.customer.country],
    ['Customer registration number', invoice.customer.registrationNumber],
    ['Customer VAT number', invoice.customer.vatNumber],
    ['Issuer', invoice.issuer.companyName],
    ['Issuer VAT number', invoice.issuer.vatNumber],
    ['Currency', invoice.currency],
    ['Subtotal (GBP)', pounds(invoice.subtotal)],
    ['Total without VAT (GBP)', pounds(invoice.totalWithoutVat)],
    ['VAT (GBP)', pounds(invoice.vat)],
    ['VAT treatment', invoice.vatTreatment],
    ['VAT rate (%)', invoice.vatRateBp / 100],
    ['Total (GBP)', pounds(invoice.totalGbp)],
    ['Total (USD)', pounds(invoice.totalUsd)],
    ['USD per GBP', invoice.usdPerGbp],
    ['Payment received (GBP)', pounds(invoice.paymentReceived)],
    ['Date received', document.summary.find(([label]) => label === 'Date received')?.[1] ?? null],
    ['Amount due (GBP)', pounds(invoice.amountDue)],
    ...(invoice.vatNote ? [['VAT note', invoice.vatNote]] : []),
    ...(invoice.qnt
      ? [
          ['QNT amount (wei)', invoice.qnt.amountWei],
          ['GBP per QNT', invoice.qnt.gbpPerQnt],
          ...(document.qnt ? [['QNT rate time', document.qnt[2]![1]]] : []),
        ]
      : []),
    ...invoice.creditNotes.map((note) => [`Credit note ${note.number}`, pounds(note.amount)]),
    [],
    ['Description', 'Quantity', 'Unit price (GBP)', 'VAT rate (%)', 'VAT (GBP)', 'Amount (GBP)'],
    ...invoice.lines.map((line) => [
      line.description,
      line.quantity,
      Number(line.unitPrice),
      line.vatRateBp / 100,
      pounds(line.vat),
      pounds(line.amount),
    ]),
  ];
  return toCsv(['Field', 'Value'], rows);
}
