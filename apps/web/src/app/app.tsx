import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { SnackbarProvider } from '../components/snackbar/snackbar-provider.tsx';
import { paths } from '../config/paths.ts';
import { setSessionLostHandler } from '../lib/api.ts';
import { queryClient } from '../lib/query-client.ts';
import { theme } from '../theme.ts';
import { buildRoutes } from './router.tsx';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The router, created as soon as the runtime configuration is known: creating it starts the first
 * navigation (the gate and the page's lazy modules), which then runs while the first texts load.
 */
export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(buildRoutes());
  setSessionLostHandler(() => {
    queryClient.clear();
    void router.navigate(paths.login, { replace: true });
  });
  return router;
}

export function App({ router }: { router: AppRouter }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <SnackbarProvider>
          <RouterProvider router={router} />
        </SnackbarProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
