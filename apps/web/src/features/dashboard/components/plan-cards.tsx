import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PlanStatus, TPlanInfo } from '@connect/shared';
import { QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';

/** Status colours of shared/UI.md: green active, amber pending, grey inactive, red disabled. */
const STATUS_COLOURS: Record<PlanStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PENDING: 'warning',
  INACTIVE: 'default',
  DISABLED: 'error',
};

function SummaryCard({ titleId, title, children }: { titleId: string; title: string; children: React.ReactNode }) {
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>
        <Typography id={titleId} variant="overline" component="h2" color="text.secondary" sx={{ lineHeight: 1.5 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** A summary card loading: its figure, a line of text and its button. */
function SummarySkeleton({ figureWidth, lineWidth }: { figureWidth: string; lineWidth: string }) {
  return (
    <Box aria-busy="true">
      <Skeleton width={figureWidth} height={40} />
      <Skeleton width={lineWidth} />
      <Skeleton variant="rounded" width={140} height={36} sx={{ mt: 2 }} />
    </Box>
  );
}

export function PlanCard({ plan }: { plan: UseQueryResult<TPlanInfo> }) {
  const { t } = useTranslation('account');
  return (
    <SummaryCard titleId="plan-card-title" title={t('dashboard.plan.title')}>
      <QueryState
        query={plan}
        loading={<SummarySkeleton figureWidth="50%" lineWidth="35%" />}
        errorMessage={t('dashboard.plan.loadFailed')}
        errorVariant="row"
      >
        {(info) => (
          <>
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}>
              <Typography variant="h2" component="p">
                {info.name}
              </Typography>
              <Chip size="small" color={STATUS_COLOURS[info.status]} label={t(`options.planStatus.${info.status}`)} />
            </Stack>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {info.renewsAt
                ? t('dashboard.plan.renewsOn', { date: formatDate(info.renewsAt) })
                : t('dashboard.plan.noRenewal')}
            </Typography>
            <Box sx={{ mt: 2 }}>
              {/* Spec §2.2: while a plan change is pending, upgrading again is not offered. */}
              {info.status === 'PENDING' ? (
                <Button variant="outlined" disabled>
                  {t('dashboard.plan.upgradePending')}
                </Button>
              ) : (
                <Button variant="outlined" component={RouterLink} to={paths.accountPlanUpgrade}>
                  {t('dashboard.plan.upgrade')}
                </Button>
              )}
            </Box>
          </>
        )}
      </QueryState>
    </SummaryCard>
  );
}

export function CreditsCard({ plan }: { plan: UseQueryResult<TPlanInfo> }) {
  const { t } = useTranslation('account');
  return (
    <SummaryCard titleId="credits-card-title" title={t('dashboard.credits.title')}>
      <QueryState
        query={plan}
        loading={<SummarySkeleton figureWidth="40%" lineWidth="70%" />}
        errorMessage={t('dashboard.credits.loadFailed')}
        errorVariant="row"
      >
        {(info) => (
          <>
            <Typography variant="h2" component="p" sx={{ mt: 0.5, fontVariantNumeric: 'tabular-nums' }}>
              {formatNumber(info.credits)}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {t('dashboard.credits.description', { count: info.credits })}
            </Typography>
            <Box sx={{ mt: 2 }}>
              <Button variant="text" component={RouterLink} to={paths.invoices}>
                {t('dashboard.credits.invoices')}
              </Button>
            </Box>
          </>
        )}
      </QueryState>
    </SummaryCard>
  );
}
