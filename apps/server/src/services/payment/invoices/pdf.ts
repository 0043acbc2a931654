import PDFDocument from 'pdfkit';
import type { Field, InvoiceDocument, PartyBlock } from './document.ts';

/*
 * The invoice's PDF (pdfkit): A4, the standard Helvetica (its WinAnsi encoding has £, €, – and
 * the typographic quotes), the page's sections in the page's order. Made on request from the view
 * model (document.ts), never stored. Its metadata is fixed by the invoice (title = the number,
 * creation date = when it was numbered), so the same invoice gives the same document.
 */

const MARGIN = 50;
const PAGE_WIDTH = 595.28;
const WIDTH = PAGE_WIDTH - 2 * MARGIN;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

export type Pdf = PDFKit.PDFDocument;

/** A new A4 document with fixed metadata. */
export function newPdf(title: string, createdAt: Date, issuer: string): Pdf {
  return new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: false,
    info: {
      Title: title,
      Author: issuer,
      Creator: 'Connect',
      Producer: 'Connect',
      CreationDate: createdAt,
      ModDate: createdAt,
    },
    lang: 'en-GB',
    displayTitle: true,
  });
}

/** The finished document's bytes. */
export function pdfBytes(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** The document's title line and, on the right, its number. */
export function titleBlock(doc: Pdf, title: string, number: string): void {
  const y = doc.y;
  doc
    .font(BOLD)
    .fontSize(20)
    .text(title, MARGIN, y, { width: WIDTH / 2 });
  doc
    .font(FONT)
    .fontSize(12)
    .text(number, MARGIN + WIDTH / 2, y + 6, { width: WIDTH / 2, align: 'right' });
  doc.moveDown(1.5);
}

/** Two parties side by side: the issuer on the left, the customer on the right. */
export function partiesBlock(doc: Pdf, left: PartyBlock, right: PartyBlock): void {
  const top = doc.y;
  const column = (block: PartyBlock, x: number) => {
    doc
      .font(BOLD)
      .fontSize(9)
      .fillColor('#555555')
      .text(block.heading.toUpperCase(), x, top, { width: WIDTH / 2 - 10 });
    doc
      .fillColor('black')
      .font(BOLD)
      .fontSize(11)
      .text(block.name, { width: WIDTH / 2 - 10 });
    doc.font(FONT).fontSize(9);
    for (const line of block.lines) doc.text(line, { width: WIDTH / 2 - 10 });
    return doc.y;
  };
  const leftEnd = column(left, MARGIN);
  const rightEnd = column(right, MARGIN + WIDTH / 2 + 10);
  doc.x = MARGIN;
  doc.y = Math.max(leftEnd, rightEnd) + 16;
}

/** Label–value pairs, one a line, the label in bold; `x`/`width` place the block. */
export function fieldsBlock(doc: Pdf, fields: readonly Field[], x = MARGIN, width = WIDTH): void {
  const labelWidth = Math.min(150, width / 2);
  for (const [label, value] of fields) {
    ensureRoom(doc, 14);
    const y = doc.y;
    doc
      .font(BOLD)
      .fontSize(9)
      .text(label, x, y, { width: labelWidth - 6 });
    const labelEnd = doc.y;
    doc
      .font(FONT)
      .fontSize(9)
      .text(value, x + labelWidth, y, { width: width - labelWidth });
    doc.y = Math.max(labelEnd, doc.y) + 2;
  }
  doc.x = MARGIN;
  doc.moveDown(0.6);
}

/** A section's heading. */
export function heading(doc: Pdf, text: string): void {
  ensureRoom(doc, 40);
  doc.font(BOLD).fontSize(11).text(text, MARGIN, doc.y, { width: WIDTH });
  doc.moveDown(0.3);
}

/** Plain text across the page. */
export function paragraph(doc: Pdf, text: string, size = 9): void {
  ensureRoom(doc, 24);
  doc.font(FONT).fontSize(size).text(text, MARGIN, doc.y, { width: WIDTH });
  doc.moveDown(0.5);
}

/** A table: its header row in bold, then its rows; the first column is text, the others right-aligned. */
export function table(
  doc: Pdf,
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  widths: readonly number[],
): void {
  const total = widths.reduce((sum, w) => sum + w, 0);
  const scaled = widths.map((w) => (w / total) * WIDTH);
  const row = (cells: readonly string[], font: string) => {
    ensureRoom(doc, 18);
    const y = doc.y;
    let x = MARGIN;
    let bottom = y;
    cells.forEach((cell, index) => {
      doc
        .font(font)
        .fontSize(9)
        .text(cell, x + 2, y, { width: scaled[index]! - 4, align: index === 0 ? 'left' : 'right' });
      bottom = Math.max(bottom, doc.y);
      x += scaled[index]!;
    });
    doc.y = bottom + 3;
    doc.x = MARGIN;
  };
  row(columns, BOLD);
  doc
    .moveTo(MARGIN, doc.y - 1)
    .lineTo(MARGIN + WIDTH, doc.y - 1)
    .lineWidth(0.5)
    .stroke();
  for (const cells of rows) row(cells, FONT);
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + WIDTH, doc.y)
    .lineWidth(0.5)
    .stroke();
  doc.moveDown(0.6);
}

/** A new page when less than `height` points are left on this one. */
function ensureRoom(doc: Pdf, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

/** The invoice's PDF: parties, header, lines, summary, VAT note, QNT, credit notes, bank details, footer. */
export async function invoicePdf(document: InvoiceDocument, createdAt: Date): Promise<Buffer> {
  const doc = newPdf(document.title, createdAt, document.issuer.name);
  titleBlock(doc, 'Invoice', document.number);
  partiesBlock(doc, document.issuer, document.customer);
  fieldsBlock(doc, document.header);
  heading(doc, 'Lines');
  table(doc, document.lines.columns, document.lines.rows, [46, 10, 14, 16, 14]);
  heading(doc, 'Summary');
  fieldsBlock(doc, document.summary, MARGIN + WIDTH / 2, WIDTH / 2);
  if (document.vatNote) paragraph(doc, document.vatNote, 10);
  if (document.qnt) {
    heading(doc, document.qntHeading);
    fieldsBlock(doc, document.qnt);
  }
  if (document.creditNotes) {
    heading(doc, 'Credit notes');
    table(doc, document.creditNotes.columns, document.creditNotes.rows, [18, 14, 50, 18]);
  }
  if (document.bank) {
    heading(doc, 'Paying by bank transfer');
    fieldsBlock(doc, document.bank);
  }
  for (const line of document.footer) paragraph(doc, line, 8);
  return pdfBytes(doc);
}
