import type { TUser } from '@connect/shared';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import type { createFetchMock } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ADMIN } from './fixtures.ts';

/*
 * The setting of a staff page's tests. The file must still mock lib/auth.ts itself (vi.mock is
 * hoisted only in the test file).
 */

/**
 * Call inside `describe`: fetch answered by `mock` (its defaults again before each test), and after
 * each test its calls, the cache and the session forgotten.
 */
export function setUpStaffPageSuite(mock: ReturnType<typeof createFetchMock>) {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({});
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });
}

/** Renders a staff page with `user` signed in (the session's marker and the current user cached). */
export function renderStaffPage(
  ui: ReactElement,
  options: Omit<NonNullable<Parameters<typeof renderWithProviders>[1]>, 'queryClient'>,
  user: TUser = ADMIN,
) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  return renderWithProviders(ui, { ...options, queryClient });
}
