import type { receipts } from '@connect/db';
import type { TReceipt } from '@connect/shared';

/** A receipt as stored (connect makes it, payment shows it with its invoice). */
export type ReceiptRow = typeof receipts.$inferSelect;

/** A receipt as the API answers it (ZReceipt), with its invoice's number. */
export function presentReceipt(row: ReceiptRow, invoiceNumber: string): TReceipt {
  return {
    id: row.id,
    number: row.number,
    invoiceId: row.invoiceId,
    invoiceNumber,
    amount: row.amountGbpMinor,
    currency: 'GBP',
    method: row.method,
    paidAt: new Date(row.paidAt).toISOString(),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
