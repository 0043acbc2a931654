import type { Theme } from '@mui/material/styles';

/**
 * Series colours from the theme's chart palette (theme.ts): the primary blue and hues told apart
 * with any colour vision, and a neutral grey for "Other". The semantic colours stay for status.
 * A chart shows at most five series besides "Other" (utils/series.ts), one colour each.
 */
export function seriesColours(theme: Theme): { series: readonly string[]; other: string } {
  return theme.palette.chart;
}
