import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TOverrideKey } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterOverrideChange } from './invalidate.ts';

export type ClearAccountOverride = { accountId: string; key: TOverrideKey };

/** DELETE /management/accounts/{accountId}/overrides/{key}: 204, and the plan decides again. */
export async function clearAccountOverride({ accountId, key }: ClearAccountOverride): Promise<void> {
  await api.connect.delete(
    `/management/accounts/${encodeURIComponent(accountId)}/overrides/${encodeURIComponent(key)}`,
  );
}

export function useClearAccountOverride() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearAccountOverride,
    onSuccess: (_nothing, { accountId }) => invalidateAfterOverrideChange(queryClient, accountId),
  });
}
