import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { SnackbarProvider } from '../components/snackbar/snackbar-provider.tsx';
import { paths } from '../config/paths.ts';
import { setSessionLostHandler } from '../lib/api.ts';
import { queryClient } from '../lib/query-client.ts';
import { theme } from '../theme.ts';
import { buildRoutes } from './router.tsx';

export function App() {
  const router = useMemo(() => {
    const created = createBrowserRouter(buildRoutes());
    setSessionLostHandler(() => {
      queryClient.clear();
      void created.navigate(paths.login, { replace: true });
    });
    return created;
  }, []);
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
