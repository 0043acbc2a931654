import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ComponentType } from 'react';
import { theme } from '../theme.ts';

const scoped = new WeakMap<ComponentType, ComponentType>();

/**
 * The page or layout inside the portal's MUI theme. The shell and /login render without MUI
 * (README, Performance), so the theme, emotion and CssBaseline load with the first route that
 * uses MUI — the signed-in layouts and the other public pages — in this chunk.
 */
export function inMuiScope(Component: ComponentType): ComponentType {
  let Scoped = scoped.get(Component);
  if (!Scoped) {
    const Inner = Component;
    Scoped = function MuiScope() {
      return (
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <Inner />
        </ThemeProvider>
      );
    };
    scoped.set(Component, Scoped);
  }
  return Scoped;
}
