import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOrder, TQntPayment, TQntPaymentReason, TQntPaymentStatus } from '@connect/shared';
import { formatDateTime } from '../../lib/format.ts';
import { isAwaitingRest, outstandingWei, receivedWei, sentTransfers } from '../../lib/payment/qnt.ts';
import { exactQnt, formatGbpPerQnt, formatQnt } from '../../lib/plans/money.ts';
import { walletMessage } from '../../lib/wallet/errors.ts';
import { CopyButton } from '../copy-button.tsx';
import { QntTransfers, shortHash } from './qnt-transfers.tsx';
import { useQntWalletPayment } from './use-qnt-wallet-payment.ts';

/** Status colours of shared/UI.md: amber while unpaid, blue while it moves, green paid, grey ended, red refused. */
const STATUS_COLOURS: Record<TQntPaymentStatus, ChipProps['color']> = {
  NEW: 'warning',
  PROCESSING: 'info',
  SETTLED: 'success',
  EXPIRED: 'default',
  INVALID: 'error',
};
const REASON_COLOURS: Record<TQntPaymentReason, ChipProps['color']> = {
  PAID_PARTIAL: 'warning',
  PAID_OVER: 'info',
  PAID_LATE: 'warning',
};

/** Where the customer gets MetaMask when the browser has no wallet. */
const METAMASK_DOWNLOAD_URL = 'https://metamask.io/download/';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' },
        gap: { sm: 2 },
        alignItems: 'baseline',
        py: 0.5,
      }}
    >
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography
        component="dd"
        sx={{
          m: 0,
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          minWidth: 0,
          // A small icon button is 30 px high, a line 24 px: without the negative margins a row with
          // a copy button is taller than the others and its value sits below its label's baseline.
          '& .MuiIconButton-root': { my: '-3px' },
        }}
      >
        {children}
      </Typography>
    </Box>
  );
}

/**
 * The QNT side of an order, live (BTCPay Server's states): New — what to send, where and until
 * when, and the wallet payment; Processing — each transfer's confirmations; Settled; Expired —
 * what was sent is held as QNT; Invalid; with PaidPartial, PaidOver or PaidLate beside the status.
 * The deposit address is always shown with a copy button: the chain follower sees any transfer
 * to it, from an exchange or another wallet too. `autoPay` starts the wallet payment once, as the
 * panel opens (the customer pressed "Continue to MetaMask").
 */
