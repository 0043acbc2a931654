import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZOrder, type TOrder, type TRecordReceiptRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterPlanChange } from './invalidate.ts';

export type RecordReceipt = { accountId: string; orderId: string; receipt: TRecordReceiptRequest };

/**
 * POST /api/account-plan/management/orders/{id}/receipts (management-admin): a bank transfer
 * received for an order. Once the receipts cover the total, the order and its invoice are PAID
 * and the plan is ACTIVE; the same receiptId again changes nothing. Audited.
 */
export function recordReceipt({ orderId, receipt }: RecordReceipt): Promise<TOrder> {
  return api.accountPlan.post(`/management/orders/${encodeURIComponent(orderId)}/receipts`, receipt, {
    schema: ZOrder,
  });
}

export function useRecordReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordReceipt,
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}
