import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZBetaFeature, type TBetaFeature } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { getBetaFeaturesQueryOptions } from './get-beta-features.ts';

export type BetaOptInChange = { featureId: string; optedIn: boolean };

/**
 * PUT /beta/features/{id}/optin opts the account in, DELETE opts it out; either answers the
 * feature as it now is (asking again gives the same answer).
 */
export function setBetaOptIn({ featureId, optedIn }: BetaOptInChange): Promise<TBetaFeature> {
  const path = `/beta/features/${encodeURIComponent(featureId)}/optin`;
  return optedIn
    ? api.connect.put(path, undefined, { schema: ZBetaFeature })
    : api.connect.delete(path, undefined, { schema: ZBetaFeature });
}

/**
 * Opts in or out. The answer replaces the feature in the list at once; then what the feature key
 * switches is read again: the account's features (GET /available) and the route list the side
 * menu and the gate read (GET /user/routes), so the menu gains or loses the area without a reload.
 */
export function useSetBetaOptIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBetaOptIn,
    onSuccess: async (feature) => {
      queryClient.setQueryData(getBetaFeaturesQueryOptions().queryKey, (features) =>
        features?.map((entry) => (entry.id === feature.id ? feature : entry)),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['connect', 'available'] }),
        queryClient.invalidateQueries({ queryKey: ['connect', 'user-routes'] }),
      ]);
    },
  });
}
