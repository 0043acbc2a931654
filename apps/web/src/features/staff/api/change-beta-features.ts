import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZBetaParticipant,
  ZManagedBetaFeature,
  type TBetaFeatureForm,
  type TBetaParticipant,
  type TManagedBetaFeature,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterBetaChange } from './get-managed-beta-features.ts';

const featurePath = (featureId: string) => `/management/beta-features/${encodeURIComponent(featureId)}`;

/**
 * POST /management/beta-features (201) creates a beta feature, PUT …/{id} changes one; a field the
 * rules refuse answers 400 with invalidParams.
 */
export function saveBetaFeature({
  featureId,
  form,
}: {
  featureId: string | null;
  form: TBetaFeatureForm;
}): Promise<TManagedBetaFeature> {
  return featureId
    ? api.connect.put(featurePath(featureId), form, { schema: ZManagedBetaFeature })
    : api.connect.post('/management/beta-features', form, { schema: ZManagedBetaFeature });
}

export function useSaveBetaFeature() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveBetaFeature, onSuccess: () => invalidateAfterBetaChange(queryClient) });
}

/** DELETE /management/beta-features/{id}: 204; its opt-ins and invitations go with it. */
export async function deleteBetaFeature(featureId: string): Promise<void> {
  await api.connect.delete(featurePath(featureId));
}

export function useDeleteBetaFeature() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteBetaFeature, onSuccess: () => invalidateAfterBetaChange(queryClient) });
}

/** POST …/{id}/invitations: invites an account by its id (201, the participant as it now is). */
export function inviteToBeta({
  featureId,
  accountId,
}: {
  featureId: string;
  accountId: string;
}): Promise<TBetaParticipant> {
  return api.connect.post(`${featurePath(featureId)}/invitations`, { accountId }, { schema: ZBetaParticipant });
}

export function useInviteToBeta() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: inviteToBeta, onSuccess: () => invalidateAfterBetaChange(queryClient) });
}

/** DELETE …/{id}/invitations/{accountId}: 204. */
export async function removeBetaInvitation({
  featureId,
  accountId,
}: {
  featureId: string;
  accountId: string;
}): Promise<void> {
  await api.connect.delete(`${featurePath(featureId)}/invitations/${encodeURIComponent(accountId)}`);
}

export function useRemoveBetaInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeBetaInvitation,
    onSuccess: () => invalidateAfterBetaChange(queryClient),
  });
}
