import { availableFeaturesQuery } from '../../../lib/current-user.ts';
import { fetchPlansQuery, subscriptionQuery } from '../../../lib/plans/api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { getContentUpdatesQueryOptions, getEarlierNewsQueryOptions } from './get-content-updates.ts';
import { getGettingStartedQueryOptions } from './get-getting-started.ts';

/**
 * Starts the requests the dashboard makes on its first render (all but the product areas, which
 * load when scrolled to), called by the gate as soon as it lets a navigation to /dashboard through
 * (app/router.tsx). They then run while the page's chunks load and the signed-in frame renders,
 * instead of after it: on Lighthouse's /dashboard they started ~1.4 s after the gate's own
 * requests (load average ~20), once the page had rendered its skeletons.
 */
export function prefetchDashboard(userUuid: string): void {
  void queryClient.prefetchQuery(subscriptionQuery());
  void queryClient.prefetchQuery(fetchPlansQuery());
  void queryClient.prefetchQuery(availableFeaturesQuery(userUuid));
  // Always asked again: the checklist is fresh on every visit (get-getting-started.ts).
  void queryClient.prefetchQuery({ ...getGettingStartedQueryOptions(userUuid), staleTime: 0 });
  void queryClient.prefetchQuery(getContentUpdatesQueryOptions());
  void queryClient.prefetchQuery(getEarlierNewsQueryOptions());
}
