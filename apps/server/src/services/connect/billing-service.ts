import type { Database } from '@connect/db';
import type { TBillingDetails, TReceipt } from '@connect/shared';
import type { ZBillingDetailsRequest } from '@connect/shared';
import type { z } from 'zod';
import type { VatRegister } from '../../adapters/vat/create.ts';
import type { EventBus } from '../../events/port.ts';
import { fieldProblem, notFound, problem } from '../../lib/errors.ts';
import { BillingRepository, type BillingDetailsRow } from './billing-repository.ts';
import { presentReceipt } from '../../lib/receipts.ts';

export type BillingCaller = { id: string; accountId: string };
type BillingDetailsInput = z.output<typeof ZBillingDetailsRequest>;

const iso = (value: Date | string) => new Date(value).toISOString();

function detailsOf(row: BillingDetailsRow): TBillingDetails {
  return {
    companyName: row.companyName,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    city: row.city,
    postcode: row.postcode,
    country: row.country,
    registrationNumber: row.registrationNumber,
    vatNumber: row.vatNumber,
    vatNumberStatus: row.vatNumberStatus,
    website: row.website,
    telephone: row.telephone,
    email: row.email,
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * Billing details and receipts (connect service, issue 18). A VAT number is checked against the
 * VAT register when the details are saved: one the register does not know is refused
 * (VAT_NUMBER_INVALID), one it could not be asked about is kept UNCHECKED (no reverse charge until
 * a later save finds it VALID). A paid invoice gets one receipt, numbered RCT when it is made.
 */
export class BillingService {
  private readonly repo: BillingRepository;

  constructor(
    db: Database,
    private readonly events: EventBus,
    private readonly vat: VatRegister,
  ) {
    this.repo = new BillingRepository(db);
  }

  /** GET /user/billing-details. */
  async details(caller: BillingCaller): Promise<{ details: TBillingDetails | null }> {
    const row = await this.repo.details(caller.accountId);
    return { details: row ? detailsOf(row) : null };
  }

  /** PUT /user/billing-details: replaces the account's details, its VAT number checked now. */
  async saveDetails(caller: BillingCaller, body: BillingDetailsInput): Promise<TBillingDetails> {
    let status: 'NONE' | 'VALID' | 'UNCHECKED' = 'NONE';
    if (body.vatNumber) {
      const result = await this.vat.check(body.vatNumber);
      if (result === 'INVALID') throw fieldProblem('VAT_NUMBER_INVALID', 'vatNumber');
      status = result === 'VALID' ? 'VALID' : 'UNCHECKED';
    }
    const row = await this.repo.saveDetails(caller.accountId, {
      companyName: body.companyName,
      addressLine1: body.addressLine1,
      addressLine2: body.addressLine2,
      city: body.city,
      postcode: body.postcode,
      country: body.country,
      registrationNumber: body.registrationNumber,
      vatNumber: body.vatNumber,
      vatNumberStatus: status,
      vatCheckedAt: body.vatNumber ? new Date() : null,
      website: body.website,
      telephone: body.telephone,
      email: body.email,
    });
    return detailsOf(row);
  }

  /**
   * POST /user/invoice/create-receipt: the receipt of the caller's paid invoice, made and numbered
   * the first time (announced as `invoice.receipt_created`, which mails it), the same one after.
   */
  async createReceipt(caller: BillingCaller, invoiceId: string): Promise<TReceipt> {
    return this.repo.transaction(async (repo, tx) => {
      // The invoice's lock makes two requests at once one after the other: one receipt, one number.
      const invoice = await repo.lockInvoice(caller.accountId, invoiceId);
      if (!invoice) throw notFound('INVOICE_NOT_FOUND');
      const number = invoice.number!;
      const existing = await repo.receiptOf(invoice.id);
      if (existing) return presentReceipt(existing, number);
      if (invoice.status !== 'PAID') throw problem('INVOICE_NOT_PAID');
      const method = (invoice.orderId ? await repo.paymentMethodOf(invoice.orderId) : null) ?? 'BANK_TRANSFER';
      const receipt = await repo.insertReceipt({
        invoiceId: invoice.id,
        accountId: invoice.accountId,
        amountGbpMinor: invoice.amountPaidMinor,
        method,
        paidAt: invoice.paidAt ?? invoice.updatedAt,
        createdBy: caller.id,
      });
      await this.events.emit(tx, 'invoice.receipt_created', {
        accountId: invoice.accountId,
        invoiceId: invoice.id,
        receiptId: receipt.id,
        number: receipt.number,
        userId: caller.id,
      });
      return presentReceipt(receipt, number);
    });
  }
}
