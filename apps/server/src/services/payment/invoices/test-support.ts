import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { ZInvoice, ZOrder, type TInvoice, type TOrder } from '@connect/shared';
import type { TestContext } from '../../../../test/helpers.ts';
import {
  bundleOf,
  customer,
  placePlan,
  planByCode,
  planOrder,
  post,
  receipt,
  terms,
  type Session,
} from '../../account-plan/test-support.ts';

/* Shared by the invoice tests: customers with invoices made through the real order paths. */

export type { Session };

/** An annual plan ordered by bank transfer and paid by a staff receipt: a PAID invoice with a period. */
export async function paidPlanCustomer(
  t: TestContext,
  staff: { headers: object },
): Promise<{ user: Session; order: TOrder }> {
  const user = await customer(t);
  const annual = await planByCode(t, 'annual-standard');
  const placed = await placePlan(t, user, planOrder(annual.id));
  const res = await receipt(t, staff, placed.id, { amountGbpMinor: placed.totalGbpMinor });
  expect(res.statusCode, res.body).toBe(200);
  return { user, order: ZOrder.parse(res.json()) };
}

/** A credit bundle of the customer's annual plan ordered (an OPEN invoice without a period). */
export async function creditsOrder(
  t: TestContext,
  user: Session,
  credits: number,
  paymentMethod: 'BANK_TRANSFER' | 'QNT' = 'BANK_TRANSFER',
): Promise<TOrder> {
  const annual = await planByCode(t, 'annual-standard');
  const bundle = await bundleOf(t, annual.id, credits);
  const res = await post(t, '/order/credits', user, {
    idempotencyKey: randomUUID(),
    creditBundleId: bundle.id,
    paymentMethod,
    terms,
  });
  expect(res.statusCode, res.body).toBe(200);
  return ZOrder.parse(res.json());
}

/** GET /api/payment{url} as `user`. */
export const get = (t: TestContext, url: string, user: { headers: object } | null) =>
  t.app.inject({ method: 'GET', url: `/api/payment${url}`, headers: { ...(user?.headers ?? {}) } });

/** The invoice as GET /user/invoice/:id answers it (checked against the contract). */
export async function invoiceOf(t: TestContext, user: Session, invoiceId: string): Promise<TInvoice> {
  const res = await get(t, `/user/invoice/${invoiceId}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return ZInvoice.parse(res.json());
}
