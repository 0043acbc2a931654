import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import {
  isFeatureAvailable,
  type PlanStatus,
  type TAvailableFeatures,
  type TRatePlan,
  type TSubscription,
} from '@connect/shared';
import { BUY_CREDITS_HREF } from '../../../components/layouts/main-layout/low-credits-banner.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { SummaryCard } from '../../../components/summary-card.tsx';

/** Status colours of shared/UI.md: green active, amber pending, grey inactive, red disabled. */
const STATUS_COLOURS: Record<PlanStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PENDING: 'warning',
  INACTIVE: 'default',
  DISABLED: 'error',
};

/**
 * A summary card loading: its figure, a line of text, the plan's counters (a name over a figure,
 * 44 px) and its button. Without the counters' place the row of both cards grew by ~60 px when
 * they arrived and moved the updates below (Lighthouse CLS 0.007 on /dashboard, issue 30).
 */
function SummarySkeleton({
  figureWidth,
  lineWidth,
  hasCounters = false,
}: {
  figureWidth: string;
  lineWidth: string;
  hasCounters?: boolean;
}) {
  return (
    <Box aria-busy="true">
      <Skeleton width={figureWidth} height={40} />
      <Skeleton width={lineWidth} />
      {hasCounters ? <Skeleton variant="rounded" width="60%" height={44} sx={{ mt: 2 }} /> : null}
      <Skeleton variant="rounded" width={140} height={36} sx={{ mt: 2 }} />
    </Box>
  );
}

/**
 * The counters of the plan card: the features' totals (`GET /available`), which follow the plan,
 * each shown only while the account has the area it counts (`requires`): the plan's bridge total
 * is there for every account, but bridges only for one with the `bridge` feature (the Bridges
 * beta, issue 35 §5).
 */
const COUNTED: readonly { name: string; feature: string; requires?: string }[] = [
  { name: 'applications', feature: 'applications:create' },
  { name: 'tokens', feature: 'tokens:create' },
  { name: 'bridges', feature: 'bridges:create', requires: 'bridge' },
];

