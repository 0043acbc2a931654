import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  INVOICE_SORT_FIELDS,
  ZInvoice,
  ZInvoiceListQuery,
  ZInvoicePage,
  ZInvoicePaymentRate,
  ZOrder,
  ZProblem,
} from '@connect/shared';
import { notFound } from '../../../lib/errors.ts';
import type { App, Deps } from '../../../types.ts';
import type { QntPayments } from '../qnt-payments.ts';
import { invoiceCsv } from './csv.ts';
import { invoiceDocument, receiptDocument } from './document.ts';
import { invoiceOrdersOf } from './orders-port.ts';
import { InvoicePayments } from './pay.ts';
import { InvoiceService } from './service.ts';
import { callerOf } from '../../../lib/caller.ts';

const problems = { '4xx': ZProblem, 503: ZProblem };
const docs = { tags: ['payment'], security: [{ bearerAuth: [] }] };
const ZInvoiceIdParams = z.object({ id: z.uuid({ message: 'The invoice id must be a UUID.' }) });

const pdfAnswer = {
  description: 'The PDF file (an attachment).',
  content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
};

/**
 * The PDF makers, loaded at the first download rather than at start: pdfkit and the font code it
 * loads cost a restart ~0.2 s (issue 30).
 */
const pdfMakers = async () => ({ ...(await import('./pdf.ts')), ...(await import('./receipt-pdf.ts')) });

const attachment = (reply: FastifyReply, type: string, filename: string, body: string | Buffer) =>
  reply.type(type).header('content-disposition', `attachment; filename="${filename}"`).send(body);

/**
 * The customer's invoices (spec §7, issue 18): the list, one invoice, its PDF and CSV, its
 * receipt's PDF, and paying it in QNT. Every route reads the caller's account only: another
 * account's invoice, a draft or an unknown id answers 404 INVOICE_NOT_FOUND.
 */
