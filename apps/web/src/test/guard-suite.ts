import { afterEach, beforeEach, vi } from 'vitest';
import type { TUser } from '@connect/shared';
import { queryClient } from '../lib/query-client.ts';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { session } from '../lib/storage.ts';
import { TEST_RUNTIME_CONFIG } from './render.tsx';

/**
 * The setting of a route guard's tests (call it inside `describe`): the user signed in, the
 * product slug 'acme' (so a redirect shows it was read), and fetch answered by the mock returned;
 * each test starts from an empty cache.
 */
export function setUpGuardSuite(user: Pick<TUser, 'id' | 'role'>) {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    setRuntimeConfig({ ...TEST_RUNTIME_CONFIG, productSlug: 'acme' });
    session.setMarker(user.id, user.role);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });
  return fetchMock;
}
