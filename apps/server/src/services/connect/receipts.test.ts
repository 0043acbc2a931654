import { and, asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, receipts } from '@connect/db';
import { ZReceipt } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { administrator, receipt as staffReceipt } from '../account-plan/test-support.ts';
import { creditsOrder, paidPlanCustomer, type Session } from '../payment/invoices/test-support.ts';

describe('receipts: POST /user/invoice/create-receipt', () => {
  let t: TestContext;
  let staff: Awaited<ReturnType<typeof administrator>>;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await administrator(t);
  });
  afterAll(() => t?.close());

  const create = (user: { headers: object } | null, invoiceId: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/connect/user/invoice/create-receipt',
      headers: { ...(user?.headers ?? {}) },
      payload: { invoiceId },
    });
  const mailsTo = (email: string) =>
    t.db.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), like(mailOutbox.subject, 'Receipt %')));

  async function paidInvoice(): Promise<{ user: Session; invoiceId: string; total: number }> {
    const { user, order } = await paidPlanCustomer(t, staff);
    return { user, invoiceId: order.invoiceId, total: order.totalGbpMinor };
  }

  it('refuses an invoice not paid yet (409), another account’s (404) and a bad id (400)', async () => {
    const { user } = await paidInvoice();
    const open = await creditsOrder(t, user, 1_000);
    const unpaid = await create(user, open.invoiceId);
    expect([unpaid.statusCode, unpaid.json().code]).toEqual([409, 'INVOICE_NOT_PAID']);
    const { invoiceId: othersInvoice } = await paidInvoice();
    const others = await create(user, othersInvoice);
    expect([others.statusCode, others.json().code]).toEqual([404, 'INVOICE_NOT_FOUND']);
    const bad = await create(user, 'nope');
    expect([bad.statusCode, bad.json().invalidParams[0].name]).toEqual([400, 'invoiceId']);
    expect((await create(null, othersInvoice)).statusCode).toBe(401);
  });

  it('makes one receipt per invoice, numbered RCT, mailed once; a repeat answers the same receipt', async () => {
    const { user, invoiceId, total } = await paidInvoice();
    const first = await create(user, invoiceId);
    expect(first.statusCode, first.body).toBe(200);
    const made = ZReceipt.parse(first.json());
    expect(made).toMatchObject({ invoiceId, amount: total, currency: 'GBP', method: 'BANK_TRANSFER' });
    expect(made.number).toMatch(/^RCT-\d{6}$/);
    const again = ZReceipt.parse((await create(user, invoiceId)).json());
    expect(again).toEqual(made);
    await t.app.events.drain();
    await t.app.events.drain();
    const mails = await mailsTo(user.email);
    expect(mails.map((mail) => mail.subject)).toEqual([`Receipt ${made.number} for invoice ${made.invoiceNumber}`]);
    expect(mails[0]!.textBody).toContain(`/invoices/my-invoices/${invoiceId}`);
    expect(await t.db.db.select().from(receipts).where(eq(receipts.invoiceId, invoiceId))).toHaveLength(1);
  });

  it('numbers receipts without gaps, also when asked for at once', async () => {
    const invoicesPaid = await Promise.all([paidInvoice(), paidInvoice(), paidInvoice()]);
    const answers = await Promise.all(
      invoicesPaid.flatMap(({ user, invoiceId }) => [create(user, invoiceId), create(user, invoiceId)]),
    );
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const numbers = (
      await t.db.db.select({ number: receipts.number }).from(receipts).orderBy(asc(receipts.number))
    ).map((row) => Number(row.number.slice(4)));
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    // Each invoice's two answers are the same receipt.
    for (let i = 0; i < answers.length; i += 2) expect(answers[i]!.json().id).toBe(answers[i + 1]!.json().id);
  });

  it('is shown on the invoice once made', async () => {
    const { user, invoiceId } = await paidInvoice();
    const made = (await create(user, invoiceId)).json();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/payment/user/invoice/${invoiceId}`,
      headers: user.headers,
    });
    expect(res.json().receipt).toEqual(made);
  });

  it('counts a staff receipt covering the total as the payment it records', async () => {
    const { user } = await paidInvoice();
    const order = await creditsOrder(t, user, 1_000);
    const paid = await staffReceipt(t, staff, order.id, { amountGbpMinor: order.totalGbpMinor });
    expect(paid.statusCode).toBe(200);
    const made = ZReceipt.parse((await create(user, order.invoiceId)).json());
    expect(made.amount).toBe(order.totalGbpMinor);
  });
});
