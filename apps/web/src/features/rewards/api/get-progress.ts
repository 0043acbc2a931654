import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZProgressResponse, type TProgressResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { rewardsKey } from './keys.ts';

export type TCampaignProgress = TProgressResponse['campaigns'][number];

/**
 * How often the open page asks for the progress (ms). A task is recorded from the product's own
 * events (one outbox delivery after the customer acts), so a task done in another tab shows here
 * within a few seconds. TanStack Query stops the poll while the tab is hidden.
 */
export const PROGRESS_POLL_MS = 4_000;

/** GET /campaigns/progress: per campaign the account opted in to, each task's count and what it earned. */
export async function getProgress(signal?: AbortSignal): Promise<TCampaignProgress[]> {
  const answer = await api.campaign.get('/campaigns/progress', {
    schema: ZProgressResponse,
    ...(signal ? { signal } : {}),
  });
  return answer.campaigns;
}

export const getProgressQueryOptions = () =>
  queryOptions({
    queryKey: [...rewardsKey, 'progress'],
    queryFn: ({ signal }) => getProgress(signal),
    refetchInterval: PROGRESS_POLL_MS,
    // Never while the tab is hidden: nobody is looking, and it would keep a sleeping laptop busy.
    refetchIntervalInBackground: false,
  });

/** Polls only while `isEnabled` (the account takes part in a campaign). */
export function useProgress(isEnabled: boolean) {
  return useQuery({ ...getProgressQueryOptions(), enabled: isEnabled });
}
