import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZApplication, type TApplication } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** DELETE /application/{id}/secrets/{secretId}: the secret is refused from now on. */
export function revokeSecret(input: { id: string; secretId: string }): Promise<TApplication> {
  return api.applicationManager.delete(`/application/${input.id}/secrets/${input.secretId}`, undefined, {
    schema: ZApplication,
  });
}

export function useRevokeSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
