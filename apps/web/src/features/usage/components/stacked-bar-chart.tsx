import { BarChart } from '@mui/x-charts/BarChart';
import { formatBucket, formatBucketTick } from '../utils/format.ts';

export type ChartSeries = { key: string; label: string; data: number[]; colour: string };

/**
 * Bars over time, one stack per bucket, one colour per series; empty buckets are zero, so the
 * axis keeps every hour or day of the period. Buckets and their labels are UTC.
 */
export function StackedBarChart({
  starts,
  granularity,
  series,
  formatValue,
}: {
  starts: number[];
  granularity: 'hour' | 'day';
  series: ChartSeries[];
  formatValue: (value: number) => string;
}) {
  return (
    <BarChart
      height={300}
      xAxis={[
        {
          scaleType: 'band',
          data: starts,
          valueFormatter: (value: number, context) =>
            context.location === 'tick' ? formatBucketTick(value, granularity) : formatBucket(value, granularity),
        },
      ]}
      yAxis={[{ valueFormatter: (value: number) => formatValue(value), width: 64 }]}
      series={series.map((item) => ({
        id: item.key,
        label: item.label,
        data: item.data,
        stack: 'total',
        color: item.colour,
        valueFormatter: (value: number | null) => (value === null ? '' : formatValue(value)),
      }))}
      grid={{ horizontal: true }}
      slotProps={{ legend: { position: { vertical: 'top', horizontal: 'start' } } }}
    />
  );
}
