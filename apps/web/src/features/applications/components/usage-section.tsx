import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useApplicationUsage } from '../api/get-application-usage.ts';

// The chart (and its library) is only needed once a details dialog opens.
const UsageChart = lazy(() => import('./usage-chart.tsx').then((m) => ({ default: m.UsageChart })));

/** The usage page filtered to one application (it reads `applicationId` from the address). */
export function usageHrefOf(applicationId: string): string {
  return `${paths.usage}?${new URLSearchParams({ applicationId }).toString()}`;
}

/** Daily requests of an application through the gateway: loading, error with retry, empty, chart. */
export function UsageSection({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation('applicationManager');
  const usage = useApplicationUsage(applicationId);
  const skeleton = <Skeleton variant="rounded" height={180} aria-label={t('chart.loading')} />;
  return (
    <QueryState query={usage} loading={skeleton} errorMessage={t('details.usageError')}>
      {(daily) => (
        <Suspense fallback={skeleton}>
          <UsageChart usage={daily} />
          {daily.total === 0 ? (
            <Alert severity="info" variant="outlined" sx={{ mt: 1 }}>
              {t('details.usageEmpty')}
            </Alert>
          ) : null}
          <Link
            component={RouterLink}
            to={usageHrefOf(applicationId)}
            variant="body2"
            sx={{ display: 'inline-block', mt: 1 }}
          >
            {t('details.usageByMethod')}
          </Link>
        </Suspense>
      )}
    </QueryState>
  );
}
