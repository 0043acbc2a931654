import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOrder, TQntPayment } from '@connect/shared';
import { CopyButton } from '../../../components/copy-button.tsx';
import { QntPaymentPanel } from '../../../components/qnt/qnt-payment-panel.tsx';
import { formatDate } from '../../../lib/format.ts';
import { canWithdraw } from '../../../lib/payment/qnt.ts';
import { TRACK_INTERVAL_MS, trackOrderQuery, useRefreshPlanWhenPaid } from '../../../lib/plans/api.ts';
import { formatGbp } from '../../../lib/plans/money.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { CancelOrderDialog } from './cancel-order-dialog.tsx';
import { FiatSuccess, QntSuccess } from './success-screens.tsx';

function Detail({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' }, gap: { sm: 2 }, py: 0.75 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Box component="span" sx={{ fontFamily: copyLabel ? 'monospace' : undefined }}>
          {value}
        </Box>
        {copyLabel ? <CopyButton value={value} label={copyLabel} /> : null}
      </Typography>
    </Box>
  );
}

/** An order paid in QNT, with the QNT side the server answers for it. */
const isQntOrder = (order: TOrder): order is TOrder & { qnt: TQntPayment } =>
  order.paymentMethod === 'QNT' && Boolean(order.qnt);

/**
 * The confirmation step: a paid order (pay as you go, or a transfer that has arrived) is the fiat
 * success screen; an order awaiting its bank transfer shows what to pay, where and by when, is
 * tracked every 30 seconds and can be cancelled; a cancelled one offers to choose again. An order
 * paid in QNT shows its payment live (tracked every 2.5 s while under way; `autoPay` opens the
 * wallet at once) and, once settled, the QNT success screen.
 */
export function OrderConfirmation({
  order: placed,
  planName,
  intervalMs = TRACK_INTERVAL_MS,
  autoPay = false,
  headingRef,
  onRestart,
}: {
  order: TOrder;
  planName: string;
  intervalMs?: number;
  autoPay?: boolean;
  headingRef?: Ref<HTMLHeadingElement>;
  onRestart: () => void;
}) {
  const { t } = useTranslation('accountPlan');
  const queryClient = useQueryClient();
  const tracked = useQuery(trackOrderQuery(placed, intervalMs));
  const order = tracked.data;
  const [isCancelOpen, setCancelOpen] = useState(false);

  const isPaid = order.status === 'PAID' || order.qnt?.status === 'SETTLED';
  useRefreshPlanWhenPaid(isPaid);

  const paidPlan = order.ratePlan?.name ?? planName;
  if (isPaid && isQntOrder(order))
    return <QntSuccess planName={paidPlan} reason={order.qnt.reason} headingRef={headingRef} />;
  if (isPaid) return <FiatSuccess planName={paidPlan} headingRef={headingRef} />;

  if (order.status === 'CANCELLED') {
    return (
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }} role="status">
        <HighlightOffIcon color="action" sx={{ fontSize: 48 }} aria-hidden />
        <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ outline: 'none' }}>
          {t('confirmation.cancelled', { reference: order.reference })}
        </Typography>
        <Typography color="text.secondary">{t('confirmation.cancelledBody')}</Typography>
        <Button variant="contained" onClick={onRestart}>
          {t('actions.chooseAgain')}
        </Button>
      </Stack>
    );
  }

  const canCancel = !isQntOrder(order) || canWithdraw(order.qnt);
  return (
    <Stack spacing={3}>
      {isQntOrder(order) ? (
        <>
          <QntPaymentPanel order={order} autoPay={autoPay} headingRef={headingRef} />
          <Typography variant="body2" color="text.secondary">
            {t('confirmation.qntOrder', { reference: order.reference, amount: formatGbp(order.totalGbpMinor) })}
          </Typography>
        </>
      ) : (
        <BankTransferDetails order={order} headingRef={headingRef} />
      )}
      {tracked.isError ? <Alert severity="warning">{problemMessage(tracked.error)}</Alert> : null}
      {canCancel ? (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button color="error" variant="outlined" onClick={() => setCancelOpen(true)}>
            {t('actions.cancelOrder')}
          </Button>
        </Stack>
      ) : null}
      <CancelOrderDialog
        order={order}
        open={isCancelOpen}
        onCancelled={(cancelled) => {
          queryClient.setQueryData(trackOrderQuery(placed, intervalMs).queryKey, cancelled);
          setCancelOpen(false);
        }}
        onClose={() => setCancelOpen(false)}
      >
        {t(isQntOrder(order) ? 'confirmation.cancelBodyQnt' : 'confirmation.cancelBody', {
          plan: order.ratePlan?.name ?? planName,
        })}
      </CancelOrderDialog>
    </Stack>
  );
}

/** What to pay by bank transfer, where and by when. */
function BankTransferDetails({
  order,
  headingRef,
}: {
  order: TOrder;
  headingRef?: Ref<HTMLHeadingElement> | undefined;
}) {
  const { t } = useTranslation('accountPlan');
  const bank = order.bankTransfer;
  const amount = formatGbp(bank?.amountGbpMinor ?? order.totalGbpMinor - order.paidGbpMinor);
  const due = formatDate(bank?.dueAt ?? order.dueAt);
  return (
    <>
      <Box>
        <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ outline: 'none', mb: 1 }}>
          {t('confirmation.bankTitle')}
        </Typography>
        <Typography>{t('confirmation.bankIntro', { amount, date: due })}</Typography>
      </Box>
      <Alert severity="info" icon={<CircularProgress size={18} aria-hidden />}>
        <Typography sx={{ fontWeight: 600 }}>{t('confirmation.activeOnPayment')}</Typography>
        <Typography variant="body2">{t('confirmation.checking')}</Typography>
      </Alert>
      <Box component="dl" sx={{ m: 0, border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1 }}>
        <Detail
          label={t('confirmation.reference')}
          value={bank?.reference ?? order.reference}
          copyLabel={t('confirmation.reference')}
        />
        <Detail label={t('confirmation.amount')} value={amount} />
        <Detail label={t('confirmation.dueDate')} value={due} />
        {bank ? (
          <>
            <Detail label={t('confirmation.accountName')} value={bank.accountName} />
            <Detail label={t('confirmation.bankName')} value={bank.bankName} />
            <Detail label={t('confirmation.sortCode')} value={bank.sortCode} copyLabel={t('confirmation.sortCode')} />
            <Detail
              label={t('confirmation.accountNumber')}
              value={bank.accountNumber}
              copyLabel={t('confirmation.accountNumber')}
            />
            <Detail label={t('confirmation.iban')} value={bank.iban} copyLabel={t('confirmation.iban')} />
            <Detail label={t('confirmation.bic')} value={bank.bic} copyLabel={t('confirmation.bic')} />
          </>
        ) : null}
      </Box>
    </>
  );
}
