import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { useBalanceHistory } from '../api/get-balance-history.ts';
import { useSpendingCaps } from '../api/get-spending-caps.ts';
import { useUsageReport } from '../api/get-usage-report.ts';
import { BalanceChart } from '../components/balance-chart.tsx';
import { BreakdownTable } from '../components/breakdown-table.tsx';
import { NoCalls } from '../components/no-calls.tsx';
import { SpendingCaps } from '../components/spending-caps.tsx';
import { SummaryCards } from '../components/summary-cards.tsx';
import { UsageToolbar } from '../components/usage-toolbar.tsx';
import { CallsByMethodChart, CreditsByApplicationChart } from '../components/usage-charts.tsx';
import { DEFAULT_PERIOD, isUsagePeriod, usageWindow, type UsagePeriod } from '../utils/periods.ts';
import { bucketsInWindow } from '../utils/series.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function ChartSkeleton({ label }: { label: string }) {
  return <Skeleton variant="rounded" height={380} aria-label={label} />;
}

/**
 * Usage (issue 17): the month's credits and where they lead, calls by method and credits by
 * application over the period, the balance's history, where the credits went, and the spending
 * caps. The period and the application live in the address (`?period=30d&applicationId=…`), so
 * the application details' "See usage by method" link and a shared link open the same view.
 */
export function UsagePage() {
  const { t } = useTranslation('usage');
  const [searchParams, setSearchParams] = useSearchParams();
  const periodParam = searchParams.get('period');
  const period: UsagePeriod = isUsagePeriod(periodParam) ? periodParam : DEFAULT_PERIOD;
  const applicationParam = searchParams.get('applicationId') ?? '';
  const applicationId = UUID.test(applicationParam) ? applicationParam : '';

  // The window is fixed when the filters change, not at every render: the query key stays put.
  const { query, starts } = useMemo(() => usageWindow(period, applicationId || undefined), [period, applicationId]);
  const report = useUsageReport(query);
  const balance = useBalanceHistory({ from: query.from, to: query.to });
  const caps = useSpendingCaps();

  const setParam = (name: string, value: string, fallback: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value && value !== fallback) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  // Every application of the account (the caps list them all), and any the report names besides.
  const applications = useMemo(() => {
    const all = new Map((caps.data?.applications ?? []).map((spend) => [spend.applicationId, spend.name]));
    for (const application of report.data?.applications ?? []) {
      if (!all.has(application.id)) all.set(application.id, application.name);
    }
    // The one in the address stays selectable while the lists load (or if it is not the account's).
    if (applicationId && !all.has(applicationId)) all.set(applicationId, '…');
    return [...all.entries()].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  }, [caps.data, report.data, applicationId]);

  const chartSkeleton = <ChartSkeleton label={t('charts.loading')} />;

  return (
    <Page title={t('title')} description={t('description')}>
      <UsageToolbar
        period={period}
        onPeriod={(next) => setParam('period', next, DEFAULT_PERIOD)}
        applicationId={applicationId}
        onApplication={(next) => setParam('applicationId', next, '')}
        applications={applications}
        query={query}
      />
      <Stack spacing={3}>
        <SummaryCards report={report} balance={balance} />
        <QueryState
          query={report}
          loading={
            <Stack spacing={3}>
              {chartSkeleton}
              <Skeleton variant="rounded" height={240} />
            </Stack>
          }
          errorMessage={t('errors.report')}
        >
          {(data) => {
            const buckets = bucketsInWindow(data, starts);
            if (buckets.length === 0) return <NoCalls />;
            return (
              <Stack spacing={3}>
                <CallsByMethodChart buckets={buckets} starts={starts} granularity={query.granularity} />
                <CreditsByApplicationChart
                  buckets={buckets}
                  starts={starts}
                  granularity={query.granularity}
                  applications={data.applications}
                />
                <BreakdownTable buckets={buckets} applications={data.applications} networks={data.networks} />
              </Stack>
            );
          }}
        </QueryState>
        <Box>
          <QueryState query={balance} loading={chartSkeleton} errorMessage={t('errors.balance')}>
            {(history) => <BalanceChart history={history} />}
          </QueryState>
        </Box>
        <SpendingCaps />
      </Stack>
    </Page>
  );
}
