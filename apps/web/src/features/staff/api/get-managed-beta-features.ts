import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  ZBetaParticipantList,
  ZManagedBetaFeatureList,
  type TBetaParticipant,
  type TManagedBetaFeature,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { auditLogKey } from './get-audit-log.ts';

/** Every query of Connect Beta's staff calls starts with this key. */
export const managedBetaKey = ['connect', 'management', 'beta-features'] as const;

/**
 * GET /api/connect/management/beta-features (management-admin): the catalogue, each feature with
 * how many accounts opted in and how many are invited.
 */
export async function getManagedBetaFeatures(signal?: AbortSignal): Promise<TManagedBetaFeature[]> {
  const answer = await api.connect.get('/management/beta-features', {
    schema: ZManagedBetaFeatureList,
    ...(signal ? { signal } : {}),
  });
  return answer.features;
}

export const getManagedBetaFeaturesQueryOptions = () =>
  queryOptions({ queryKey: [...managedBetaKey, 'list'], queryFn: ({ signal }) => getManagedBetaFeatures(signal) });

export function useManagedBetaFeatures() {
  return useQuery(getManagedBetaFeaturesQueryOptions());
}

/** GET /management/beta-features/{id}/participants: the accounts that opted in or are invited. */
export async function getBetaParticipants(featureId: string, signal?: AbortSignal): Promise<TBetaParticipant[]> {
  const answer = await api.connect.get(`/management/beta-features/${encodeURIComponent(featureId)}/participants`, {
    schema: ZBetaParticipantList,
    ...(signal ? { signal } : {}),
  });
  return answer.participants;
}

export const getBetaParticipantsQueryOptions = (featureId: string) =>
  queryOptions({
    queryKey: [...managedBetaKey, 'participants', featureId],
    queryFn: ({ signal }) => getBetaParticipants(featureId, signal),
  });

export function useBetaParticipants(featureId: string) {
  return useQuery(getBetaParticipantsQueryOptions(featureId));
}

/**
 * After any change of the catalogue or its invitations: the list (its counts), the participants,
 * the customers' own beta list cached in this tab (a staff member may be a customer too), and the
 * audit log that recorded it.
 */
export function invalidateAfterBetaChange(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: managedBetaKey }),
    queryClient.invalidateQueries({ queryKey: ['connect', 'beta'] }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}
