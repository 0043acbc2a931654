import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZCreateApplicationResponse,
  type TCreateApplicationRequest,
  type TCreateApplicationResponse,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** POST /create-application/: answers the client secret this once. */
export function createApplication(body: TCreateApplicationRequest): Promise<TCreateApplicationResponse> {
  return api.applicationManager.post('/create-application/', body, { schema: ZCreateApplicationResponse });
}

export function useCreateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
