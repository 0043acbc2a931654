import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { LineChart } from '@mui/x-charts/LineChart';
import type { TBalanceHistory } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { formatUtcDayMonth } from '../utils/format.ts';
import { ChartCard } from './chart-card.tsx';

const DAY_MS = 86_400_000;

/**
 * The balance as steps: it holds its value between ledger entries and moves at each. The line
 * starts at the period's opening balance and runs to now (or the period's end).
 */
export function balanceSteps(history: TBalanceHistory, now: number = Date.now()): { at: number; balance: number }[] {
  const start = Date.parse(history.from);
  const end = Math.min(now, Date.parse(history.to) + DAY_MS);
  const points = history.points.map((point) => ({ at: Date.parse(point.at), balance: point.balance }));
  return [{ at: start, balance: history.opening }, ...points, { at: Math.max(end, start), balance: history.balance }];
}

/** A tick per UTC midnight of the line's span (the chart hides the labels that would overlap). */
function midnightsOf(steps: { at: number }[]): Date[] {
  const first = Math.ceil(steps[0]!.at / DAY_MS) * DAY_MS;
  const last = steps.at(-1)!.at;
  const ticks: Date[] = [];
  for (let day = first; day <= last; day += DAY_MS) ticks.push(new Date(day));
  return ticks;
}

/** Chart 3: how the credit balance changed over the period (GET /usage/balance-history). */
export function BalanceChart({ history }: { history: TBalanceHistory }) {
  const { t } = useTranslation('usage');
  const theme = useTheme();
  const steps = balanceSteps(history);
  return (
    <ChartCard
      title={t('charts.balance.title')}
      description={t('charts.balance.description', { opening: formatNumber(history.opening) })}
      table={{
        columns: [t('charts.time'), t('charts.balance.entry'), t('charts.balance.change'), t('charts.balanceSeries')],
        rows: history.points.map((point, i) => ({
          key: `${point.at}-${i}`,
          cells: [
            formatDateTime(point.at),
            point.reason,
            `${point.amount > 0 ? '+' : ''}${formatNumber(point.amount)}`,
            formatNumber(point.balance),
          ],
        })),
      }}
    >
      <LineChart
        height={300}
        xAxis={[
          {
            // UTC, as the rest of the page: a tick per UTC midnight, labelled with its day.
            scaleType: 'utc',
            data: steps.map((step) => new Date(step.at)),
            tickInterval: midnightsOf(steps),
            valueFormatter: (value: Date, context) =>
              context.location === 'tick' ? formatUtcDayMonth(value.getTime()) : formatDateTime(value),
          },
        ]}
        yAxis={[{ valueFormatter: (value: number) => formatNumber(value), width: 64 }]}
        series={[
          {
            id: 'balance',
            label: t('charts.balanceSeries'),
            data: steps.map((step) => step.balance),
            curve: 'stepAfter',
            showMark: false,
            color: theme.palette.primary.main,
            valueFormatter: (value: number | null) => (value === null ? '' : formatNumber(value)),
          },
        ]}
        grid={{ horizontal: true }}
        hideLegend
      />
      {history.points.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('charts.balance.empty', { balance: formatNumber(history.balance) })}
        </Typography>
      ) : null}
    </ChartCard>
  );
}