function Counters({ features }: { features: TAvailableFeatures | undefined }) {
  const { t } = useTranslation('account');
  if (!features) return null;
  const shown = COUNTED.filter(
    ({ feature, requires }) => features[feature] && (!requires || isFeatureAvailable(features, requires)),
  );
  if (shown.length === 0) return null;
  return (
    <Box
      component="dl"
      aria-label={t('dashboard.plan.counters')}
      sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', m: 0, mt: 2 }}
    >
      {shown.map(({ name, feature }) => {
        const { t: total, a: used } = features[feature]!;
        const isOver = total !== null && used > total;
        return (
          <Box key={name} data-testid={`counter-${name}`}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {t(`dashboard.plan.counterNames.${name}`)}
            </Typography>
            <Typography
              component="dd"
              sx={{
                m: 0,
                fontWeight: 600,
                fontVariantNumeric: 'tabular-nums',
                color: isOver ? 'error.main' : undefined,
              }}
            >
              {total === null
                ? t('dashboard.plan.counterUnlimited', { used: formatNumber(used) })
                : t('dashboard.plan.counter', { used: formatNumber(used), total: formatNumber(total) })}
              {isOver ? (
                <Typography component="span" variant="body2" sx={{ display: 'block', fontWeight: 400 }}>
                  {t('dashboard.plan.overAllowance')}
                </Typography>
              ) : null}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}

/** When the plan ends or renews: the trial's end, the end of a cancelled plan, or the renewal. */
function PlanDate({ subscription }: { subscription: TSubscription }) {
  const { t } = useTranslation('account');
  let text: string;
  if (subscription.plan.type === 'TRIAL' && subscription.trialEndsAt) {
    text = t('dashboard.plan.trialEndsOn', { date: formatDate(subscription.trialEndsAt) });
  } else if (!subscription.periodEnd) {
    text = t('dashboard.plan.noRenewal');
  } else {
    const date = formatDate(subscription.periodEnd);
    text = subscription.cancelAtPeriodEnd
      ? t('dashboard.plan.endsOn', { date })
      : t('dashboard.plan.renewsOn', { date });
  }
  return (
    <Typography color="text.secondary" sx={{ mt: 1 }}>
      {text}
    </Typography>
  );
}

export function PlanCard({
  subscription,
  features,
}: {
  subscription: UseQueryResult<TSubscription>;
  features: TAvailableFeatures | undefined;
}) {
  const { t } = useTranslation('account');
  return (
    <SummaryCard title={t('dashboard.plan.title')}>
      <QueryState
        query={subscription}
        loading={<SummarySkeleton figureWidth="50%" lineWidth="35%" hasCounters />}
        errorMessage={t('dashboard.plan.loadFailed')}
        errorVariant="row"
      >
        {(current) => (
          <>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}>
              <Typography variant="h2" component="p">
                {current.plan.name}
              </Typography>
              <Chip
                size="small"
                color={STATUS_COLOURS[current.status]}
                label={t(`options.planStatus.${current.status}`)}
              />
            </Stack>
            <PlanDate subscription={current} />
            <Counters features={features} />
            <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
              {/* Spec §2.2: while a plan change is pending, upgrading again is not offered. */}
              {current.status === 'PENDING' ? (
                <Button variant="outlined" disabled>
                  {t('dashboard.plan.upgradePending')}
                </Button>
              ) : (
                <Button variant="outlined" component={RouterLink} to={paths.accountPlanUpgrade}>
                  {t('dashboard.plan.upgrade')}
                </Button>
              )}
              <Button variant="text" component={RouterLink} to={paths.myAccount}>
                {t('dashboard.plan.manage')}
              </Button>
            </Stack>
          </>
        )}
      </QueryState>
    </SummaryCard>
  );
}

export function CreditsCard({
  subscription,
  plans,
}: {
  subscription: UseQueryResult<TSubscription>;
  plans: TRatePlan[] | undefined;
}) {
  const { t } = useTranslation('account');
  return (
    <SummaryCard title={t('dashboard.credits.title')}>
      <QueryState
        query={subscription}
        loading={<SummarySkeleton figureWidth="40%" lineWidth="70%" />}
        errorMessage={t('dashboard.credits.loadFailed')}
        errorVariant="row"
      >
        {(current) => {
          const { available, floor } = current.credits;
          const sellsCredits = Boolean(plans?.some((plan) => plan.id === current.plan.id && plan.hasCreditBundles));
          return (
            <>
              <Typography variant="h2" component="p" sx={{ mt: 0.5, fontVariantNumeric: 'tabular-nums' }}>
                {formatNumber(available)}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {t('dashboard.credits.description')}
                {floor < 0 ? ` ${t('dashboard.credits.creditLimit', { limit: formatNumber(-floor) })}` : null}
              </Typography>
              {current.lowCredits ? (
                <Alert
                  severity="warning"
                  sx={{ mt: 2 }}
                  action={
                    <Button
                      color="inherit"
                      size="small"
                      component={RouterLink}
                      to={sellsCredits ? BUY_CREDITS_HREF : paths.accountPlanUpgrade}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {sellsCredits ? t('dashboard.credits.buy') : t('dashboard.credits.upgrade')}
                    </Button>
                  }
                >
                  <AlertTitle>{t('dashboard.credits.lowTitle')}</AlertTitle>
                  {t(sellsCredits ? 'dashboard.credits.lowText' : 'dashboard.credits.lowTextUpgrade', {
                    formatted: formatNumber(available),
                  })}
                </Alert>
              ) : null}
              <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }}>
                {sellsCredits && !current.lowCredits ? (
                  <Button variant="outlined" component={RouterLink} to={BUY_CREDITS_HREF}>
                    {t('dashboard.credits.buy')}
                  </Button>
                ) : null}
                <Button variant="text" component={RouterLink} to={paths.usage}>
                  {t('dashboard.credits.usage')}
                </Button>
                <Button variant="text" component={RouterLink} to={paths.invoices}>
                  {t('dashboard.credits.invoices')}
                </Button>
              </Stack>
            </>
          );
        }}
      </QueryState>
    </SummaryCard>
  );
}
