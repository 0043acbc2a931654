import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useApplicationUsage } from '../api/get-application-usage.ts';

// The chart is only needed once a details dialog opens.
const UsageChart = lazy(() => import('./usage-chart.tsx').then((m) => ({ default: m.UsageChart })));

/** Daily requests of an application through the gateway: loading, error with retry, empty, chart. */
export function UsageSection({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation('applicationManager');
  const usage = useApplicationUsage(applicationId);
  const skeleton = <Skeleton variant="rounded" height={180} aria-label={t('chart.loading')} />;
  if (usage.isPending) return skeleton;
  if (usage.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void usage.refetch()}>
            {t('actions.retry')}
          </Button>
        }
      >
        {t('details.usageError')}
      </Alert>
    );
  }
  return (
    <Suspense fallback={skeleton}>
      <UsageChart usage={usage.data} />
      {usage.data.total === 0 ? (
        <Alert severity="info" variant="outlined" sx={{ mt: 1 }}>
          {t('details.usageEmpty')}
        </Alert>
      ) : null}
    </Suspense>
  );
}