export async function invoiceRoutes(app: App, deps: Deps, qnt: QntPayments) {
  const invoices = new InvoiceService(deps.db, deps.config);
  const payments = new InvoicePayments(invoices, qnt, invoiceOrdersOf(deps));
  const { bank } = deps.config.billing;

  app.get(
    '/user/invoices',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The account’s invoices, one page',
        description: `Zero-based \`page\` (one beyond the last answers the last), \`size\` of 5, 10, 50 or 100, \`sort=field:direction\` with the field one of ${INVOICE_SORT_FIELDS.join(', ')} (empty or absent: invoiceNumber:desc; ties by id; empty values last), and an optional \`status\`. Drafts of the month’s close are never listed. The answer’s \`sort\` is the sort applied.`,
        querystring: ZInvoiceListQuery,
        response: { 200: ZInvoicePage, ...problems },
      },
    },
    async (request) => invoices.list(callerOf(request), request.query),
  );

  app.get(
    '/user/invoice/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'One invoice, as its page shows it (spec §3 Invoice)',
        description:
          'Issuer from the configuration; the customer as the invoice was numbered; lines with their VAT; totals in pounds and dollars; what was received and what is due; the QNT amount at its rate; credit notes and the receipt.',
        params: ZInvoiceIdParams,
        response: { 200: ZInvoice, ...problems },
      },
    },
    async (request) => invoices.invoice(callerOf(request), request.params.id),
  );

  app.get(
    '/user/invoice/payment-rate/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'What paying the invoice in QNT takes now',
        description:
          'Quotes what is due on the invoice’s order in QNT (again when the quote ran out) and answers it with the QNT the account holds. An order placed for card or bank transfer is switched to QNT. Only an OPEN invoice (else 409 INVOICE_NOT_PAYABLE); 503 QNT_PAYMENTS_UNAVAILABLE where QNT is not taken.',
        params: ZInvoiceIdParams,
        response: { 200: ZInvoicePaymentRate, ...problems },
      },
    },
    async (request) => payments.rate(callerOf(request), request.params.id),
  );

  app.post(
    '/user/invoice/:id/pay-qnt',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Pay the invoice in QNT',
        description:
          'Settles the invoice’s order at once from the QNT the account holds when that covers what is due (the invoice is then PAID); otherwise answers the order with its QNT quote and deposit address for the wallet’s transfer, which settles it once confirmed. A paid invoice answers its paid order.',
        params: ZInvoiceIdParams,
        response: { 200: ZOrder, ...problems },
      },
    },
    async (request) => payments.pay(callerOf(request), request.params.id),
  );

  app.get(
    '/:accountId/invoice/:invoiceId/pdf',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The invoice as a PDF file',
        description:
          'A4, made on request, saying what the invoice page says; named after its number (INV-000123.pdf). An account id other than the caller’s answers 404 INVOICE_NOT_FOUND.',
        params: z.object({
          accountId: z.uuid({ message: 'The account id must be a UUID.' }),
          invoiceId: z.uuid({ message: 'The invoice id must be a UUID.' }),
        }),
        response: { 200: pdfAnswer, ...problems },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (request.params.accountId !== caller.accountId) throw notFound('INVOICE_NOT_FOUND');
      return invoicePdfAnswer(reply, caller.accountId, request.params.invoiceId);
    },
  );

  app.get(
    '/management/accounts/:accountId/invoices/:invoiceId/pdf',
    {
      // The account panel of /account-management links the account's invoices (issue 33 §1).
      config: { access: { groups: ['management-sales' as const] } },
      schema: {
        ...docs,
        summary: 'An account’s invoice as a PDF file (sales)',
        description:
          'The same document the customer downloads, for staff from the account panel. An invoice of another account, or a draft, answers 404 INVOICE_NOT_FOUND.',
        params: z.object({ accountId: z.uuid(), invoiceId: z.uuid() }),
        response: { 200: pdfAnswer, ...problems },
      },
    },
    async (request, reply) => invoicePdfAnswer(reply, request.params.accountId, request.params.invoiceId),
  );

  /** The invoice's PDF as an attachment, for the account it belongs to (INVOICE_NOT_FOUND otherwise). */
  async function invoicePdfAnswer(reply: FastifyReply, accountId: string, invoiceId: string) {
    const invoice = await invoices.invoice({ accountId }, invoiceId);
    const { invoicePdf } = await pdfMakers();
    const pdf = await invoicePdf(invoiceDocument(invoice, bank), new Date(invoice.date));
    return attachment(reply, 'application/pdf', `${invoice.number}.pdf`, pdf);
  }

  app.get(
    '/user/invoice/:id/csv',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The invoice as a CSV file',
        description:
          'The invoice’s fields as Field,Value rows, then its lines (Description, Quantity, Unit price, VAT rate, VAT, Amount); amounts as plain numbers in pounds. UTF-8 with a byte-order mark; text a spreadsheet would read as a formula starts with an apostrophe.',
        params: ZInvoiceIdParams,
        response: {
          200: { description: 'The CSV file (an attachment).', content: { 'text/csv': { schema: z.string() } } },
          ...problems,
        },
      },
    },
    async (request, reply) => {
      const invoice = await invoices.invoice(callerOf(request), request.params.id);
      return attachment(reply, 'text/csv; charset=utf-8', `${invoice.number}.csv`, invoiceCsv(invoice, bank));
    },
  );

  app.get(
    '/user/invoice/:id/receipt.pdf',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The receipt of a paid invoice as a PDF file',
        description:
          'Named after the receipt’s number (RCT-000042.pdf). An invoice without a receipt (POST /api/connect/user/invoice/create-receipt makes it) answers 404 INVOICE_NOT_FOUND.',
        params: ZInvoiceIdParams,
        response: { 200: pdfAnswer, ...problems },
      },
    },
    async (request, reply) => {
      const invoice = await invoices.invoice(callerOf(request), request.params.id);
      if (!invoice.receipt) throw notFound('INVOICE_NOT_FOUND', 'This invoice has no receipt yet.');
      const { receiptPdf } = await pdfMakers();
      const pdf = await receiptPdf(receiptDocument(invoice.receipt, invoice), new Date(invoice.receipt.createdAt));
      return attachment(reply, 'application/pdf', `${invoice.receipt.number}.pdf`, pdf);
    },
  );
}
