import { lazy, Suspense } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { SnackbarHost } from '../components/snackbar/snackbar-host.tsx';
import type { SnackbarViewProps } from '../components/snackbar/snackbar-view.tsx';
import { paths } from '../config/paths.ts';
import { setSessionLostHandler, setStaffMfaRequiredHandler } from '../lib/api.ts';
import { session } from '../lib/storage.ts';
import { buildRoutes } from './router.tsx';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The router, created as soon as the runtime configuration is known: creating it starts the first
 * navigation (the gate and the page's lazy modules), which then runs while the first texts load.
 */
export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(buildRoutes());
  setSessionLostHandler(() => {
    // The query library loads with the first signed-in page, which a lost session implies.
    void import('../lib/query-client.ts')
      .then(({ queryClient }) => queryClient.clear())
      .finally(() => void router.navigate(paths.login, { replace: true }));
  });
  setStaffMfaRequiredHandler(() => {
    // The server knows better than the cached user (an administrator may have reset this user's
    // MFA): reload the user, so the gate holds them on the set-up page, then go there.
    const userUuid = session.userUuid();
    void Promise.all([import('../lib/query-client.ts'), import('../lib/current-user.ts')])
      .then(([{ queryClient }, { currentUserQuery }]) =>
        userUuid ? queryClient.invalidateQueries({ queryKey: currentUserQuery(userUuid).queryKey }) : undefined,
      )
      .finally(() => void router.navigate(paths.mfaSetup));
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
 * The shell. It holds neither MUI nor the query library: the public pages render with plain
 * elements (styles/plain.css) and each route that uses them brings them along (app/app-scope.tsx;
 * README, Performance).
 */
export function App({ router }: { router: AppRouter }) {
  return (
    <SnackbarHost View={SnackbarView}>
      <RouterProvider router={router} />
    </SnackbarHost>
  );
}
