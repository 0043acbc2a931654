import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCreditNote, type TCardRefundRequest, type TCreditNote } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterPlanChange } from './invalidate.ts';

export type RefundOrder = { accountId: string; orderId: string; refund: TCardRefundRequest };

/**
 * POST /api/payment/management/orders/{id}/refunds (management-admin): refunds (part of) an order
 * paid by card through the card provider, with a credit note against its invoice. The dialog's
 * idempotencyKey is made once per dialog, so a retry after a lost answer refunds once. Audited.
 */
export function refundOrder({ orderId, refund }: RefundOrder): Promise<TCreditNote> {
  return api.payment.post(`/management/orders/${encodeURIComponent(orderId)}/refunds`, refund, {
    schema: ZCreditNote,
  });
}

export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundOrder,
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}
