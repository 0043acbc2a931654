import { createContext, useContext } from 'react';

export type SnackbarType = 'success' | 'error' | 'info' | 'warning';

/** The snackbar of spec §2.2: type (default success), title, optional link, end text, description. */
export type SnackbarMessage = {
  type?: SnackbarType;
  title: string;
  description?: string;
  link?: string;
  linkTitle?: string;
  endText?: string;
};

export type SnackbarApi = { show: (message: SnackbarMessage) => void; close: () => void };

export const SnackbarContext = createContext<SnackbarApi | null>(null);

export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error('useSnackbar needs a SnackbarProvider');
  return api;
}
