import type { ReactNode } from 'react';
import { SnackbarHost } from './snackbar-host.tsx';
import { SnackbarView } from './snackbar-view.tsx';

/** One snackbar for the app: 2000 ms, at least 200 px wide, closable (spec §2.2, §9). */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  return <SnackbarHost View={SnackbarView}>{children}</SnackbarHost>;
}
