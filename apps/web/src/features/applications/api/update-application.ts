import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZApplication, type TApplication, type TUpdateApplicationRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** PUT /application: name, callback URL, networks and testnet signing (the type is fixed). */
export function updateApplication(body: TUpdateApplicationRequest): Promise<TApplication> {
  return api.applicationManager.put('/application', body, { schema: ZApplication });
}

export function useUpdateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
