import type { Database } from '@connect/db';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { EventBus } from '../../events/port.ts';
import { formatDate, formatPounds } from '../../lib/formats.ts';
import { accountRecipients } from '../../repositories/account-recipients.ts';
import { BillingRepository } from './billing-repository.ts';

/** The subscribers' names: deliveries are recorded under them, so they never change. */
export const INVOICE_FINALISED_MAIL_SUBSCRIBER = 'connect.invoice-finalised-emails';
export const RECEIPT_MAIL_SUBSCRIBER = 'connect.receipt-emails';

/** The portal's invoice page (apps/web/src/config/paths.ts). */
export const invoicePage = (invoiceId: string) => `/invoices/my-invoices/${invoiceId}`;

const METHOD_WORDS: Record<string, string> = { QNT: 'in QNT', FIAT: 'by card', BANK_TRANSFER: 'by bank transfer' };

/**
 * The invoices' emails (issue 18): a month's invoice numbered (`invoice.finalised`) is mailed to
 * every active member of the account; a receipt made (`invoice.receipt_created`) to the member who
 * asked for it (else every member). Each is keyed by its invoice or receipt and the recipient, so
 * a redelivered event, or a second node, mails nothing more. The mailer takes no attachments: the
 * mail links to the invoice page, where the PDFs are.
 */
export function subscribeInvoiceMails(
  events: EventBus,
  deps: { db: Database; mailer: Mailer; publicUrl: string },
): void {
  events.subscribeEffect(INVOICE_FINALISED_MAIL_SUBSCRIBER, 'invoice.finalised', async (event) => {
    const { accountId, invoiceId, number, totalGbpMinor, dueAt } = event.payload;
    for (const recipient of await accountRecipients(deps.db, accountId, null)) {
      await deps.mailer.send({
        to: recipient.email,
        kind: 'NOTIFICATION',
        subject: `Invoice ${number}: ${formatPounds(totalGbpMinor)} due by ${formatDate(dueAt)}`,
        text: [
          `Your invoice ${number} for last month’s use is ready.`,
          '',
          `Total: ${formatPounds(totalGbpMinor)}`,
          `Due by: ${formatDate(dueAt)}`,
          '',
          `See it, download it as a PDF or CSV, and pay it in the portal: ${deps.publicUrl}${invoicePage(invoiceId)}`,
        ].join('\n'),
        dedupeKey: `invoice-finalised:${invoiceId}:${recipient.id}`,
      });
    }
  });

  events.subscribeEffect(RECEIPT_MAIL_SUBSCRIBER, 'invoice.receipt_created', async (event) => {
    const receipt = await new BillingRepository(deps.db).receipt(event.payload.receiptId);
    if (!receipt) return; // the account was deleted since
    for (const recipient of await accountRecipients(deps.db, receipt.accountId, event.payload.userId)) {
      await deps.mailer.send({
        to: recipient.email,
        kind: 'NOTIFICATION',
        subject: `Receipt ${receipt.number} for invoice ${receipt.invoiceNumber}`,
        text: [
          [
            `We received ${formatPounds(receipt.amountGbpMinor)}`,
            METHOD_WORDS[receipt.method],
            `on ${formatDate(receipt.paidAt)} for invoice ${receipt.invoiceNumber}. Thank you.`,
          ]
            .filter(Boolean)
            .join(' '),
          '',
          `Your receipt ${receipt.number} is on the invoice’s page, to download as a PDF: ${deps.publicUrl}${invoicePage(receipt.invoiceId)}`,
        ].join('\n'),
        dedupeKey: `receipt:${receipt.id}:${recipient.id}`,
      });
    }
  });
}
