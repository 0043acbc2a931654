import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZRotateSecretResponse, type TRotateSecretResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** POST /application/{id}/rotate-secret: a new secret (shown once); the old ones expire after the grace period. */
export function rotateSecret(input: { id: string; gracePeriodMinutes: number }): Promise<TRotateSecretResponse> {
  return api.applicationManager.post(
    `/application/${input.id}/rotate-secret`,
    { gracePeriodMinutes: input.gracePeriodMinutes },
    { schema: ZRotateSecretResponse },
  );
}

export function useRotateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
