import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** DELETE /application/{id}: its secrets stop working at once. */
export function deleteApplication(id: string): Promise<void> {
  return api.applicationManager.delete(`/application/${id}`);
}

export function useDeleteApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey }),
  });
}
