import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { qntToWei } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatQnt } from '../../../lib/plans/money.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useRewardTreasury } from '../api/get-reward-treasury.ts';
import { Identifier } from './identifier.tsx';

function Figure({ label, value, tone }: { label: string; value: string; tone?: 'error' }) {
  return (
    <Box sx={{ minWidth: 140 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', color: tone === 'error' ? 'error.main' : undefined }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/**
 * The treasury the rewards are paid from (GET /management/reward/treasury), above the campaigns:
 * publishing a campaign needs its budget free here (QNT value × participants, less what is already
 * promised), so staff see what is free before they publish. A chain that cannot be read is said
 * as a warning; the campaigns still work.
 */
export function CampaignTreasury() {
  const { t } = useTranslation('staff');
  const titleId = useId();
  const treasury = useRewardTreasury();

  if (treasury.isError) {
    return (
      <Alert
        severity="warning"
        sx={{ mb: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void treasury.refetch()}>
            {t('list.retry')}
          </Button>
        }
      >
        {t('campaigns.treasury.unavailable')} {problemMessage(treasury.error)}
      </Alert>
    );
  }
  const data = treasury.data;
  const balance = data ? (qntToWei(data.balance) ?? 0n) : 0n;
  const promised = data ? (qntToWei(data.promised) ?? 0n) : 0n;
  const free = balance - promised;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2, mb: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: { md: 'center' } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0, flex: 1 }}>
          <AccountBalanceOutlinedIcon color="action" aria-hidden />
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} variant="subtitle2" component="h2">
              {data ? t('campaigns.treasury.title', { network: data.networkName }) : t('campaigns.treasury.titlePlain')}
            </Typography>
            {data ? (
              <Identifier value={data.address} copyLabel={t('campaigns.treasury.copyAddress')} />
            ) : (
              <Skeleton width={220} />
            )}
          </Box>
        </Stack>
        {data ? (
          <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Figure label={t('campaigns.treasury.balance')} value={formatQnt(balance)} />
            <Figure label={t('campaigns.treasury.promised')} value={formatQnt(promised)} />
            <Figure
              label={t('campaigns.treasury.free')}
              value={free < 0n ? `−${formatQnt(-free)}` : formatQnt(free)}
              {...(free < 0n ? { tone: 'error' as const } : {})}
            />
          </Stack>
        ) : (
          <Skeleton width={360} height={44} />
        )}
      </Stack>
    </Paper>
  );
}
