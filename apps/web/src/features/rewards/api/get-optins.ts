import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZOptinsResponse, type TOptinsResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { rewardsKey } from './keys.ts';

/**
 * GET /campaigns/optins: the reward state of spec §3 — whether the account may opt in
 * (allowedToOptIn, and why not), the campaigns it opted in to, whether it ever did (the history
 * is theirs then), its REWARD_QNT balance, what pending claims hold and the smallest claim. An
 * account without a paid plan bought with QNT gets 409 REWARDS_NEED_QNT_PLAN.
 */
export function getOptins(signal?: AbortSignal): Promise<TOptinsResponse> {
  return api.campaign.get('/campaigns/optins', { schema: ZOptinsResponse, ...(signal ? { signal } : {}) });
}

export const getOptinsQueryOptions = () =>
  queryOptions({ queryKey: [...rewardsKey, 'optins'], queryFn: ({ signal }) => getOptins(signal) });

export function useOptins() {
  return useQuery(getOptinsQueryOptions());
}
