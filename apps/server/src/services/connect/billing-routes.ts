import {
  ZBillingDetails,
  ZBillingDetailsRequest,
  ZBillingDetailsResponse,
  ZCreateReceiptRequest,
  ZProblem,
  ZReceipt,
} from '@connect/shared';
import { createVatRegister } from '../../adapters/vat/create.ts';
import type { App, Deps } from '../../types.ts';
import { BillingService } from './billing-service.ts';
import { callerOf } from '../../lib/caller.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };

/** Billing details (who invoices are made out to) and receipts of paid invoices (issue 18). */
export async function billingRoutes(app: App, deps: Deps) {
  const service = new BillingService(deps.db, deps.events, createVatRegister(deps.config));

  app.get(
    '/user/billing-details',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Who the account’s invoices are made out to',
        description: '`details` is null until they are first saved (invoices then name the account’s organisation).',
        response: { 200: ZBillingDetailsResponse, ...problems },
      },
    },
    async (request) => service.details(callerOf(request)),
  );

  app.put(
    '/user/billing-details',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Save who the account’s invoices are made out to',
        description:
          'The VAT number is checked against the VAT register (VIES, or the embedded sandbox): one the register does not know answers 422 VAT_NUMBER_INVALID; one it could not be asked about is saved UNCHECKED; none is NONE. Invoices numbered from now on name these details; earlier ones keep theirs.',
        body: ZBillingDetailsRequest,
        response: { 200: ZBillingDetails, ...problems },
      },
    },
    async (request) => service.saveDetails(callerOf(request), request.body),
  );

  app.post(
    '/user/invoice/create-receipt',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The receipt of a paid invoice',
        description:
          'Made and numbered (RCT-) the first time, and emailed; the same receipt after. An invoice not paid yet answers 409 INVOICE_NOT_PAID; another account’s 404 INVOICE_NOT_FOUND. Its PDF: GET /api/payment/user/invoice/{id}/receipt.pdf.',
        body: ZCreateReceiptRequest,
        response: { 200: ZReceipt, ...problems },
      },
    },
    async (request) => service.createReceipt(callerOf(request), request.body.invoiceId),
  );
}
