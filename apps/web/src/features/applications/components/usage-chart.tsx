import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { TApplicationUsage } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../../lib/format.ts';

const WIDTH = 560;
const HEIGHT = 160;
const PAD = { top: 12, right: 8, bottom: 28, left: 44 };

/** A value axis that ends on a round number, so the gridlines read easily. */
function niceMax(value: number): number {
  if (value <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * magnitude >= value / 4)! * magnitude;
  return Math.ceil(value / step) * step;
}

/**
 * Requests per day as bars (a small SVG: no chart library for one chart). Each bar has a title
 * for pointer users, and the whole series is also a visually hidden table for screen readers.
 */
export function UsageChart({ usage }: { usage: TApplicationUsage }) {
  const { t } = useTranslation('applicationManager');
  const theme = useTheme();
  const titleId = useId();
  const max = niceMax(Math.max(0, ...usage.days.map((d) => d.requests)));
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerWidth / usage.days.length;
  const barWidth = Math.max(4, slot * 0.6);
  const y = (value: number) => PAD.top + innerHeight - (value / max) * innerHeight;
  const ticks = [0, max / 2, max];
  const shortDay = (day: string) => formatDate(`${day}T12:00:00Z`).slice(0, 5);

  return (
    <Box>
      <Typography id={titleId} variant="subtitle2" component="h3">
        {t('details.usage')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('details.usageTotal', { count: usage.total, formatted: formatNumber(usage.total) })}
      </Typography>
      <Box
        component="svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        sx={{ width: '100%', height: 'auto', display: 'block' }}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(tick)}
              y2={y(tick)}
              stroke={theme.palette.divider}
              strokeWidth={1}
            />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize={11} fill={theme.palette.text.secondary}>
              {formatNumber(tick)}
            </text>
          </g>
        ))}
        {usage.days.map((day, index) => {
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          const top = y(day.requests);
          return (
            <g key={day.day}>
              <rect
                x={x}
                y={top}
                width={barWidth}
                height={Math.max(0, PAD.top + innerHeight - top)}
                rx={2}
                fill={theme.palette.primary.main}
              >
                <title>{t('details.usageDay', { day: formatDate(`${day.day}T12:00:00Z`), count: day.requests })}</title>
              </rect>
              {index % 2 === usage.days.length % 2 ? null : (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - 8}
                  textAnchor="middle"
                  fontSize={10}
                  fill={theme.palette.text.secondary}
                >
                  {shortDay(day.day)}
                </text>
              )}
            </g>
          );
        })}
      </Box>
      <Box
        component="table"
        sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
      >
        <caption>{t('details.usage')}</caption>
        <tbody>
          {usage.days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{formatDate(`${day.day}T12:00:00Z`)}</th>
              <td>{formatNumber(day.requests)}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
