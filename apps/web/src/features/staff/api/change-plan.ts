import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZStaffPlanChange, type TStaffPlanChange, type TStaffPlanChangeRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterPlanChange } from './invalidate.ts';

export type ChangePlan = { accountId: string; request: TStaffPlanChangeRequest };

/**
 * POST /api/account-plan/management/accounts/{accountId}/plan-change (management-sales): disable
 * or enable the plan, cancel it at the period's end or keep it, or choose a lower plan for the next
 * period — through the plan's own transitions, audited with the reason. A change the plan's state
 * does not allow answers 409 with the transition's problem.
 */
export function changePlan({ accountId, request }: ChangePlan): Promise<TStaffPlanChange> {
  return api.accountPlan.post(`/management/accounts/${encodeURIComponent(accountId)}/plan-change`, request, {
    schema: ZStaffPlanChange,
  });
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePlan,
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}
