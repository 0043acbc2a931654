import { z } from 'zod';
import {
  ORDER_STATUSES,
  ZManagementOrdersQuery,
  ZManagementOrdersResponse,
  ZOrder,
  ZOrdersResponse,
  ZProblem,
  ZRecordReceiptRequest,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { STAFF_LIST_PAGING_DESCRIPTION } from '../../lib/staff-list.ts';
import { OrderManagementReadModel } from '../../read-models/order-management.ts';
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
export async function orderManagementRoutes(app: App, deps: Deps, orders: OrderService) {
  const orderList = new OrderManagementReadModel(deps.db);

  app.get(
    '/management/order-list',
    {
      config: { access: staff },
      schema: {
        ...docs,
        summary: 'The orders screen: every account’s orders (staff)',
        description: `Newest first, of one status or all, searched by a payment reference as customers quote it (its start, CNX-…) or, from 3 characters, by the organisation or the owner’s email or name; each order with its account, what was received and refunded and how it was paid (issue 33 §5). ${STAFF_LIST_PAGING_DESCRIPTION}`,
        querystring: ZManagementOrdersQuery,
        response: { 200: ZManagementOrdersResponse, ...problems },
      },
    },
    async (request) => {
      const { page, size, sort, cursor, searchTerm, status } = request.query;
      return orderList.list({ status, searchTerm }, { page, size, sort, cursor });
    },
  );

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
          'Audited (RECEIPT_RECORDED). Once the receipts cover the total the order and its invoice are PAID, the plan is ACTIVE from the receipt’s date (or the renewal extends it), the credits are added and the customer is emailed. The same receiptId again changes nothing; a new receipt for an order paid or cancelled answers 409 ORDER_NOT_PAYABLE; one for the plan of an account whose plan staff disabled, 409 ACCOUNT_PLAN_DISABLED.',
        params: ZOrderParams,
        body: ZRecordReceiptRequest,
        response: { 200: ZOrder, ...problems },
      },
    },
    async (request) =>
      orders.recordReceipt({ ...callerOf(request), requestId: request.id }, request.params.id, request.body),
  );
}
