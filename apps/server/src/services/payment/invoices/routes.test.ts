import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '@connect/db';
import { INVOICE_SORT_FIELDS, ZInvoicePage, type TInvoicePage, type TInvoiceRow } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../../test/helpers.ts';
import { administrator, customer, post } from '../../account-plan/test-support.ts';
import { creditsOrder, get, invoiceOf, paidPlanCustomer, type Session } from './test-support.ts';

describe('the invoice API', () => {
  let t: TestContext;
  let user: Session;
  let other: Session;
  let all: TInvoiceRow[];
  let draftId: string;
  let voidId: string;
  let otherInvoiceId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const staff = await administrator(t);
    ({ user } = await paidPlanCustomer(t, staff));
    for (const credits of [1_000, 5_000, 10_000]) await creditsOrder(t, user, credits);
    // A withdrawn order's invoice is VOID (it keeps its number).
    const withdrawn = await creditsOrder(t, user, 1_000);
    expect((await post(t, `/order/${withdrawn.id}/cancel`, user)).statusCode).toBe(200);
    voidId = withdrawn.invoiceId;
    // A month's draft during its grace window: never shown.
    const [draft] = await t.db.db
      .insert(invoices)
      .values({
        accountId: user.accountId,
        kind: 'MONTHLY',
        status: 'DRAFT',
        subtotalMinor: 999_999,
        totalMinor: 999_999,
        periodStart: new Date('2026-01-01T00:00:00Z'),
        periodEnd: new Date('2026-02-01T00:00:00Z'),
        dueAt: new Date('2026-02-15T00:00:00Z'),
      })
      .returning({ id: invoices.id });
    draftId = draft!.id;
    ({ user: other } = await paidPlanCustomer(t, staff));
    otherInvoiceId = (await list(other)).content[0]!.id;
    all = (await list(user, '?size=100')).content;
  });
  afterAll(() => t?.close());

  async function list(session: Session, query = ''): Promise<TInvoicePage> {
    const res = await get(t, `/user/invoices${query}`, session);
    expect(res.statusCode, res.body).toBe(200);
    return ZInvoicePage.parse(res.json());
  }

  it('lists the account’s numbered invoices, newest number first, drafts hidden', async () => {
    const page = await list(user);
    expect(page.sort).toBe('invoiceNumber:desc');
    expect(page.totalElements).toBe(5);
    expect(page.content.map((row) => row.id)).not.toContain(draftId);
    const numbers = page.content.map((row) => row.invoiceNumber);
    expect(numbers).toEqual([...numbers].sort().reverse());
    expect(numbers.every((n) => /^INV-\d{6}$/.test(n))).toBe(true);
    expect(page.content.map((row) => row.status).sort()).toEqual(['OPEN', 'OPEN', 'OPEN', 'PAID', 'VOID']);
    expect(page.content.find((row) => row.id === voidId)?.status).toBe('VOID');
    expect(page.content.every((row) => row.currency === 'GBP' && !row.overdue && row.credited === 0)).toBe(true);
    // An empty sort is the default too.
    expect((await list(user, '?sort=')).sort).toBe('invoiceNumber:desc');
  });

  /** The order a sort must give: by the field's value, nulls last, ties by id. */
  function expected(field: (typeof INVOICE_SORT_FIELDS)[number], direction: 'asc' | 'desc'): string[] {
    const value = (row: TInvoiceRow): string | number | null =>
      ({
        invoiceNumber: Number(row.invoiceNumber.slice(4)),
        startDate: row.startDate,
        endDate: row.endDate,
        subtotal: row.subtotal,
        status: row.status,
      })[field];
    return [...all]
      .sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        if (x === null || y === null) return x === y ? a.id.localeCompare(b.id) : x === null ? 1 : -1;
        const order = x < y ? -1 : x > y ? 1 : 0;
        return (direction === 'asc' ? order : -order) || a.id.localeCompare(b.id);
      })
      .map((row) => row.id);
  }

  it('sorts by each field both ways (nulls last, ties by id) and answers the sort applied', async () => {
    for (const field of INVOICE_SORT_FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        const page = await list(user, `?size=100&sort=${field}:${direction}`);
        expect(page.sort).toBe(`${field}:${direction}`);
        expect(
          page.content.map((row) => row.id),
          `${field}:${direction}`,
        ).toEqual(expected(field, direction));
      }
    }
  });

  it('ties (equal sort values) come in id order, the same on every read and across pages', async () => {
    const { user: buyer } = await paidPlanCustomer(t, await administrator(t));
    // Seven invoices of one amount, all open: every sort but the number's is a tie among them.
    for (let i = 0; i < 7; i++) await creditsOrder(t, buyer, 1_000);
    const ties = (await list(buyer, '?size=100&status=OPEN')).content.map((row) => row.id);
    expect(ties).toHaveLength(7);
    const byId = [...ties].sort();
    for (const sort of ['subtotal:asc', 'subtotal:desc', 'status:asc', 'status:desc', 'startDate:asc']) {
      const first = await list(buyer, `?status=OPEN&size=5&page=0&sort=${sort}`);
      const second = await list(buyer, `?status=OPEN&size=5&page=1&sort=${sort}`);
      const paged = [...first.content, ...second.content].map((row) => row.id);
      expect(paged, sort).toEqual(byId);
      for (let read = 0; read < 3; read++) {
        const again = (await list(buyer, `?status=OPEN&size=100&sort=${sort}`)).content.map((row) => row.id);
        expect(again, sort).toEqual(byId);
      }
    }
  });

  it('refuses a sort it cannot apply and a size the spec does not offer, with invalidParams', async () => {
    for (const query of ['?sort=amount:desc', '?sort=subtotal', '?sort=subtotal:up', '?size=7', '?status=DRAFT']) {
      const res = await get(t, `/user/invoices${query}`, user);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().invalidParams.length, query).toBeGreaterThan(0);
    }
  });

  it('pages: sizes 5, 10, 50, 100; a page beyond the last is the last; a negative one the first', async () => {
    const first = await list(user, '?size=5&page=0');
    expect([first.content.length, first.totalPages, first.number, first.size]).toEqual([5, 1, 0, 5]);
    const beyond = await list(user, '?size=5&page=9');
    expect([beyond.number, beyond.content.length]).toEqual([0, 5]);
    expect((await list(user, '?page=-3')).number).toBe(0);
    for (const size of [10, 50, 100]) expect((await list(user, `?size=${size}`)).size).toBe(size);
    const open = await list(user, '?status=OPEN');
    expect(open.content.map((row) => row.status)).toEqual(['OPEN', 'OPEN', 'OPEN']);
  });

  it('shows an invoice with its parties, lines, totals and payments', async () => {
    const paid = all.find((row) => row.status === 'PAID')!;
    const invoice = await invoiceOf(t, user, paid.id);
    expect(invoice).toMatchObject({
      id: paid.id,
      number: paid.invoiceNumber,
      kind: 'ORDER',
      status: 'PAID',
      accountNumber: user.accountId,
      currency: 'GBP',
      amountDue: 0,
      vatNote: null,
      receipt: null,
      creditNotes: [],
    });
    expect(invoice.reference).toMatch(/^CNX-/);
    expect(invoice.issuer.companyName).toBe(t.app.deps.config.invoices.issuer.companyName);
    expect(invoice.customer.email).toBe(user.email);
    expect(invoice.lines.length).toBeGreaterThan(0);
    expect(invoice.subtotal).toBe(invoice.lines.reduce((sum, line) => sum + line.amount, 0));
    expect(invoice.totalGbp).toBe(invoice.subtotal + invoice.vat);
    expect(invoice.paymentReceived).toBe(invoice.totalGbp);
    expect(invoice.dateReceived).not.toBeNull();
    const open = await invoiceOf(t, user, all.find((row) => row.status === 'OPEN')!.id);
    expect([open.amountDue, open.paymentReceived, open.dateReceived]).toEqual([open.totalGbp, 0, null]);
    expect((await invoiceOf(t, user, voidId)).amountDue).toBe(0);
  });

  it('answers 404 INVOICE_NOT_FOUND for another account’s invoice, a draft and an unknown id, on every endpoint', async () => {
    const urls = (id: string, accountId = user.accountId) => [
      `/user/invoice/${id}`,
      `/user/invoice/${id}/csv`,
      `/user/invoice/${id}/receipt.pdf`,
      `/user/invoice/payment-rate/${id}`,
      `/${accountId}/invoice/${id}/pdf`,
    ];
    for (const id of [otherInvoiceId, draftId, randomUUID()]) {
      for (const url of urls(id)) {
        const res = await get(t, url, user);
        expect([res.statusCode, res.json().code], url).toEqual([404, 'INVOICE_NOT_FOUND']);
      }
      const pay = await t.app.inject({
        method: 'POST',
        url: `/api/payment/user/invoice/${id}/pay-qnt`,
        headers: user.headers,
      });
      expect([pay.statusCode, pay.json().code]).toEqual([404, 'INVOICE_NOT_FOUND']);
    }
    // The caller's own invoice under another account's id.
    const own = all[0]!.id;
    const res = await get(t, `/${other.accountId}/invoice/${own}/pdf`, user);
    expect([res.statusCode, res.json().code]).toEqual([404, 'INVOICE_NOT_FOUND']);
    // Not a UUID: 400 with the parameter named.
    const bad = await get(t, '/user/invoice/not-an-id', user);
    expect([bad.statusCode, bad.json().invalidParams[0].name]).toEqual([400, 'id']);
    expect((await get(t, `/user/invoices`, null)).statusCode).toBe(401);
  });

  it('serves the PDF and the CSV named after the number', async () => {
    const row = all[0]!;
    const pdf = await get(t, `/${user.accountId}/invoice/${row.id}/pdf`, user);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${row.invoiceNumber}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const csv = await get(t, `/user/invoice/${row.id}/csv`, user);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${row.invoiceNumber}.csv"`);
  });

  it('refuses to quote an invoice that is not open: 409 INVOICE_NOT_PAYABLE', async () => {
    for (const status of ['PAID', 'VOID'] as const) {
      const id = all.find((row) => row.status === status)!.id;
      const res = await get(t, `/user/invoice/payment-rate/${id}`, user);
      expect([res.statusCode, res.json().code], status).toEqual([409, 'INVOICE_NOT_PAYABLE']);
    }
    const [row] = await t.db.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, draftId));
    expect(row!.status).toBe('DRAFT');
  });

  it('is for signed-in users: a customer without invoices has an empty list', async () => {
    const empty = await list(await customer(t));
    expect([empty.totalElements, empty.totalPages, empty.content]).toEqual([0, 0, []]);
  });
});
