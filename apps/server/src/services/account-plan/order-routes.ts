import { z } from 'zod';
import { ZCreditsOrderRequest, ZOrder, ZOrderTrackRequest, ZPlanOrderRequest, ZProblem } from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { orderManagementRoutes } from './management-routes.ts';
import { OrderService } from './orders.ts';
import { cardPayments, qntPayments } from '../payment/index.ts';
import { callerOf } from '../../lib/caller.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['account-plan'], security: [{ bearerAuth: [] }] };

const ZOrderParams = z.object({ id: z.uuid() });

/**
 * The orders of the account-plan service (spec §7 POST /order/plan, POST /order/track; credits
 * outside the upgrade journey; withdrawing an order) and the staff's receipts of bank transfers.
 * Registered by routes.ts under /api/account-plan.
 */
export async function orderRoutes(app: App, deps: Deps) {
  const orders = new OrderService(
    deps.db,
    deps.events,
    deps.config.billing,
    qntPayments(deps, app.log),
    cardPayments(deps, app.log),
    deps.config.invoices,
  );

  app.post(
    '/order/plan',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Order a plan (with its upfront period and a credit bundle)',
        description:
          'Places the order, its invoice and the plan’s PENDING status in one transaction and answers the order with the bank details and the reference to quote. Pay as you go has nothing to pay now: it is ACTIVE at once. A repeated idempotencyKey answers the first order and changes nothing.',
        body: ZPlanOrderRequest,
        response: { 200: ZOrder, ...problems },
      },
    },
    async (request) => orders.placePlanOrder(callerOf(request), request.body),
  );

  app.post(
    '/order/credits',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Order a credit bundle of the current plan (a top-up)',
        description:
          'For a plan in service that sells credit bundles (the Annual Subscription). The credits are added when the order is paid. A repeated idempotencyKey answers the first order.',
        body: ZCreditsOrderRequest,
        response: { 200: ZOrder, ...problems },
      },
    },
    async (request) => orders.placeCreditsOrder(callerOf(request), request.body),
  );

  app.post(
    '/order/track',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'One of the caller’s orders, with what has been received',
        description: 'Another account’s order id answers 404 ORDER_NOT_FOUND.',
        body: ZOrderTrackRequest,
        response: { 200: ZOrder, ...problems },
      },
    },
    async (request) => orders.track(callerOf(request), request.body.orderId),
  );

  app.post(
    '/order/:id/cancel',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Withdraw an order awaiting payment',
        description:
          'The order is CANCELLED and its invoice VOID; a plan PENDING on it goes back to where it was. An order paid or cancelled answers 409 ORDER_NOT_PAYABLE, one paid in part 409 ORDER_PARTLY_PAID, a month’s bill (kind USAGE) 409 ORDER_NOT_CANCELLABLE.',
        params: ZOrderParams,
        response: { 200: ZOrder, ...problems },
      },
    },
    async (request) => orders.cancel(callerOf(request), request.params.id),
  );

  await orderManagementRoutes(app, deps, orders);
}
