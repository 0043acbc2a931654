import type { TOptinsResponse } from '@connect/shared';
import { redirect } from 'react-router';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/storage.ts';
import { isProblem } from '../../lib/problems.ts';
import { getOptinsQueryOptions } from './api/get-optins.ts';
import { rewardPaths } from './paths.ts';

/** Spec §4: the rewards history is for users who ever opted in. */
export function isHistoryAllowed(state: TOptinsResponse): boolean {
  return state.everOptedIn;
}

/**
 * The guard of /rewards/history (spec §4: rewards history only for opted-in users). Entering it
 * reads the reward state again (spec §2: entering the history reloads it), fresh, so a customer
 * who opted in a moment ago gets in. Who never opted in — or may not use rewards at all (409
 * REWARDS_NEED_QNT_PLAN; /rewards says what is needed) — goes to Rewards. A state that cannot be
 * read lets the page open: it reads it again itself and shows the error with a retry. The route
 * (app/router.tsx) does not run it again when only the tab (`?tab=`) changes: that is no new visit.
 */
export async function rewardsHistoryGuard(): Promise<Response | null> {
  // No session: the root gate sends the user to /login.
  if (!session.userUuid()) return null;
  try {
    const state = await queryClient.fetchQuery({ ...getOptinsQueryOptions(), staleTime: 0 });
    return isHistoryAllowed(state) ? null : redirect(rewardPaths.rewards);
  } catch (error) {
    return isProblem(error, 'REWARDS_NEED_QNT_PLAN') ? redirect(rewardPaths.rewards) : null;
  }
}
