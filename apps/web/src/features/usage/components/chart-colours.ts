import { alpha, type Theme } from '@mui/material/styles';

/**
 * Series colours from the theme: the primary blue and its companions first, then lighter tints,
 * and a neutral grey for "Other". The semantic colours (warning, error, success) stay for status.
 */
export function seriesColours(theme: Theme): { series: string[]; other: string } {
  const { primary, secondary, info, grey } = theme.palette;
  return {
    series: [
      primary.main,
      secondary.main,
      info.main,
      primary.light,
      alpha(secondary.main, 0.55),
      alpha(primary.dark, 0.45),
    ],
    other: grey[400],
  };
}
