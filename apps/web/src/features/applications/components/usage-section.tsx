import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state.tsx';
import { useApplicationUsage } from '../api/get-application-usage.ts';

// The chart is only needed once a details dialog opens.
const UsageChart = lazy(() => import('./usage-chart.tsx').then((m) => ({ default: m.UsageChart })));

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
        </Suspense>
      )}
    </QueryState>
  );
}
