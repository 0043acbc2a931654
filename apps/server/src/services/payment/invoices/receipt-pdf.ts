import type { ReceiptDocument } from './document.ts';
import { fieldsBlock, newPdf, paragraph, partiesBlock, pdfBytes, titleBlock } from './pdf.ts';

/** A receipt's PDF, in the invoice's layout: parties, what was received for which invoice, a thank-you. Dated when it was made. */
export function receiptPdf(document: ReceiptDocument, createdAt: Date): Promise<Buffer> {
  const doc = newPdf(document.title, createdAt, document.issuer.name);
  titleBlock(doc, 'Receipt', document.number);
  partiesBlock(doc, document.issuer, document.customer);
  fieldsBlock(doc, document.header);
  for (const line of document.footer) paragraph(doc, line);
  return pdfBytes(doc);
}
