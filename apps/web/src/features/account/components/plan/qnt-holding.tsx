import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TSubscription } from '@connect/shared';
import { CopyButton } from '../../../../components/copy-button.tsx';
import { formatQnt } from '../../../../lib/plans/money.ts';
import { DetailRow } from '../account-section.tsx';

/**
 * The QNT held for the customer (over-payments, what arrived after a quote expired, transfers
 * without an order) and their deposit address: QNT sent there is held for them and counts toward
 * their next order paid in QNT. Shown once there is something to show.
 */
export function QntHolding({ qnt }: { qnt: TSubscription['qnt'] }) {
  const { t } = useTranslation('account');
  if (!qnt || (BigInt(qnt.held) === 0n && !qnt.depositAddress)) return null;
  return (
    <Box component="section" aria-labelledby="plan-qnt-title" sx={{ mt: 3 }}>
      <Typography id="plan-qnt-title" variant="h4" component="h3" sx={{ mb: 1.5 }}>
        {t('myAccount.plan.qnt.title')}
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailRow label={t('myAccount.plan.qnt.held')}>
          <Box component="span" sx={{ fontWeight: 600 }} data-testid="qnt-held">
            {formatQnt(qnt.held)}
          </Box>
        </DetailRow>
        {qnt.depositAddress ? (
          <DetailRow label={t('myAccount.plan.qnt.depositAddress')}>
            <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="qnt-address">
              {qnt.depositAddress}
            </Box>
            <CopyButton value={qnt.depositAddress} label={t('myAccount.plan.qnt.copyAddress')} />
          </DetailRow>
        ) : null}
        {qnt.depositAddress && qnt.chainId !== null ? (
          <DetailRow label={t('myAccount.plan.qnt.chain')}>
            {qnt.networkName ? `${qnt.networkName} (chain id ${qnt.chainId})` : qnt.chainId}
          </DetailRow>
        ) : null}
        {qnt.tokenAddress ? (
          <DetailRow label={t('myAccount.plan.qnt.token')}>
            <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
              {qnt.tokenAddress}
            </Box>
          </DetailRow>
        ) : null}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('myAccount.plan.qnt.hint')}
      </Typography>
    </Box>
  );
}
