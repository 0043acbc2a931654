import type { Database, PaymentMethod } from '@connect/db';
import type { TOrder } from '@connect/shared';
import type { Deps } from '../../../types.ts';

/**
 * What the invoices need of the orders, which the account-plan service owns (the `orders` and
 * `account_plans` tables are its own: src/table-owners.ts). Declared here and filled by
 * account-plan while the app is assembled (deps.runtime.invoiceOrders, its module.ts), so
 * payment never imports account-plan: account-plan depends on payment (its QNT and card
 * payments, the invoices of its orders), never the other way (test/service-graph.test.ts).
 */
export type InvoiceOrders = {
  /** The account's order as the order answers show it (POST /order/track), or null when it is not the account's. */
  order(accountId: string, orderId: string): Promise<TOrder | null>;
  /**
   * In `tx`: the QNT the account holds settles its open QNT orders, oldest first — the same
   * settlement, with the same events, as a transfer arriving.
   */
  settleFromHeldQnt(tx: Database, accountId: string): Promise<void>;
  /** In `tx`: the order, while it waits for its payment, is paid in QNT from now on (what was received stays recorded). */
  payInQnt(tx: Database, orderId: string): Promise<void>;
  /** The payment methods orders are taken with now, the preferred first. */
  paymentMethods(): readonly PaymentMethod[];
  /** A new order's reference (what a bank transfer quotes). */
  newReference(): string;
  /** How each account pays its month's bill: the way it paid its last order when `available` has it, else the first of `available`. */
  billMethods(
    tx: Database,
    accountIds: readonly string[],
    available: readonly PaymentMethod[],
  ): Promise<Map<string, PaymentMethod>>;
  /**
   * In `tx`, for every bill at once (set-based): the USAGE orders that collect the month's bills,
   * `on conflict do nothing` by account and idempotency key. Answers the orders written.
   */
  placeBills(tx: Database, bills: readonly MonthBill[], terms: MonthBillTerms): Promise<number>;
  /**
   * In `tx`, after the bills' QNT quotes: `order.placed` for every bill, then the plans wait for
   * their bills through the plans' own transition (BILL_PLACED, set-based) with their
   * `plan.changed`. Answers how many plans changed.
   */
  awaitBills(tx: Database, bills: readonly MonthBill[], now: Date): Promise<number>;
};

/** A month's bill as its USAGE order is placed. */
export type MonthBill = {
  orderId: string;
  accountId: string;
  idempotencyKey: string;
  reference: string;
  ratePlanId: string;
  credits: number;
  paymentMethod: PaymentMethod;
  bundleUsdCents: number;
  totalGbpMinor: number;
  periodStart: Date;
};

/** What every bill of one close shares. */
export type MonthBillTerms = { periodEnd: Date; now: Date; dueAt: Date; usdPerGbp: string };

declare module '../../../types.ts' {
  interface Runtime {
    /** The orders as the invoices use them (filled by the account-plan module on every node). */
    invoiceOrders?: InvoiceOrders;
  }
}

/**
 * The orders port, read when used (account-plan fills it after payment's routes are built).
 * Throws when no module filled it: an app without account-plan has no orders to invoice.
 */
export function invoiceOrdersOf(deps: Pick<Deps, 'runtime'>): InvoiceOrders {
  const read = (): InvoiceOrders => {
    const port = deps.runtime.invoiceOrders;
    if (!port)
      throw new Error('the orders port (deps.runtime.invoiceOrders) is not filled: is the account-plan module listed?');
    return port;
  };
  return {
    order: (...args) => read().order(...args),
    settleFromHeldQnt: (...args) => read().settleFromHeldQnt(...args),
    payInQnt: (...args) => read().payInQnt(...args),
    paymentMethods: () => read().paymentMethods(),
    newReference: () => read().newReference(),
    billMethods: (...args) => read().billMethods(...args),
    placeBills: (...args) => read().placeBills(...args),
    awaitBills: (...args) => read().awaitBills(...args),
  };
}
