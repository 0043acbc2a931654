import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import type { TTokenDetails } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { openHelpInstead } from '../../../lib/outside-tools/index.ts';
import { tokenPaths } from '../token-paths.ts';
import { shorten } from './identifier.tsx';
import { TokenStatusChip } from './token-status-chip.tsx';

/** Coin details' header actions: the token's status, and the connected wallet or a button to connect one. */
export function CoinHeaderActions({
  token,
  walletAddress,
  onConnect,
}: {
  token: TTokenDetails;
  walletAddress: string | undefined;
  onConnect: () => void;
}) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TokenStatusChip status={token.status} />
      {walletAddress ? (
        <Chip
          icon={<AccountBalanceWalletOutlinedIcon />}
          variant="outlined"
          label={shorten(walletAddress)}
          title={t('wallet.connectedAs', { address: walletAddress })}
          aria-label={t('wallet.connectedAs', { address: walletAddress })}
        />
      ) : (
        <Button variant="outlined" startIcon={<AccountBalanceWalletOutlinedIcon />} onClick={onConnect}>
          {t('wallet.connect')}
        </Button>
      )}
    </Stack>
  );
}

/** What coin details says above its sections: a wallet that could not connect, a deployment pending or failed. */
export function CoinStatusNotices({ token, walletError }: { token: TTokenDetails; walletError: string | null }) {
  const { t } = useTranslation('quantPortfolio');
  return (
    <>
      {walletError ? <Alert severity="error">{walletError}</Alert> : null}
      {token.status === 'PENDING' ? (
        <Alert severity="info">
          {t('details.pending')}
          <LinearProgress sx={{ mt: 1 }} aria-label={t('details.pending')} />
        </Alert>
      ) : null}
      {token.status === 'FAILED' ? (
        <Alert
          severity="error"
          action={
            <Button
              component={RouterLink}
              to={tokenPaths.support()}
              onClick={openHelpInstead}
              color="inherit"
              size="small"
            >
              {t('stepper.deploy.contactSupport')}
            </Button>
          }
        >
          {t('stepper.deploy.failedNotice')}
          {token.failureReason ? ` (${token.failureReason})` : ''}
        </Alert>
      ) : null}
    </>
  );
}
