import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { TOptinsResponse } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRewardQnt, weiOf } from '../format.ts';

/** Whether the balance reaches the smallest claim (the Claim button is disabled, with the reason, otherwise). */
export function canClaim(state: Pick<TOptinsResponse, 'balance' | 'minClaim'>): boolean {
  return weiOf(state.balance) > 0n && weiOf(state.balance) >= weiOf(state.minClaim);
}

/**
 * The account's REWARD_QNT (from the ledger, through GET /campaigns/optins): what may be claimed,
 * what pending claims hold, and the Claim button.
 */
export function BalanceCard({ state, onClaim }: { state: TOptinsResponse; onClaim: () => void }) {
  const { t } = useTranslation('reward');
  const reasonId = useId();
  const isClaimable = canClaim(state);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="reward-balance" sx={{ p: 3, height: '100%' }}>
      <Typography id="reward-balance" variant="h2" sx={{ fontSize: 18 }}>
        {t('balance.title')}
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mt: 2 }}>
        {t('balance.label')}
      </Typography>
      <Typography sx={{ fontSize: 32, fontWeight: 600, lineHeight: 1.3 }} data-testid="reward-balance">
        {formatRewardQnt(state.balance)}
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ minHeight: 20 }}>
        {weiOf(state.held) > 0n ? t('balance.held', { amount: formatRewardQnt(state.held) }) : null}
      </Typography>
      <Button
        variant="contained"
        sx={{ mt: 2 }}
        onClick={onClaim}
        disabled={!isClaimable}
        {...(isClaimable ? {} : { 'aria-describedby': reasonId })}
      >
        {t('balance.claim')}
      </Button>
      {isClaimable ? null : (
        <Typography id={reasonId} color="text.secondary" variant="body2" sx={{ mt: 1 }}>
          {t('balance.belowMinimum', { min: formatRewardQnt(state.minClaim) })}
        </Typography>
      )}
    </Paper>
  );
}

/** The balance card's place while the reward state loads: the same size, so nothing moves. */
export function BalanceCardSkeleton() {
  return <Skeleton variant="rounded" height={232} aria-hidden />;
}
