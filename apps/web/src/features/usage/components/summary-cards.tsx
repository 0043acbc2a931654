import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { TBalanceHistory, TUsageReport } from '@connect/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BUY_CREDITS_HREF } from '../../../components/layouts/main-layout/low-credits-banner.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatUsd, formatUsdPerCredit } from '../../../lib/plans/money.ts';
import { fetchPlansQuery, subscriptionQuery } from '../../../lib/plans/api.ts';
import { formatCredits, formatUtcDate, formatUtcMonth } from '../utils/format.ts';
import { SummaryCard } from '../../../components/summary-card.tsx';

function Figure({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h2" component="p" sx={{ mt: 0.5, fontVariantNumeric: 'tabular-nums' }}>
      {children}
    </Typography>
  );
}

const skeleton = (
  <Box aria-busy="true">
    <Skeleton width="45%" height={40} />
    <Skeleton width="75%" />
  </Box>
);

/** Buy credits where the plan sells bundles, else Upgrade plan (as the dashboard's credits card). */
function CreditsAction() {
  const { t } = useTranslation('usage');
  const subscription = useQuery(subscriptionQuery());
  const plans = useQuery(fetchPlansQuery());
  const planId = subscription.data?.plan.id;
  const sellsCredits = Boolean(
    planId &&
    plans.data?.groups.some((group) => group.tiers.some((tier) => tier.id === planId && tier.hasCreditBundles)),
  );
  if (!subscription.data || !plans.data) return null;
  return (
    <Button
      variant="outlined"
      size="small"
      component={RouterLink}
      to={sellsCredits ? BUY_CREDITS_HREF : paths.accountPlanUpgrade}
      sx={{ mt: 2 }}
    >
      {sellsCredits ? t('summary.buy') : t('summary.upgrade')}
    </Button>
  );
}

/** The month so far, where it leads, and the credits left (the account's, whatever the filters). */
export function SummaryCards({
  report,
  balance,
}: {
  report: UseQueryResult<TUsageReport>;
  balance: UseQueryResult<TBalanceHistory>;
}) {
  const { t } = useTranslation('usage');
  const credits = (value: number) => t('summary.credits', { formatted: formatCredits(value) });
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
      <SummaryCard title={t('summary.used')}>
        <QueryState query={report} loading={skeleton} errorMessage={t('summary.loadFailed')} errorVariant="row">
          {({ forecast }) => (
            <>
              <Figure>{credits(forecast.usedCredits)}</Figure>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {t('summary.usedText', { month: formatUtcMonth(forecast.month) })}
              </Typography>
            </>
          )}
        </QueryState>
      </SummaryCard>
      <SummaryCard title={t('summary.predicted')}>
        <QueryState query={report} loading={skeleton} errorMessage={t('summary.loadFailed')} errorVariant="row">
          {({ forecast }) => (
            <>
              <Figure>{credits(forecast.predictedCredits)}</Figure>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {forecast.predictedCostUsdCents !== null
                  ? forecast.creditPriceUsdCents === null
                    ? t('summary.predictedCostOnly', { cost: formatUsd(forecast.predictedCostUsdCents) })
                    : t('summary.predictedCost', {
                        cost: formatUsd(forecast.predictedCostUsdCents),
                        price: formatUsdPerCredit(forecast.creditPriceUsdCents),
                      })
                  : forecast.creditsRunOutOn
                    ? t('summary.runsOut', { date: formatUtcDate(forecast.creditsRunOutOn) })
                    : t('summary.lasts')}
              </Typography>
            </>
          )}
        </QueryState>
      </SummaryCard>
      <SummaryCard title={t('summary.balance')}>
        <QueryState query={balance} loading={skeleton} errorMessage={t('summary.loadFailed')} errorVariant="row">
          {(history) => (
            <>
              <Figure>{t('summary.credits', { formatted: formatNumber(history.available) })}</Figure>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {history.floor < 0
                  ? t('summary.creditLimit', { limit: formatNumber(-history.floor) })
                  : t('summary.balanceText')}
              </Typography>
              <CreditsAction />
            </>
          )}
        </QueryState>
      </SummaryCard>
    </Box>
  );
}
