import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { filterRoutes, routeCatalogue, type TPlanInfo, type TRuntimeConfig, type TUser } from '@connect/shared';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { initTestI18n, TEST_RUNTIME_CONFIG, TestProviders } from '../../../test/render.tsx';

/** Fixtures and helpers shared by the main layout's tests (not a test file itself). */

export const USER_UUID = '5f0c6f1e-7a51-4d55-9d41-5c3fb1b4a001';

export const TEST_USER: TUser = {
  id: USER_UUID,
  sub: USER_UUID,
  accountId: '5f0c6f1e-7a51-4d55-9d41-5c3fb1b4a002',
  email: 'ada@example.com',
  role: 'QUANT_ADMIN',
  status: 'ACTIVE',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '1-10',
  hearAboutUs: 'SEARCH_ENGINE',
  hearAboutUsDescription: null,
  promotionalEmails: false,
  acceptedTerms: true,
  acceptedTermsVersion: '2026-10-01',
  latestTerms: '2026-10-01',
  mfaSetup: false,
  mfaConfirm: false,
  userMfaStatus: 'DISABLED',
  onfidoApplicantStatus: 'UNVERIFIED',
  createdAt: '2026-11-01T00:00:00.000Z',
};

export const TRIAL_PLAN: TPlanInfo = { name: 'Trial', status: 'ACTIVE', credits: 0, renewsAt: null };

/** What the server answers an administrator with every feature (the catalogue, filtered). */
export const ADMIN_ROUTES = filterRoutes(routeCatalogue('quant', 'Quant', 'https://docs.example.com/'), 'QUANT_ADMIN', {
  'mynetworks:v2': { t: null, a: 0 },
  privateNetwork: { t: null, a: 0 },
  bridge: { t: null, a: 0 },
  reward: { t: null, a: 0 },
  connectBeta: { t: null, a: 0 },
});

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

/** A `fetch` stand-in answering by pathname; anything else is a 404 problem. */
export function fetchByPath(handlers: Record<string, Handler>) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const { pathname } = new URL(String(input), 'http://localhost');
    const handler = handlers[pathname];
    return handler ? handler(init) : json({ status: 404, title: 'Not Found' }, 404);
  });
}

/** The usual answers of the frame's requests for the test user. */
export function frameHandlers(overrides: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    [`/api/connect/user/${USER_UUID}`]: () => json(TEST_USER),
    '/api/connect/user/routes': () => json({ routes: ADMIN_ROUTES }),
    '/api/account-plan/user-plan': () => json(TRIAL_PLAN),
    '/api/connect/content/footer': () => json({ sections: [], secondaryLinks: [] }),
    ...overrides,
  };
}

/** jsdom has no matchMedia; `matches` decides every media query (true = a large screen). */
export function mockMatchMedia(matches: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(() => false),
    })),
  );
}

export function newQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/**
 * Renders route objects (layouts with children) in the app's providers, which
 * renderWithProviders cannot do since it renders a single element.
 */
export function renderRoutes(
  routes: RouteObject[],
  options: { route: string; queryClient?: QueryClient; config?: Partial<TRuntimeConfig> },
) {
  setRuntimeConfig({ ...TEST_RUNTIME_CONFIG, ...options.config });
  initTestI18n();
  const queryClient = options.queryClient ?? newQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [options.route] });
  const result = render(
    <TestProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { ...result, router, queryClient };
}

export function element(ui: ReactElement, path: string): RouteObject {
  return { path, element: ui };
}
