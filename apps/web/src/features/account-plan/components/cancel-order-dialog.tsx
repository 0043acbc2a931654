import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOrder } from '@connect/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { cancelOrder, refreshPlanQueries } from '../../../lib/plans/api.ts';
import { problemMessage } from '../../../lib/problems.ts';

/**
 * Cancel order, confirmed first: the dialog names the order, cancels it on confirmation (a refusal
 * shown in the dialog) and refreshes what shows the plan. `children` says what the cancellation
 * leaves; the caller closes the dialog in `onCancelled`.
 */
export function CancelOrderDialog({
  order,
  open,
  children,
  onCancelled,
  onClose,
}: {
  order: TOrder;
  open: boolean;
  children: ReactNode;
  onCancelled: (cancelled: TOrder) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('accountPlan');
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => cancelOrder(order.id),
    onSuccess: (cancelled) => {
      onCancelled(cancelled);
      void refreshPlanQueries(queryClient);
    },
  });
  return (
    <ConfirmDialog
      open={open}
      title={t('confirmation.cancelTitle', { reference: order.reference })}
      confirmLabel={t('actions.cancelOrder')}
      isDestructive
      isPending={cancel.isPending}
      error={cancel.isError ? problemMessage(cancel.error) : null}
      onConfirm={() => cancel.mutate()}
      onClose={() => {
        cancel.reset();
        onClose();
      }}
    >
      {children}
    </ConfirmDialog>
  );
}
