import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { initTestI18n, TEST_RUNTIME_CONFIG, TestProviders } from '../test/render.tsx';
import { buildRoutes } from './router.tsx';

// Each path loads its page's chunk first; in CI this stage yields the cores to the journeys (5 s ran out once).
describe('the route table (issue 11: a clean console)', { timeout: 30_000 }, () => {
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    setRuntimeConfig(TEST_RUNTIME_CONFIG);
    initTestI18n();
    warn = vi.spyOn(console, 'warn');
    // jsdom has neither; the root scrolls on navigation and /documentation opens a tab.
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('open', vi.fn());
  });
  afterEach(() => {
    warn.mockRestore();
    vi.unstubAllGlobals();
  });

  // React Router warns about a matched leaf that renders nothing, even when its loader redirects.
  it.each(['/', '/upgrade', '/support', '/documentation', '/quant-flows', '/quant-fusion', '/no/such/page'])(
    'opens %s signed out without a router warning',
    async (path) => {
      const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
      render(
        <TestProviders>
          <RouterProvider router={router} />
        </TestProviders>,
      );
      // Signed out, every one of them ends on the login page or the 404 page.
      expect(await screen.findByRole('heading', { level: 1 }, { timeout: 20_000 })).toBeInTheDocument();
      expect(warn.mock.calls.map(([message]) => String(message))).toEqual([]);
    },
  );

  it('gives every leaf route something to render', () => {
    const bare: string[] = [];
    const visit = (routes: RouteObject[]) => {
      for (const route of routes) {
        if (route.children?.length) visit(route.children);
        else if (route.element === undefined && !route.Component && !route.lazy) bare.push(route.path ?? '(index)');
      }
    };
    visit(buildRoutes());
    expect(bare).toEqual([]);
  });
});
