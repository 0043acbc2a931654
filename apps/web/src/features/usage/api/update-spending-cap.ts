import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZApplicationSpend, type TApplicationSpend, type TSpendingCapRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { getSpendingCapsQueryOptions } from './get-spending-caps.ts';

/** PUT /usage/caps/{applicationId}: sets an application's monthly cap in credits, or removes it (null). */
export function updateSpendingCap(applicationId: string, body: TSpendingCapRequest): Promise<TApplicationSpend> {
  return api.applicationManager.put(`/usage/caps/${encodeURIComponent(applicationId)}`, body, {
    schema: ZApplicationSpend,
  });
}

export function useUpdateSpendingCap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ applicationId, body }: { applicationId: string; body: TSpendingCapRequest }) =>
      updateSpendingCap(applicationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getSpendingCapsQueryOptions().queryKey }),
  });
}
