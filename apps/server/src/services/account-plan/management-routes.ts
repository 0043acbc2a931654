import { z } from 'zod';
import { ORDER_STATUSES, ZOrder, ZOrdersResponse, ZProblem, ZRecordReceiptRequest } from '@connect/shared';
import type { App } from '../../types.ts';
import type { OrderService } from './orders.ts';
import { callerOf } from '../../lib/caller.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['account-plan'], security: [{ bearerAuth: [] }] };
/** Recording money received is for administrators only (spec §6: management-admin = QUANT_ADMIN). */
const staff = { groups: ['management-admin' as const] };

const ZOrderParams = z.object({ id: z.uuid() });
const ZOrdersQuery = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  /** The reference a bank transfer quoted (CNX-…). */
  reference: z.string().trim().toUpperCase().max(20).optional(),
});

/** Staff's side of orders: the orders awaiting payment, and recording a bank transfer received. */
export async function orderManagementRoutes(app: App, orders: OrderService) {
  app.get(
    '/management/orders',
    {
      config: { access: staff },
      schema: {
        ...docs,
        summary: 'Orders, newest first (staff)',
        description:
          'Filter by status (AWAITING_PAYMENT: the transfers to look out for) and by the reference a transfer quoted. At most 500.',
        querystring: ZOrdersQuery,
        response: { 200: ZOrdersResponse, ...problems },
      },
    },
    async (request) =>
      orders.list({
        ...(request.query.status ? { status: request.query.status } : {}),
        ...(request.query.reference ? { reference: request.query.reference } : {}),
      }),
  );

  app.post(
    '/management/orders/:id/receipts',
    {
      config: { access: staff },
      schema: {
        ...docs,
        summary: 'Record a bank transfer received for an order (staff)',
        description:
          'Once the receipts cover the total the order and its invoice are PAID, the plan is ACTIVE from the receipt’s date (or the renewal extends it), the credits are added and the customer is emailed. The same receiptId again changes nothing; a new receipt for an order paid or cancelled answers 409 ORDER_NOT_PAYABLE.',
        params: ZOrderParams,
        body: ZRecordReceiptRequest,
        response: { 200: ZOrder, ...problems },
      },
    },
    async (request) => orders.recordReceipt(callerOf(request), request.params.id, request.body),
  );
}
