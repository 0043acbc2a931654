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
import { isProblem, problemMessage } from '../../../lib/problems.ts';
import { getInvoiceQueryOptions, invoicesKey, useInvoicePaymentRate, usePayInvoiceWithQnt } from '../api/invoices.ts';
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
  const [hasPaid, setHasPaid] = useState(false);
  // The invoice as it stands (the page's own query, or read now from a list): a rate is asked only
  // while it is OPEN — a paid invoice has none (409), whether it was paid here, elsewhere while the
  // dialog was open (a push or a refresh says so), or before the dialog opened on a list read earlier.
  const current = useQuery({ ...getInvoiceQueryOptions(invoice.id), enabled: open });
  const status = current.data?.status;
  const isPaid = hasPaid || status === 'PAID';
  const isClosed = !isPaid && status === 'VOID';
  const rate = useInvoicePaymentRate(invoice.id, open && !isPaid && status === 'OPEN' && !walletOrder);
  const pay = usePayInvoiceWithQnt(invoice.id);

  const [hasNoQuote, setHasNoQuote] = useState(false);

  const markPaid = useCallback(() => {
    setHasPaid(true);
    // The invoice and the list show it paid (the rate is outside these keys: never asked again).
    void queryClient.invalidateQueries({ queryKey: invoicesKey });
  }, [queryClient]);

  // Paid or withdrawn between the invoice's read and the rate's (409): the invoice is read again, and says which.
  const isRateRefused = rate.isError && isProblem(rate.error, 'INVOICE_NOT_PAYABLE');
  useEffect(() => {
    if (isRateRefused) void queryClient.invalidateQueries({ queryKey: getInvoiceQueryOptions(invoice.id).queryKey });
  }, [isRateRefused, queryClient, invoice.id]);

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

  const loadingQuote = <Skeleton variant="rounded" height={180} aria-label={t('pay.loading')} />;

  const paid = (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }} role="status">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CheckCircleOutlineIcon color="success" aria-hidden />
        <Typography variant="h3" component="h3">
          {t('pay.paidTitle')}
        </Typography>
      </Stack>
      <Typography>{t('pay.paidText', { number: invoice.number })}</Typography>
      <ReceiptActions
        invoice={{ ...invoice, receipt: (current.data?.receipt ?? null) as TReceipt | null }}
        accountId={accountId}
      />
    </Stack>
  );

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('pay.title', { number: invoice.number })}</DialogTitle>
      <DialogContent>
        {isPaid ? (
          paid
        ) : isClosed ? (
          <Alert severity="info">{t('pay.notPayable', { number: invoice.number })}</Alert>
        ) : walletOrder ? (
          <WalletPayment order={walletOrder} onPaid={markPaid} />
        ) : status !== 'OPEN' || (isRateRefused && current.isFetching) ? (
          // The invoice is read first (its rate only while it is open), or again after a refused rate.
          <QueryState
            query={current}
            loading={loadingQuote}
            errorMessage={(error) => `${t('pay.loadError')} ${problemMessage(error)}`}
          >
            {() => loadingQuote}
          </QueryState>
        ) : (
          <QueryState
            query={rate}
            loading={loadingQuote}
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
