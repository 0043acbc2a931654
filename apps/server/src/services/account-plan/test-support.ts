import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { creditBundles, ratePlans, users } from '@connect/db';
import { ZOrder, ZSubscription, type TOrder, type TSubscription } from '@connect/shared';
import { signInAs, type TestContext } from '../../../test/helpers.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { Entitlements } from '../entitlements/index.ts';

/* Shared by the order tests (orders, bank transfer, renewal orders): callers, plans and requests. */

export type Session = Awaited<ReturnType<typeof signInAs>> & { accountId: string };

/** A signed-in user whose portal user and account exist (on the trial). */
export async function customer(t: TestContext): Promise<Session> {
  const session = await signInAs(t);
  const res = await t.app.inject({ method: 'GET', url: '/api/account-plan/user-plan', headers: session.headers });
  expect(res.statusCode).toBe(200);
  const [row] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
  return { ...session, accountId: row!.accountId };
}

/** A signed-in administrator (management-admin). */
export async function administrator(t: TestContext) {
  return signInAs(t, { role: 'QUANT_ADMIN' });
}

export async function planByCode(t: TestContext, code: string) {
  const [plan] = await t.db.db.select().from(ratePlans).where(eq(ratePlans.code, code));
  return plan!;
}

export async function bundleOf(t: TestContext, ratePlanId: string, credits: number) {
  const bundles = await t.db.db.select().from(creditBundles).where(eq(creditBundles.ratePlanId, ratePlanId));
  return bundles.find((bundle) => bundle.credits === credits)!;
}

export const terms = { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true } as const;

export function planOrder(ratePlanId: string, extra: Record<string, unknown> = {}) {
  return { idempotencyKey: randomUUID(), ratePlanId, paymentMethod: 'BANK_TRANSFER', terms, ...extra };
}

export const post = (t: TestContext, url: string, session: { headers: object } | null, body?: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/account-plan${url}`,
    headers: { ...(session?.headers ?? {}) },
    ...(body !== undefined ? { payload: body as object } : {}),
  });

/** Places a plan order and answers it (200 checked against the contract). */
export async function placePlan(t: TestContext, session: Session, body: object): Promise<TOrder> {
  const res = await post(t, '/order/plan', session, body);
  expect(res.statusCode, res.body).toBe(200);
  return ZOrder.parse(res.json());
}

/** The order as the customer's page tracks it (200 checked against the contract). */
export async function trackOrder(t: TestContext, session: Session, orderId: string): Promise<TOrder> {
  const res = await post(t, '/order/track', session, { orderId });
  expect(res.statusCode, res.body).toBe(200);
  return ZOrder.parse(res.json());
}

/** The customer's subscription as My account reads it (200 checked against the contract). */
export async function subscriptionOf(t: TestContext, session: Session): Promise<TSubscription> {
  const res = await t.app.inject({ method: 'GET', url: '/api/account-plan/subscription', headers: session.headers });
  expect(res.statusCode, res.body).toBe(200);
  return ZSubscription.parse(res.json());
}

/** Staff record a receipt; answers the response. */
export function receipt(
  t: TestContext,
  staff: { headers: object },
  orderId: string,
  body: { receiptId?: string; amountGbpMinor: number; receivedAt?: string },
) {
  return post(t, `/management/orders/${orderId}/receipts`, staff, {
    receiptId: body.receiptId ?? `BANK-${randomUUID()}`,
    amountGbpMinor: body.amountGbpMinor,
    receivedAt: body.receivedAt ?? new Date().toISOString(),
  });
}

export async function planState(t: TestContext, accountId: string) {
  return (await new AccountPlansRepository(t.db.db, t.app.events).state(accountId))!;
}

/** What the account may have now, as entitlements answers it (the plan's allowances with any override). */
export async function allowancesOf(t: TestContext, accountId: string) {
  return (await new Entitlements(t.db.db).allowances(accountId))!;
}
