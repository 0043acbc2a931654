import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { SnackbarHost } from '../components/snackbar/snackbar-host.tsx';
import type { SnackbarViewProps } from '../components/snackbar/snackbar-view.tsx';
import { paths } from '../config/paths.ts';
import { setSessionLostHandler } from '../lib/api.ts';
import { queryClient } from '../lib/query-client.ts';
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

// MUI's snackbar loads with the first message: only signed-in pages show one.
const LazySnackbarView = lazy(async () => ({
  default: (await import('../components/snackbar/snackbar-view.tsx')).SnackbarView,
}));

function SnackbarView(props: SnackbarViewProps) {
  return (
    <Suspense fallback={null}>
      <LazySnackbarView {...props} />
    </Suspense>
  );
}

/**
 * The shell. It holds no MUI: the public pages render with plain elements (styles/plain.css) and
 * each route that uses MUI brings the theme along (app/mui-scope.tsx; README, Performance).
 */
export function App({ router }: { router: AppRouter }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SnackbarHost View={SnackbarView}>
        <RouterProvider router={router} />
      </SnackbarHost>
    </QueryClientProvider>
  );
}
