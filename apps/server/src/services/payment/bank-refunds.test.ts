import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditNotes, mailOutbox, refunds } from '@connect/db';
import { ZCreditNote, type TOrder } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import {
  administrator,
  customer,
  placePlan,
  planByCode,
  planOrder,
  post,
  receipt,
  type Session,
} from '../account-plan/test-support.ts';

/* Refunds of orders paid by bank transfer (issue 33 §1): staff pay the money back and record it. */

describe('refunds of orders paid by bank transfer', () => {
  let t: TestContext;
  let staff: Session;
  beforeAll(async () => {
    t = await createTestApp();
    staff = { ...(await administrator(t)), accountId: '' };
  });
  afterAll(() => t?.close());

  const refund = (session: { headers: object }, orderId: string, body: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/payment/management/orders/${orderId}/refunds`,
      headers: { ...(session.headers as Record<string, string>) },
      payload: body,
    });
  /** A customer whose annual plan a bank transfer paid in full. */
  async function paidByBank(): Promise<{ user: Session; order: TOrder }> {
    const user = await customer(t);
    const order = await placePlan(t, user, planOrder((await planByCode(t, 'annual-standard')).id));
    const paid = await receipt(t, staff, order.id, { amountGbpMinor: order.totalGbpMinor });
    expect(paid.statusCode, paid.body).toBe(200);
    return { user, order };
  }
  const refundsOf = (orderId: string) => t.db.db.select().from(refunds).where(eq(refunds.orderId, orderId));

  it('records a refund paid back by bank with its credit note, audited and mailed; once per key', async () => {
    const { user, order } = await paidByBank();
    const body = { idempotencyKey: randomUUID(), amountGbpMinor: 5_000, reason: 'Goodwill', bankReference: 'OUT-1' };
    const first = await refund(staff, order.id, body);
    expect(first.statusCode, first.body).toBe(200);
    const note = ZCreditNote.parse(first.json());
    expect(note).toMatchObject({
      orderId: order.id,
      amountGbpMinor: 5_000,
      invoiceId: order.invoiceId,
      status: 'succeeded',
    });
    expect(ZCreditNote.parse((await refund(staff, order.id, body)).json()).id).toBe(note.id);
    expect(await refundsOf(order.id)).toEqual([
      expect.objectContaining({
        method: 'BANK_TRANSFER',
        externalId: 'bank:OUT-1',
        intentId: null,
        amountGbpMinor: 5_000,
      }),
    ]);
    const [stored] = await t.db.db.select().from(creditNotes).where(eq(creditNotes.refundId, note.refundId));
    expect(stored!.number).toMatch(/^CN-/);
    const audit = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, order.id), eq(auditLog.action, 'ORDER_REFUNDED')));
    expect(audit).toEqual([
      expect.objectContaining({
        outcome: 'DONE',
        actorId: staff.sub,
        after: expect.objectContaining({ method: 'BANK_TRANSFER', bankReference: 'OUT-1', creditNoteId: note.id }),
      }),
    ]);
    await t.app.events.drain();
    const mails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(mails.find((mail) => mail.subject === `Order ${order.reference}: your refund`)?.textBody).toContain(
      'by bank transfer',
    );
    // The same outgoing transfer is not recorded twice under another key.
    const twice = await refund(staff, order.id, { ...body, idempotencyKey: randomUUID() });
    expect(twice.json().invalidParams).toEqual([expect.objectContaining({ name: 'bankReference' })]);
  });

  it('needs the outgoing transfer’s reference, an administrator, and never more than was paid', async () => {
    const { user, order } = await paidByBank();
    const body = { idempotencyKey: randomUUID(), amountGbpMinor: 100, reason: 'Test' };
    const bare = await refund(staff, order.id, body);
    expect(bare.json().invalidParams).toEqual([expect.objectContaining({ name: 'bankReference' })]);
    const sales = await signInAs(t, { role: 'QUANT_SALES' });
    for (const caller of [sales, user]) {
      expect((await refund(caller, order.id, { ...body, bankReference: 'X' })).statusCode).toBe(403);
    }
    const tooMuch = await refund(staff, order.id, {
      ...body,
      amountGbpMinor: order.totalGbpMinor + 1,
      bankReference: 'X',
    });
    expect([tooMuch.statusCode, tooMuch.json().code]).toEqual([422, 'REFUND_TOO_LARGE']);
    expect(await refundsOf(order.id)).toEqual([]);
  });

  it('refunds fired together never pass what the transfers paid', async () => {
    const { order } = await paidByBank();
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        refund(staff, order.id, {
          idempotencyKey: randomUUID(),
          amountGbpMinor: order.totalGbpMinor,
          reason: 'Cancelled',
          bankReference: `OUT-ALL-${i}`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422, 422, 422]);
    const made = await refundsOf(order.id);
    expect(made.reduce((sum, row) => sum + row.amountGbpMinor, 0)).toBe(order.totalGbpMinor);
    expect(made).toHaveLength(1);
  });

  it('a part-paid order is not refunded: it still waits for the rest (ORDER_NOT_PAID)', async () => {
    const user = await customer(t);
    const order = await placePlan(t, user, planOrder((await planByCode(t, 'annual-standard')).id));
    expect((await receipt(t, staff, order.id, { amountGbpMinor: 5_000 })).statusCode).toBe(200);
    const res = await refund(staff, order.id, {
      idempotencyKey: randomUUID(),
      amountGbpMinor: 5_000,
      reason: 'Test',
      bankReference: 'OUT-PART',
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'ORDER_NOT_PAID']);
    expect(await refundsOf(order.id)).toEqual([]);
  });

  it('an unpaid order has nothing to refund: ORDER_HAS_NO_CARD_PAYMENT', async () => {
    const user = await customer(t);
    const order = await placePlan(t, user, planOrder((await planByCode(t, 'annual-standard')).id));
    const res = await refund(staff, order.id, {
      idempotencyKey: randomUUID(),
      amountGbpMinor: 100,
      reason: 'Test',
      bankReference: 'OUT-9',
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'ORDER_HAS_NO_CARD_PAYMENT']);
    expect((await post(t, `/management/orders/${order.id}/receipts`, null, {})).statusCode).toBe(401);
  });
});
