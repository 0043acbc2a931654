import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { TRuntimeConfig } from '@connect/shared';
import { SnackbarProvider } from '../components/snackbar/snackbar-provider.tsx';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { theme } from '../theme.ts';

export const TEST_RUNTIME_CONFIG: TRuntimeConfig = {
  productName: 'Quant Connect',
  productSlug: 'quant',
  version: '0.1.0',
  identity: {
    region: 'us-east-1',
    userPoolId: 'us-east-1_Test',
    userPoolClientId: 'client',
    userPoolEndpoint: 'http://localhost/idp',
  },
  services: ['connect'],
  sandboxes: { identity: true, mail: true },
  captcha: { provider: 'altcha' },
  devMailbox: true,
  documentationUrl: 'https://docs.example.com/',
  productCatalogue: { username: 'catalogue', password: 'public-catalogue' },
};

const locales = import.meta.glob<Record<string, unknown>>('../locales/en/*.json', { eager: true, import: 'default' });

/** i18next with every namespace loaded synchronously, as the app has them after loading. */
export function initTestI18n() {
  if (i18next.isInitialized) return i18next;
  const resources: Record<string, Record<string, unknown>> = {};
  for (const [file, texts] of Object.entries(locales)) {
    resources[file.replace(/^.*\/(\w+)\.json$/, '$1')] = texts;
  }
  void i18next.use(initReactI18next).init({
    lng: 'en',
    resources: { en: resources },
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initImmediate: false,
  } as Parameters<typeof i18next.init>[0]);
  return i18next;
}

export function TestProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const client =
    queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <ThemeProvider theme={theme}>
      <QueryClientProvider client={client}>
        <SnackbarProvider>{children}</SnackbarProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}

/**
 * Renders `ui` at `route` inside the app's providers, with a memory router. Extra routes (for
 * example the page a form navigates to) can be passed to check navigation.
 */
export function renderWithProviders(
  ui: ReactElement,
  options: {
    route?: string;
    path?: string;
    routes?: RouteObject[];
    queryClient?: QueryClient;
    config?: Partial<TRuntimeConfig>;
  } & Omit<RenderOptions, 'wrapper'> = {},
) {
  setRuntimeConfig({ ...TEST_RUNTIME_CONFIG, ...options.config });
  initTestI18n();
  const router = createMemoryRouter(
    [{ path: options.path ?? options.route ?? '/', element: ui }, ...(options.routes ?? [])],
    {
      initialEntries: [options.route ?? '/'],
    },
  );
  const result = render(
    <TestProviders {...(options.queryClient ? { queryClient: options.queryClient } : {})}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { ...result, router };
}
