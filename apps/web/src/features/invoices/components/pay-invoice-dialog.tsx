import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TInvoicePaymentRate, TOrder, TQntPayment, TReceipt } from '@connect/shared';
import { QueryState } from '../../../components/query-state.tsx';
import { TrackedQntPayment } from '../../../components/qnt/tracked-qnt-payment.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { trackOrderQuery } from '../../../lib/plans/api.ts';
import { formatGbp, formatGbpPerQnt, formatQnt } from '../../../lib/plans/money.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { invoicesKey, useInvoicePaymentRate, usePayInvoiceWithQnt } from '../api/invoices.ts';
import { ReceiptActions } from './receipt-actions.tsx';

type QntOrder = TOrder & { qnt: TQntPayment };

const hasQnt = (order: TOrder | null | undefined): order is QntOrder => Boolean(order?.qnt);
const isOrderPaid = (order: TOrder) => order.status === 'PAID' || order.qnt?.status === 'SETTLED';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, gap: { sm: 2 }, py: 0.5 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** Watches the order being paid by a wallet transfer (the panel's tracking shares the query) and says once it is paid. */
function WalletPayment({ order, onPaid }: { order: QntOrder; onPaid: () => void }) {
  const tracked = useQuery(trackOrderQuery(order));
  const isPaid = isOrderPaid(tracked.data);
  useEffect(() => {
    if (isPaid) onPaid();
  }, [isPaid, onPaid]);
  return <TrackedQntPayment order={order} autoPay headingComponent="h3" />;
}

/**
 * Pay with QNT (spec §2 Invoices, issue 18): the invoice's amount in QNT at the quoted rate. With
 * enough QNT held, one click settles it from the balance (POST /user/invoice/{id}/pay-qnt); else
 * the invoice's order is paid from the injected wallet to its deposit address, tracked until the
 * chain follower settles it (spec §8's wallet messages come with the QNT panel). Once paid, the
 * invoice lists refresh and the receipt can be created.
 */
export function PayInvoiceDialog({
  invoice,
  accountId,
  open,
  onClose,
}: {
  invoice: { id: string; number: string };
  accountId: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('bill');
  const titleId = useId();
  const queryClient = useQueryClient();
  const [walletOrder, setWalletOrder] = useState<QntOrder | null>(null);
  const [isPaid, setIsPaid] = useState(false);
  // Not asked again once paid: a paid invoice has no rate (409), and the refresh after paying would ask.
  const rate = useInvoicePaymentRate(invoice.id, open && !isPaid);
  const pay = usePayInvoiceWithQnt(invoice.id);

  const [hasNoQuote, setHasNoQuote] = useState(false);

  const markPaid = useCallback(() => {
    setIsPaid(true);
    // The invoice and the list, not the rate: a paid invoice has none (409), and the rate query is
    // still enabled until this render's state applies.
    void queryClient.invalidateQueries({
      queryKey: invoicesKey,
      predicate: (query) => query.queryKey[invoicesKey.length] !== 'payment-rate',
    });
  }, [queryClient]);

  const startPayment = (quote: TInvoicePaymentRate) => {
    setHasNoQuote(false);
    pay.mutate(undefined, {
      onSuccess: (order) => {
        if (isOrderPaid(order)) markPaid();
        else if (hasQnt(order)) setWalletOrder(order);
        else if (hasQnt(quote.order)) setWalletOrder(quote.order);
        // An order without a QNT quote cannot be paid from a wallet: said, not silently ignored.
        else setHasNoQuote(true);
      },
    });
  };

  const paid = (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }} role="status">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CheckCircleOutlineIcon color="success" aria-hidden />
        <Typography variant="h3" component="h3">
          {t('pay.paidTitle')}
        </Typography>
      </Stack>
      <Typography>{t('pay.paidText', { number: invoice.number })}</Typography>
      <ReceiptActions invoice={{ ...invoice, receipt: null as TReceipt | null }} accountId={accountId} />
    </Stack>
  );

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('pay.title', { number: invoice.number })}</DialogTitle>
      <DialogContent>
        {isPaid ? (
          paid
        ) : walletOrder ? (
          <WalletPayment order={walletOrder} onPaid={markPaid} />
        ) : (
          <QueryState
            query={rate}
            loading={<Skeleton variant="rounded" height={180} aria-label={t('pay.loading')} />}
            errorMessage={(error) => `${t('pay.loadError')} ${problemMessage(error)}`}
          >
            {(quote) => {
              const isHeldEnough = BigInt(quote.heldQnt) >= BigInt(quote.qntPaymentAmount);
              const amount = formatQnt(quote.qntPaymentAmount, { round: 'up' });
              return (
                <Stack spacing={2}>
                  <Box component="dl" sx={{ m: 0, border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1 }}>
                    <Figure label={t('pay.amountDue')}>{formatGbp(quote.amountDue)}</Figure>
                    <Figure label={t('pay.amountQnt')}>
                      <span data-testid="pay-qnt-amount">{amount}</span>
                    </Figure>
                    <Figure label={t('pay.rate')}>
                      {t('pay.rateValue', {
                        rate: formatGbpPerQnt(quote.gbpPerQnt),
                        date: formatDateTime(quote.rateAt, { withZone: true }),
                      })}
                    </Figure>
                    <Figure label={t('pay.expires')}>{formatDateTime(quote.expiresAt, { withZone: true })}</Figure>
                    <Figure label={t('pay.held')}>{formatQnt(quote.heldQnt)}</Figure>
                  </Box>
                  <Typography>
                    {isHeldEnough
                      ? t('pay.fromBalanceText', { amount })
                      : t('pay.transferText', { amount, held: formatQnt(quote.heldQnt) })}
                  </Typography>
                  {pay.isError ? (
                    <Alert severity="error">{`${t('pay.payFailed')} ${problemMessage(pay.error)}`}</Alert>
                  ) : null}
                  {hasNoQuote ? <Alert severity="error">{t('pay.noQuote')}</Alert> : null}
                  <Box>
                    <Button
                      variant="contained"
                      startIcon={<AccountBalanceWalletOutlinedIcon />}
                      loading={pay.isPending}
                      onClick={() => startPayment(quote)}
                    >
                      {isHeldEnough ? t('pay.fromBalance') : t('pay.startTransfer')}
                    </Button>
                  </Box>
                </Stack>
              );
            }}
          </QueryState>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{isPaid ? t('pay.close') : t('pay.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
