import type { PaymentMethod } from '@connect/db';
import type { TPaymentMethod } from '@connect/shared';
import { badRequest, fieldProblem } from '../../lib/errors.ts';
import { usdCentsToPence } from '../../lib/prices.ts';
import { formatCount, formatDollars } from './order-format.ts';
import type { InvoiceLine, RatePlanRow } from './orders-repository.ts';

/* What an order is placed with (orders.ts): the upfront period and method checked, its invoice's lines. */

/** The upfront period chosen: only the one the plan offers, and never for pay as you go (no fee). */
export function upfrontOf(plan: RatePlanRow, requested: number | null): number | null {
  if (requested === null) return null;
  const refuse = (reason: string) => badRequest([{ name: 'upfrontMonths', reason }]);
  if (plan.type === 'PAY_AS_YOU_GO') {
    throw refuse('Pay as you go has no fee to pay upfront. Leave the upfront period out.');
  }
  if (plan.upfrontMonths === null) throw refuse('This plan offers no upfront period.');
  if (requested !== plan.upfrontMonths) throw refuse(`This plan’s upfront period is ${plan.upfrontMonths} months.`);
  return requested;
}

/**
 * The method must be one the plan accepts, and one this installation takes when something is to
 * be paid now (an order with nothing to pay only records how the month-end bills will be paid).
 */
export function checkMethod(
  available: readonly TPaymentMethod[],
  accepted: readonly PaymentMethod[],
  method: TPaymentMethod,
  isPaidNow: boolean,
): void {
  if (!accepted.includes(method) || (isPaidNow && !available.includes(method))) {
    throw fieldProblem('PAYMENT_METHOD_NOT_ACCEPTED', 'paymentMethod');
  }
}

export const line = (description: string, amountMinor: number): InvoiceLine => ({
  description,
  quantity: 1,
  unitPriceMinor: amountMinor,
  amountMinor,
});

export function bundleLine(credits: number, usdCents: number, prices: { usdPerGbp: string }): InvoiceLine {
  const pence = usdCentsToPence(usdCents, prices.usdPerGbp);
  return line(
    `Credit bundle — ${formatCount(credits)} credits (${formatDollars(usdCents)} at $${prices.usdPerGbp} to the pound)`,
    pence,
  );
}
