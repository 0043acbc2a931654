import { useTheme } from '@mui/material/styles';
import type { TUsageBucket, TUsageReport } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { formatBucket, formatCredits } from '../utils/format.ts';
import { callsByMethod, creditsByApplication, DEPLOYMENTS, OTHER, type StackedSeries } from '../utils/series.ts';
import { ChartCard, type ChartTable } from './chart-card.tsx';
import { seriesColours } from './chart-colours.ts';
import { StackedBarChart, type ChartSeries } from './stacked-bar-chart.tsx';

/** The data table of a stacked chart: a row per bucket, a column per series and the total. */
function tableOf(
  firstColumn: string,
  totalColumn: string,
  starts: number[],
  granularity: 'hour' | 'day',
  series: ChartSeries[],
  formatValue: (value: number) => string,
): ChartTable {
  return {
    columns: [firstColumn, ...series.map((item) => item.label), totalColumn],
    rows: starts.map((start, i) => {
      const values = series.map((item) => item.data[i] ?? 0);
      return {
        key: String(start),
        cells: [
          formatBucket(start, granularity),
          ...values.map(formatValue),
          formatValue(values.reduce((sum, value) => sum + value, 0)),
        ],
      };
    }),
  };
}

function useColoured() {
  const theme = useTheme();
  const { series: palette, other } = seriesColours(theme);
  return (stacked: StackedSeries[], labelOf: (key: string) => string): ChartSeries[] =>
    stacked.map((item, i) => ({
      ...item,
      label: labelOf(item.key),
      colour: item.key === OTHER ? other : palette[i % palette.length]!,
    }));
}

/** Chart 1: which methods are called most, per bucket. */
export function CallsByMethodChart({
  buckets,
  starts,
  granularity,
}: {
  buckets: TUsageBucket[];
  starts: number[];
  granularity: 'hour' | 'day';
}) {
  const { t } = useTranslation('usage');
  const colour = useColoured();
  const series = colour(callsByMethod(buckets, starts), (key) => (key === OTHER ? t('charts.other') : key));
  const formatCalls = (value: number) => formatNumber(value);
  return (
    <ChartCard
      title={t('charts.methods.title')}
      description={t('charts.methods.description', { unit: t(`charts.units.${granularity}`) })}
      table={tableOf(t(`charts.bucket.${granularity}`), t('charts.total'), starts, granularity, series, formatCalls)}
    >
      <StackedBarChart starts={starts} granularity={granularity} series={series} formatValue={formatCalls} />
    </ChartCard>
  );
}

/** Chart 2: which applications use the credits, per bucket. */
export function CreditsByApplicationChart({
  buckets,
  starts,
  granularity,
  applications,
}: {
  buckets: TUsageBucket[];
  starts: number[];
  granularity: 'hour' | 'day';
  applications: TUsageReport['applications'];
}) {
  const { t } = useTranslation('usage');
  const colour = useColoured();
  const names = new Map(applications.map((application) => [application.id, application.name]));
  const labelOf = (key: string) =>
    key === OTHER ? t('charts.other') : key === DEPLOYMENTS ? t('charts.deployments') : (names.get(key) ?? key);
  const series = colour(creditsByApplication(buckets, starts), labelOf);
  return (
    <ChartCard
      title={t('charts.applications.title')}
      description={t('charts.applications.description', { unit: t(`charts.units.${granularity}`) })}
      table={tableOf(t(`charts.bucket.${granularity}`), t('charts.total'), starts, granularity, series, formatCredits)}
    >
      <StackedBarChart starts={starts} granularity={granularity} series={series} formatValue={formatCredits} />
    </ChartCard>
  );
}
