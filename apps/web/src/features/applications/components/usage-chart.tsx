import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import type { TApplicationUsage } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';

/** A UTC day (YYYY-MM-DD) at its noon, so it reads as the same day in every time zone. */
const noonOf = (day: string) => `${day}T12:00:00Z`;

/**
 * Requests per day as bars (MUI X Charts, loaded with the details dialog). The chart is one image
 * named by its title, its bars show their day and count on hover, and the whole series is also a
 * visually hidden table for screen readers. Keyboard navigation of the chart is off: inside an
 * image it would be a tab stop screen readers cannot reach, and the table already gives every day.
 */
export function UsageChart({ usage }: { usage: TApplicationUsage }) {
  const { t } = useTranslation('applicationManager');
  const theme = useTheme();
  const titleId = useId();
  const days = usage.days.map((day) => day.day);

  return (
    <Box>
      <Typography id={titleId} variant="subtitle2" component="h3">
        {t('details.usage')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('details.usageTotal', { count: usage.total, formatted: formatNumber(usage.total) })}
      </Typography>
      <Box role="img" aria-labelledby={titleId}>
        <BarChart
          height={180}
          margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
          xAxis={[
            {
              scaleType: 'band',
              data: days,
              valueFormatter: (day: string, context) =>
                context.location === 'tick' ? formatDate(noonOf(day)).slice(0, 5) : formatDate(noonOf(day)),
            },
          ]}
          yAxis={[{ valueFormatter: (value: number) => formatNumber(value), width: 44, tickMinStep: 1 }]}
          series={[
            {
              id: 'requests',
              data: usage.days.map((day) => day.requests),
              color: theme.palette.primary.main,
              valueFormatter: (value: number | null, { dataIndex }) =>
                t('details.usageDay', {
                  day: formatDate(noonOf(days[dataIndex] ?? '')),
                  count: value ?? 0,
                }),
            },
          ]}
          grid={{ horizontal: true }}
          borderRadius={2}
          hideLegend
          disableKeyboardNavigation
          slotProps={{ tooltip: { trigger: 'item' } }}
        />
      </Box>
      <Box component="table" sx={visuallyHidden}>
        <caption>{t('details.usage')}</caption>
        <tbody>
          {usage.days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{formatDate(noonOf(day.day))}</th>
              <td>{formatNumber(day.requests)}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
