import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZAccountOverride, type TAccountOverride, type TOverrideKey, type TOverrideValue } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterOverrideChange } from './invalidate.ts';

export type SetAccountOverride = { accountId: string; key: TOverrideKey; value: TOverrideValue };

/**
 * PUT /management/accounts/{accountId}/overrides/{key}: `{ enabled }` for a feature switch,
 * `{ amount }` for an allowance; the override wins over the plan until cleared. The key is
 * encoded: `mynetworks:v2` travels as `mynetworks%3Av2`.
 */
export function setAccountOverride({ accountId, key, value }: SetAccountOverride): Promise<TAccountOverride> {
  return api.connect.put(
    `/management/accounts/${encodeURIComponent(accountId)}/overrides/${encodeURIComponent(key)}`,
    value,
    { schema: ZAccountOverride },
  );
}

export function useSetAccountOverride() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAccountOverride,
    // Returned, so the control stays busy until the panel shows the values now in force.
    onSuccess: (_override, { accountId }) => invalidateAfterOverrideChange(queryClient, accountId),
  });
}
