import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, ZContentUpdatesPage, type TContentUpdatesPage } from '@connect/shared';
import { api } from '../../../lib/api.ts';

type UpdatesQuery = { page: number; size: number };

/** GET /content/updates: product news, newest first, zero-based pages. */
export function getContentUpdates({ page, size }: UpdatesQuery): Promise<TContentUpdatesPage> {
  return api.connect.get('/content/updates', { query: { page, size }, schema: ZContentUpdatesPage });
}

export const getContentUpdatesQueryOptions = (
  query: UpdatesQuery = { page: 0, size: LIMITS.dashboardUpdatesPageSize },
) =>
  queryOptions({
    queryKey: ['connect', 'content', 'updates', query],
    queryFn: () => getContentUpdates(query),
    staleTime: 5 * 60_000,
  });

/** The dashboard's latest updates (spec §9: page size 3), shown in the carousel. */
export function useLatestUpdates() {
  return useQuery(getContentUpdatesQueryOptions());
}

/** The News card: the page after the latest updates, so it never repeats the carousel. */
export const getEarlierNewsQueryOptions = () =>
  getContentUpdatesQueryOptions({ page: 1, size: LIMITS.dashboardUpdatesPageSize });

export function useEarlierNews() {
  return useQuery(getEarlierNewsQueryOptions());
}
