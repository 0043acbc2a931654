import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOrder } from '@connect/shared';
import { formatDate } from '../../../lib/format.ts';
import { formatGbp } from '../../../lib/plans/money.ts';
import { CancelOrderDialog } from './cancel-order-dialog.tsx';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' }, gap: { sm: 2 }, py: 0.75 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * The upgrade page opened while the plan waits for an order placed by card and never paid (the
 * card form left, or the tab closed before the card was entered): the order as My account shows
 * it, with Resume payment (back to the card form for it) and Cancel order (after a confirmation;
 * the current plan stays as it was). `onResume` is absent when this installation no longer takes
 * cards: the order can then only be cancelled.
 */
export function PendingOrderStep({
  order,
  headingRef,
  onResume,
  onCancelled,
}: {
  order: TOrder;
  headingRef?: Ref<HTMLHeadingElement> | undefined;
  onResume?: (() => void) | undefined;
  onCancelled: (cancelled: TOrder) => void;
}) {
  const { t } = useTranslation('accountPlan');
  const [isConfirming, setConfirming] = useState(false);
  const titleId = `pending-order-${order.id}`;

  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography
        ref={headingRef}
        id={titleId}
        tabIndex={-1}
        variant="h3"
        component="h2"
        sx={{ mb: 1, outline: 'none' }}
      >
        {t('pending.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('pending.body', { plan: order.ratePlan?.name ?? '' })}
      </Typography>
      <Box component="dl" sx={{ m: 0, px: 2, py: 1, border: 1, borderColor: 'warning.main', borderRadius: 1 }}>
        <Row label={t('confirmation.reference')}>
          <Box component="span" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
            {order.reference}
          </Box>
        </Row>
        <Row label={t('summary.planName')}>{order.ratePlan?.name ?? ''}</Row>
        <Row label={t('confirmation.amount')}>{formatGbp(order.totalGbpMinor - order.paidGbpMinor)}</Row>
        <Row label={t('payment.methodLegend')}>{t(`methods.${order.paymentMethod}`)}</Row>
        <Row label={t('confirmation.dueDate')}>{formatDate(order.dueAt)}</Row>
      </Box>
      {onResume ? null : (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t('pending.noCard')}
        </Alert>
      )}
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ mt: 3, justifyContent: 'flex-end' }}>
        <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
          {t('actions.cancelOrder')}
        </Button>
        {onResume ? (
          <Button variant="contained" onClick={onResume}>
            {t('actions.resumePayment')}
          </Button>
        ) : null}
      </Stack>
      <CancelOrderDialog
        order={order}
        open={isConfirming}
        onCancelled={(cancelled) => {
          setConfirming(false);
          onCancelled(cancelled);
        }}
        onClose={() => setConfirming(false)}
      >
        {t('confirmation.cancelBody', { plan: order.ratePlan?.name ?? '' })}
      </CancelOrderDialog>
    </Box>
  );
}
