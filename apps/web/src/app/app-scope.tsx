import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from '../lib/query-client.ts';
import { theme } from '../theme.ts';

const scoped = new WeakMap<ComponentType, ComponentType>();

/**
 * The page or layout inside the portal's MUI theme and TanStack Query's provider. The shell and
 * /login render with neither (README, Performance), so MUI, emotion, CssBaseline and the query
 * library load with the first route that uses them — the signed-in layouts and the other public
 * pages — in this chunk. Every scope shares the one query client (lib/query-client.ts).
 */
export function inAppScope(Component: ComponentType): ComponentType {
  let Scoped = scoped.get(Component);
  if (!Scoped) {
    const Inner = Component;
    Scoped = function AppScope() {
      return (
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <QueryClientProvider client={queryClient}>
            <Inner />
          </QueryClientProvider>
        </ThemeProvider>
      );
    };
    scoped.set(Component, Scoped);
  }
  return Scoped;
}
