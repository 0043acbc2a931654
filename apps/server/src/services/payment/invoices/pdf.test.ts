import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '@connect/db';
import { REVERSE_CHARGE_LEGEND } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../../test/helpers.ts';
import { administrator, post } from '../../account-plan/test-support.ts';
import { formatDate, formatPounds } from '../../../lib/formats.ts';
import { invoiceDocument } from './document.ts';
import { invoicePdf } from './pdf.ts';
import { pdfText } from './pdf-text.ts';
import { creditsOrder, get, invoiceOf, paidPlanCustomer, type Session } from './test-support.ts';

describe('the invoice PDF', () => {
  let t: TestContext;
  let user: Session;
  beforeAll(async () => {
    t = await createTestApp();
    ({ user } = await paidPlanCustomer(t, await administrator(t)));
  });
  afterAll(() => t?.close());

  /** Whitespace aside: the PDF wraps long words (an email address) at its column's edge. */
  const squash = (text: string) => text.replace(/\s+/g, '');
  const expectAll = (text: string, expected: string[]) => {
    for (const part of expected) expect(squash(text), part).toContain(squash(part));
  };

  async function textOf(invoiceId: string) {
    const res = await get(t, `/${user.accountId}/invoice/${invoiceId}/pdf`, user);
    expect(res.statusCode, res.body).toBe(200);
    const { pages, title } = await pdfText(res.rawPayload);
    return { text: pages.join('\n'), pages, title, bytes: res.rawPayload };
  }

  it('says what the invoice page says: number, parties, lines, totals, payment', async () => {
    const order = await creditsOrder(t, user, 5_000);
    const invoice = await invoiceOf(t, user, order.invoiceId);
    const { text, title, pages } = await textOf(invoice.id);
    expect(title).toBe(`Invoice ${invoice.number}`);
    expect(pages.length).toBe(1);
    expectAll(text, [
      invoice.number,
      invoice.reference,
      invoice.issuer.companyName,
      invoice.customer.companyName,
      'Address not given',
      formatDate(invoice.date),
      formatDate(invoice.dueDate),
      'Credit bundle — 5,000 credits',
      formatPounds(invoice.subtotal),
      formatPounds(invoice.totalGbp),
      'Amount due',
      'Paying by bank transfer',
      t.app.deps.config.billing.bank.sortCode,
    ]);
  });

  it('prints VAT, the reverse-charge note, the QNT amount at its rate and time, and credit notes', async () => {
    const order = await creditsOrder(t, user, 1_000);
    const rateAt = new Date('2026-03-07T14:05:00Z');
    await t.db.db
      .update(invoices)
      .set({
        vatTreatment: 'REVERSE_CHARGE',
        qntAmountWei: 1_234_500_000_000_000_000_000n,
        gbpPerQnt: '80.25',
        qntRateAt: rateAt,
        customer: {
          companyName: 'Müller & Söhne GmbH',
          address: ['Hauptstraße 1', '10115 Berlin'],
          country: 'DE',
          registrationNumber: 'HRB 12345',
          vatNumber: 'DE123456789',
          website: null,
          telephone: null,
          email: 'billing@example.de',
        },
      })
      .where(eq(invoices.id, order.invoiceId));
    const { text } = await textOf(order.invoiceId);
    expectAll(text, [
      'Müller & Söhne GmbH',
      'Hauptstraße 1',
      'VAT number: DE123456789',
      'Germany',
      'VAT (reverse charge)',
      REVERSE_CHARGE_LEGEND,
      '1,234.5 QNT',
      '£80.25 per QNT',
      '07.03.2026 14:05 GMT',
    ]);
    expect(text).not.toContain('Credit notes');
    // A refund's credit note (made by a card refund) has its own section.
    const invoice = await invoiceOf(t, user, order.invoiceId);
    const note = {
      id: order.id,
      number: 'CN-000007',
      amount: 123_456,
      reason: 'Refund of the bundle',
      createdAt: invoice.date,
    };
    const withNote = await pdfText(
      await invoicePdf(
        invoiceDocument({ ...invoice, creditNotes: [note] }, t.app.deps.config.billing.bank),
        new Date(),
      ),
    );
    expectAll(withNote.pages.join('\n'), ['Credit notes', 'CN-000007', 'Refund of the bundle', '£1,234.56']);
  });

  it('a paid invoice says when and how it was paid, not when payment is due; a void one that nothing is due', async () => {
    const [paid] = (await get(t, '/user/invoices?status=PAID', user)).json().content;
    const invoice = await invoiceOf(t, user, paid.id);
    expect(invoice.status).toBe('PAID');
    const { text } = await textOf(invoice.id);
    expectAll(text, [`Paid in full on ${formatDate(invoice.dateReceived!)} by bank transfer. Thank you.`]);
    expect(text).not.toContain('Payment is due');
    expect(text).not.toContain('Paying by bank transfer');

    const withdrawn = await creditsOrder(t, user, 1_000);
    expect((await post(t, `/order/${withdrawn.id}/cancel`, user)).statusCode).toBe(200);
    const voided = await textOf(withdrawn.invoiceId);
    expectAll(voided.text, ['This invoice was withdrawn with its order: nothing is due.']);
    expect(voided.text).not.toContain('Payment is due');

    // Paid in QNT or by card, it says so; an open invoice still gives its terms.
    const bank = t.app.deps.config.billing.bank;
    const inQnt = invoiceDocument({ ...invoice, paymentMethod: 'QNT' }, bank);
    expect(inQnt.footer[0]).toBe(`Paid in full on ${formatDate(invoice.dateReceived!)} in QNT. Thank you.`);
    const byCard = invoiceDocument({ ...invoice, paymentMethod: 'FIAT' }, bank);
    expect(byCard.footer[0]).toBe(`Paid in full on ${formatDate(invoice.dateReceived!)} by card. Thank you.`);
    const open = await creditsOrder(t, user, 1_000);
    expectAll((await textOf(open.invoiceId)).text, ['Payment is due within 14 days']);
  });

  it('prints a dash, not £0.00, in the money columns of a line that only explains the bill', async () => {
    const order = await creditsOrder(t, user, 1_000);
    const invoice = await invoiceOf(t, user, order.invoiceId);
    const calls = { description: 'Gateway calls — read (17 calls)', quantity: 17, unitPrice: '0', vatRateBp: 0 };
    const document = invoiceDocument(
      { ...invoice, lines: [{ ...calls, vat: 0, amount: 0 }, ...invoice.lines] },
      t.app.deps.config.billing.bank,
    );
    expect(document.lines.rows[0]).toEqual(['Gateway calls — read (17 calls)', '17', '—', '—', '—']);
    expect(document.lines.rows[1]).toContain(formatPounds(invoice.lines[0]!.amount));
    const { pages } = await pdfText(await invoicePdf(document, new Date()));
    expectAll(pages.join('\n'), ['Gateway calls — read (17 calls) 17 — — —']);
  });

  it('is the same document each time it is made (its metadata is the invoice’s)', async () => {
    const order = await creditsOrder(t, user, 1_000);
    const [a, b] = [await textOf(order.invoiceId), await textOf(order.invoiceId)];
    expect(Buffer.compare(a.bytes, b.bytes)).toBe(0);
  });

  it('prints a receipt with its number, the invoice’s and the amount', async () => {
    const paid = (
      await t.app.inject({ method: 'GET', url: '/api/payment/user/invoices?status=PAID', headers: user.headers })
    ).json().content[0];
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/connect/user/invoice/create-receipt',
      headers: user.headers,
      payload: { invoiceId: paid.id },
    });
    expect(made.statusCode, made.body).toBe(200);
    const res = await get(t, `/user/invoice/${paid.id}/receipt.pdf`, user);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${made.json().number}.pdf"`);
    const { pages, title } = await pdfText(res.rawPayload);
    expect(title).toBe(`Receipt ${made.json().number}`);
    expectAll(pages.join('\n'), [made.json().number, paid.invoiceNumber, formatPounds(paid.total), 'Bank transfer']);
  });
});
