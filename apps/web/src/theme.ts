import { createTheme } from '@mui/material/styles';

declare module '@mui/material/styles' {
  interface Palette {
    chart: ChartPalette;
  }
  interface PaletteOptions {
    chart?: ChartPalette;
  }
}

/** The colours of a chart's series, in order, and of the series that gathers the rest ("Other"). */
export type ChartPalette = { series: readonly string[]; other: string };

/**
 * The portal's one theme (shared/UI.md): a deep-blue primary, neutral greys, semantic colours for
 * status only, cards with a 1 px divider border instead of heavy shadows, Inter self-hosted.
 */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#1f3fbf', dark: '#142c8c', light: '#4d66d1', contrastText: '#ffffff' },
    secondary: { main: '#0f766e' },
    success: { main: '#1b7a3d' },
    warning: { main: '#b45309' },
    error: { main: '#b42318' },
    info: { main: '#1d6fb8' },
    background: { default: '#f6f7fb', paper: '#ffffff' },
    text: { primary: '#141b2d', secondary: '#4a5468' },
    divider: '#dfe3ec',
    // Data colours, apart from the status ones: the primary blue first, then hues a reader tells
    // apart at a glance with any colour vision (CIEDE2000 >= 15 between any two, also simulated
    // for protanopia, deuteranopia and tritanopia) and each at least 3:1 on white (WCAG 1.4.11).
    // Checked in features/usage/components/usage-charts.test.tsx.
    chart: {
      series: ['#1f3fbf', '#ea580c', '#059669', '#a855f7', '#92400e'],
      other: '#6b7280',
    },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Inter Variable", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.3 },
    h2: { fontSize: '1.375rem', fontWeight: 600 },
    h3: { fontSize: '1.125rem', fontWeight: 600 },
    h4: { fontSize: '1rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: { root: { borderColor: '#dfe3ec' } },
    },
    MuiPaper: { defaultProps: { elevation: 0 } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { fullWidth: true, size: 'medium' } },
    MuiLink: { defaultProps: { underline: 'hover' } },
    MuiTooltip: { defaultProps: { arrow: true } },
  },
});
