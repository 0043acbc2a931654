import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { initTestI18n, TEST_RUNTIME_CONFIG, TestProviders } from '../test/render.tsx';
import { Root } from './root.tsx';

function renderRoot(initialPath: string, productName = 'Quant Connect') {
  setRuntimeConfig({ ...TEST_RUNTIME_CONFIG, productName });
  initTestI18n();
  const router = createMemoryRouter(
    [
      {
        Component: Root,
        children: [
          { path: '/login', handle: { title: 'titles.login' }, element: <h1>Login page</h1> },
          { path: '/dashboard', handle: { title: 'titles.dashboard' }, element: <h1>Dashboard page</h1> },
          // A page without a title of its own takes the nearest parent's.
          {
            path: '/support',
            handle: { title: 'titles.help' },
            children: [{ path: 'faq', element: <h1>FAQ page</h1> }],
          },
          { path: '/untitled', element: <h1>Untitled page</h1> },
        ],
      },
    ],
    { initialEntries: [initialPath] },
  );
  render(
    <TestProviders>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return router;
}

describe('Root (spec §4 step 1, §2.1)', () => {
  let scrollTo: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sets the page title with the product name as suffix', async () => {
    renderRoot('/login');
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
    expect(document.title).toBe('Login | Quant Connect');
  });

  it('follows the configured product name and the nearest title on navigation', async () => {
    const router = renderRoot('/login', 'Acme Portal');
    await screen.findByRole('heading', { name: 'Login page' });
    expect(document.title).toBe('Login | Acme Portal');
    await act(() => router.navigate('/support/faq'));
    expect(document.title).toBe('Support | Acme Portal');
    await act(() => router.navigate('/untitled'));
    expect(document.title).toBe('Acme Portal');
  });

  it('scrolls to the top on every navigation', async () => {
    const router = renderRoot('/login');
    await screen.findByRole('heading', { name: 'Login page' });
    const before = scrollTo.mock.calls.length;
    await act(() => router.navigate('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    expect(scrollTo.mock.calls.length).toBe(before + 1);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });
});
