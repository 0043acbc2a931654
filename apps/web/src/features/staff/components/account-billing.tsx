import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TAccountDetailOrder, TManagementAccountDetail } from '@connect/shared';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format.ts';
import { formatGbp, formatQnt } from '../../../lib/plans/money.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { downloadAccountInvoice } from '../api/get-account-detail.ts';
import { MONOSPACE } from './identifier.tsx';
import { ORDER_CHIP_COLOURS, orderActionsOf } from './order-columns.tsx';
import { RecordReceiptDialog } from './record-receipt-dialog.tsx';
import { RefundOrderDialog } from './refund-order-dialog.tsx';

type Detail = TManagementAccountDetail;

/** A bordered row of a panel's list. */
function Row({ children }: { children: ReactNode }) {
  return (
    <Box component="li" sx={{ py: 1.25, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }}>
      {children}
    </Box>
  );
}

function List({ label, empty, children }: { label: string; empty: string; children: ReactNode[] }) {
  if (children.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 1 }}>
        {empty}
      </Typography>
    );
  }
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, p: 0 }}>
      {children}
    </Box>
  );
}

/** The ledger's balances: credits, QNT held for the customer, QNT earned in rewards. */
export function AccountBalances({ balances }: { balances: Detail['balances'] }) {
  const { t } = useTranslation('staff');
  const items = [
    [t('accounts.billing.credits'), formatNumber(BigInt(balances.credits))],
    [t('accounts.billing.qnt'), formatQnt(balances.qntWei)],
    [t('accounts.billing.rewardQnt'), formatQnt(balances.rewardQntWei)],
  ] as const;
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
      {items.map(([label, value]) => (
        <Box key={label} sx={{ flex: '1 1 120px', p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography sx={{ fontWeight: 600 }}>{value}</Typography>
        </Box>
      ))}
    </Stack>
  );
}

/**
 * The account's latest orders with what staff can do to each (administrators: record a bank
 * transfer against an open one, refund one paid by card), and its invoices, payments and credit
 * notes, each invoice opening as the customer's PDF.
 */
export function AccountBilling({ detail, isAdmin }: { detail: Detail; isAdmin: boolean }) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const [receiptFor, setReceiptFor] = useState<TAccountDetailOrder | null>(null);
  const [refundFor, setRefundFor] = useState<TAccountDetailOrder | null>(null);
  const openInvoice = (invoice: { id: string; number: string | null }) =>
    downloadAccountInvoice(detail.accountId, invoice).catch((error: unknown) =>
      snackbar.show({ title: t('accounts.billing.pdfFailed'), description: problemMessage(error), type: 'error' }),
    );
  const invoiceButton = (invoice: { id: string; number: string | null }) => (
    <Button
      size="small"
      startIcon={<PictureAsPdfOutlinedIcon />}
      onClick={() => void openInvoice(invoice)}
      aria-label={t('accounts.billing.openInvoice', { number: invoice.number ?? '' })}
    >
      {invoice.number ?? t('accounts.billing.draft')}
    </Button>
  );

  return (
    <>
      <Typography variant="h4" component="h4" sx={{ mt: 1 }}>
        {t('accounts.billing.orders')}
      </Typography>
      <List label={t('accounts.billing.orders')} empty={t('accounts.billing.noOrders')}>
        {detail.orders.map((order) => {
          const allowed = orderActionsOf(order);
          const canRecord = isAdmin && allowed.canRecord;
          const canRefund = isAdmin && allowed.canRefund;
          return (
            <Row key={order.id}>
              <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography sx={{ fontFamily: MONOSPACE, fontWeight: 600 }}>{order.reference}</Typography>
                <Chip
                  size="small"
                  label={t(`accounts.billing.orderStatuses.${order.status}`)}
                  color={ORDER_CHIP_COLOURS[order.status]}
                />
                <Typography sx={{ ml: 'auto', fontWeight: 600 }}>{formatGbp(order.totalGbpMinor)}</Typography>
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {t('accounts.billing.orderLine', {
                  what: order.planName ?? t(`accounts.billing.kinds.${order.kind}`),
                  method: t(`accounts.billing.methods.${order.paymentMethod}`),
                  date: formatDate(order.createdAt),
                })}
              </Typography>
              {order.status === 'AWAITING_PAYMENT' && order.paidGbpMinor > 0 ? (
                <Typography variant="body2">
                  {t('accounts.billing.partlyPaid', {
                    paid: formatGbp(order.paidGbpMinor),
                    left: formatGbp(order.totalGbpMinor - order.paidGbpMinor),
                  })}
                </Typography>
              ) : null}
              {order.refundedGbpMinor > 0 ? (
                <Typography variant="body2">
                  {t('accounts.billing.refunded', { amount: formatGbp(order.refundedGbpMinor) })}
                </Typography>
              ) : null}
              <Stack direction="row" sx={{ gap: 1, mt: 0.5, flexWrap: 'wrap' }}>
                {order.invoiceId ? invoiceButton({ id: order.invoiceId, number: order.invoiceNumber }) : null}
                {canRecord ? (
                  <Button size="small" variant="outlined" onClick={() => setReceiptFor(order)}>
                    {t('accounts.receipt.open')}
                  </Button>
                ) : null}
                {canRefund ? (
                  <Button size="small" variant="outlined" color="error" onClick={() => setRefundFor(order)}>
                    {t('accounts.refund.open')}
                  </Button>
                ) : null}
              </Stack>
            </Row>
          );
        })}
      </List>

      <Typography variant="h4" component="h4" sx={{ mt: 2 }}>
        {t('accounts.billing.invoices')}
      </Typography>
      <List label={t('accounts.billing.invoices')} empty={t('accounts.billing.noInvoices')}>
        {detail.invoices.map((invoice) => (
          <Row key={invoice.id}>
            <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              {invoice.status === 'DRAFT' ? (
                <Typography>{t('accounts.billing.draft')}</Typography>
              ) : (
                invoiceButton(invoice)
              )}
              <Chip size="small" variant="outlined" label={t(`accounts.billing.invoiceStatuses.${invoice.status}`)} />
              <Typography sx={{ ml: 'auto' }}>{formatGbp(invoice.totalMinor)}</Typography>
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {invoice.paidAt
                ? t('accounts.billing.invoicePaid', {
                    issued: formatDate(invoice.issuedAt),
                    paid: formatDate(invoice.paidAt),
                  })
                : t('accounts.billing.invoiceDue', {
                    issued: formatDate(invoice.issuedAt),
                    due: formatDate(invoice.dueAt),
                  })}
            </Typography>
          </Row>
        ))}
      </List>

      <Typography variant="h4" component="h4" sx={{ mt: 2 }}>
        {t('accounts.billing.payments')}
      </Typography>
      <List label={t('accounts.billing.payments')} empty={t('accounts.billing.noPayments')}>
        {detail.payments.map((payment) => (
          <Row key={payment.id}>
            <Stack direction="row" sx={{ gap: 1 }}>
              <Typography>
                {t('accounts.billing.paymentLine', {
                  method: t(`accounts.billing.methods.${payment.method}`),
                  order: payment.orderReference,
                })}
              </Typography>
              <Typography sx={{ ml: 'auto', fontWeight: 600 }}>{formatGbp(payment.amountGbpMinor)}</Typography>
            </Stack>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {formatDateTime(payment.receivedAt)} · <span style={{ fontFamily: MONOSPACE }}>{payment.externalId}</span>
            </Typography>
          </Row>
        ))}
      </List>

      {detail.creditNotes.length > 0 ? (
        <>
          <Typography variant="h4" component="h4" sx={{ mt: 2 }}>
            {t('accounts.billing.creditNotes')}
          </Typography>
          <List label={t('accounts.billing.creditNotes')} empty="">
            {detail.creditNotes.map((note) => (
              <Row key={note.id}>
                <Stack direction="row" sx={{ gap: 1 }}>
                  <Typography sx={{ fontFamily: MONOSPACE }}>{note.number ?? '–'}</Typography>
                  <Typography sx={{ ml: 'auto', fontWeight: 600 }}>−{formatGbp(note.amountMinor)}</Typography>
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {formatDate(note.issuedAt)} · {note.reason}
                </Typography>
              </Row>
            ))}
          </List>
        </>
      ) : null}

      {receiptFor ? (
        <RecordReceiptDialog accountId={detail.accountId} order={receiptFor} onClose={() => setReceiptFor(null)} />
      ) : null}
      {refundFor ? (
        <RefundOrderDialog accountId={detail.accountId} order={refundFor} onClose={() => setRefundFor(null)} />
      ) : null}
    </>
  );
}