export function QntPaymentPanel({
  order,
  autoPay = false,
  headingComponent = 'h2',
  headingRef,
}: {
  order: TOrder & { qnt: TQntPayment };
  autoPay?: boolean;
  headingComponent?: 'h2' | 'h3' | 'h4';
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useTranslation('accountPlan');
  const { qnt } = order;
  const wallet = useQntWalletPayment(order);
  const outstanding = outstandingWei(qnt);
  const unseen = sentTransfers.unseen(order.id, qnt);
  const canPay = outstanding > 0n && unseen.length === 0;
  const due = formatQnt(qnt.amountDue, { round: 'up' });
  const received = receivedWei(qnt);
  const network = qnt.networkName;
  // A partial payment waiting for the rest reads like a new one (what to send), beside its status.
  const view = isAwaitingRest(qnt) ? 'PARTIAL' : qnt.status;

  const hasStarted = useRef(false);
  const { pay } = wallet;
  useEffect(() => {
    if (!autoPay || hasStarted.current) return;
    hasStarted.current = true;
    void pay();
  }, [autoPay, pay]);

  const isBusy = wallet.phase !== 'idle';
  const errorMessage = wallet.walletError ? walletMessage(wallet.walletError.code) : null;
  const isHeading = headingComponent === 'h2';
  const hasNoWallet = wallet.walletError?.code === 'NO_WALLET';
  // The quote's times name their zone, as the order's email does.
  const expiry = formatDateTime(qnt.expiresAt, { withZone: true });

  return (
    <Stack spacing={2.5}>
      <Box aria-live="polite">
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 1 }}>
          <Typography
            ref={headingRef}
            tabIndex={-1}
            variant={isHeading ? 'h3' : 'h4'}
            component={headingComponent}
            sx={{ outline: 'none' }}
          >
            {t(`qnt.title.${view}`)}
          </Typography>
          <Chip size="small" color={STATUS_COLOURS[qnt.status]} label={t(`qnt.status.${qnt.status}`)} />
          {qnt.reason ? (
            <Chip
              size="small"
              variant="outlined"
              color={REASON_COLOURS[qnt.reason]}
              label={t(`qnt.reason.${qnt.reason}`)}
            />
          ) : null}
        </Stack>
        <Typography>{t(`qnt.body.${view}`, { amount: due, network, expiry })}</Typography>
        {qnt.reason ? (
          <Typography sx={{ mt: 1, fontWeight: 600 }} data-testid="qnt-reason">
            {t(`qnt.reasonText.${qnt.reason}`, { received: formatQnt(received), due })}
          </Typography>
        ) : null}
      </Box>

      <Box component="dl" sx={{ m: 0, border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1 }}>
        <Row label={t('qnt.amountDue')}>
          <Box component="span" sx={{ fontWeight: 600 }} data-testid="qnt-amount-due">
            {due}
          </Box>
          <CopyButton value={exactQnt(qnt.amountDue)} label={t('qnt.copyAmount')} />
        </Row>
        {received > 0n ? <Row label={t('qnt.received')}>{formatQnt(received)}</Row> : null}
        <Row label={t('qnt.rate')}>
          {t('qnt.rateValue', {
            rate: formatGbpPerQnt(qnt.gbpPerQnt),
            date: formatDateTime(qnt.rateAt, { withZone: true }),
          })}
        </Row>
        <Row label={t('qnt.expires')}>{expiry}</Row>
        <Row label={t('qnt.network')}>{t('qnt.networkValue', { network, chainId: qnt.chainId })}</Row>
        <Row label={t('qnt.depositAddress')}>
          <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="qnt-deposit">
            {qnt.depositAddress}
          </Box>
          <CopyButton value={qnt.depositAddress} label={t('qnt.copyAddress')} />
        </Row>
        <Row label={t('qnt.token')}>
          <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="qnt-token">
            {qnt.tokenAddress}
          </Box>
          <CopyButton value={qnt.tokenAddress} label={t('qnt.copyToken')} />
        </Row>
      </Box>

      <QntTransfers transfers={qnt.transfers} />

      {unseen.length > 0 && qnt.status === 'NEW' ? (
        <Alert severity="info" icon={<CircularProgress size={18} aria-hidden />}>
          {t('qnt.sent', { hash: shortHash(unseen[0]!) })}
        </Alert>
      ) : null}

      {canPay || isBusy ? (
        <Box component="section" aria-label={t('qnt.walletSection')}>
          {isBusy ? (
            <Alert severity="info" icon={<CircularProgress size={18} aria-hidden />} role="status">
              {t(`qnt.phase.${wallet.phase}`, { network, amount: formatQnt(outstanding, { round: 'up' }) })}
            </Alert>
          ) : (
            <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
              {errorMessage ? (
                <Alert
                  severity="error"
                  sx={{ alignSelf: 'stretch' }}
                  action={
                    hasNoWallet ? (
                      <Button
                        component="a"
                        href={METAMASK_DOWNLOAD_URL}
                        target="_blank"
                        rel="noopener noreferrer"
                        color="inherit"
                        size="small"
                        endIcon={<OpenInNewIcon titleAccess={t('qnt.opensInNewTab')} />}
                        sx={{ whiteSpace: 'nowrap' }}
                      >
                        {t('qnt.getMetaMask')}
                      </Button>
                    ) : undefined
                  }
                >
                  <Typography sx={{ fontWeight: 600 }}>{errorMessage}</Typography>
                  {hasNoWallet ? (
                    <Typography variant="body2">
                      {t('qnt.noWallet', { amount: formatQnt(outstanding, { round: 'up' }), network })}
                    </Typography>
                  ) : null}
                  {wallet.walletError?.code === 'UNKNOWN_CHAIN' ? (
                    <Typography variant="body2">{t('qnt.unknownChain', { network, chainId: qnt.chainId })}</Typography>
                  ) : null}
                </Alert>
              ) : null}
              <Button variant="contained" startIcon={<AccountBalanceWalletOutlinedIcon />} onClick={() => void pay()}>
                {t('qnt.payWithWallet', { amount: formatQnt(outstanding, { round: 'up' }) })}
              </Button>
              {/* Without a wallet the alert above already says so. */}
              {hasNoWallet ? null : (
                <Typography variant="body2" color="text.secondary">
                  {t('qnt.elsewhere', { network })}
                </Typography>
              )}
            </Stack>
          )}
        </Box>
      ) : null}

      {wallet.confirmError ? (
        <Alert severity="warning">{t('qnt.confirmFailed', { message: wallet.confirmError })}</Alert>
      ) : null}
      {wallet.picker}
    </Stack>
  );
}
