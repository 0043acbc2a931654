import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZOptinResponse, type TOptinResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { getActiveCampaignsQueryOptions } from './get-active-campaigns.ts';
import { getOptinsQueryOptions } from './get-optins.ts';
import { getProgressQueryOptions } from './get-progress.ts';

/**
 * POST /campaigns/optins/{id}: opts the account in to the campaign. The answer's status says what
 * happened — OPTED_IN, ALREADY_OPTED_IN (an earlier attempt went through), FULL (the last place
 * went first) — and allowedToOptIn whether the account may opt in to another.
 */
export function optIn(campaignId: string): Promise<TOptinResponse> {
  return api.campaign.post(`/campaigns/optins/${encodeURIComponent(campaignId)}`, undefined, {
    schema: ZOptinResponse,
  });
}

export function useOptIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: optIn,
    onSuccess: async (answer, campaignId) => {
      // Spec §2: allowedToOptIn is set from what the opt-in returns, at once, not from a later read.
      queryClient.setQueryData(getOptinsQueryOptions().queryKey, (state) => {
        if (!state) return state;
        const isIn = answer.status !== 'FULL';
        const hasIt = state.optins.some((optin) => optin.campaignId === campaignId);
        return {
          ...state,
          allowedToOptIn: answer.allowedToOptIn,
          reason: answer.allowedToOptIn ? null : isIn ? 'OPTED_IN' : state.reason,
          everOptedIn: state.everOptedIn || isIn,
          optins:
            isIn && !hasIt ? [...state.optins, { campaignId, optedInAt: new Date().toISOString() }] : state.optins,
        };
      });
      if (answer.status === 'FULL') {
        // The card shows the campaign-full state; nothing else changed.
        queryClient.setQueryData(getActiveCampaignsQueryOptions().queryKey, (campaigns) =>
          campaigns?.map((campaign) => (campaign.id === campaignId ? { ...campaign, full: true } : campaign)),
        );
        return;
      }
      // The places taken, and the new campaign's progress (its tasks, none done yet).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: getActiveCampaignsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: getProgressQueryOptions().queryKey }),
      ]);
    },
  });
}
