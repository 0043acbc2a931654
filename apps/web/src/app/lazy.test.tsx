import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { initTestI18n, TEST_RUNTIME_CONFIG, TestProviders } from '../test/render.tsx';
import { ChunkLoadError, loadChunk } from './lazy.ts';
import { RouteError } from './route-error.tsx';

describe('lazy route chunks (spec §8)', () => {
  it('turns a failed import into a chunk-load error', async () => {
    await expect(
      loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
    ).rejects.toBeInstanceOf(ChunkLoadError);
  });

  it('gives up after 120 seconds without an answer', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadChunk(() => new Promise<never>(() => undefined));
      const assertion = expect(pending).rejects.toBeInstanceOf(ChunkLoadError);
      await vi.advanceTimersByTimeAsync(119_999);
      await vi.advanceTimersByTimeAsync(1);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes a loaded module through', async () => {
    await expect(loadChunk(() => Promise.resolve({ Page: 'x' }))).resolves.toEqual({ Page: 'x' });
  });

  it('explains a chunk-load error on the page and offers a reload', async () => {
    setRuntimeConfig(TEST_RUNTIME_CONFIG);
    initTestI18n();
    const router = createMemoryRouter([
      {
        path: '/',
        lazy: () => loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
        errorElement: <RouteError />,
      },
    ]);
    render(
      <TestProviders>
        <RouterProvider router={router} />
      </TestProviders>,
    );
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Reload to get the latest version.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});
