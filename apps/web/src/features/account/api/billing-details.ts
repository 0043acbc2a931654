import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZBillingDetails,
  ZBillingDetailsResponse,
  type TBillingDetails,
  type TBillingDetailsRequest,
  type TBillingDetailsResponse,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** The billing details' query key (connect service). */
export const billingDetailsKey = ['connect', 'billing-details'] as const;

/** GET /user/billing-details: who invoices are made out to; `details` is null until given. */
export function getBillingDetails(): Promise<TBillingDetailsResponse> {
  return api.connect.get('/user/billing-details', { schema: ZBillingDetailsResponse });
}

export function useBillingDetails() {
  return useQuery({ queryKey: billingDetailsKey, queryFn: getBillingDetails });
}

/** PUT /user/billing-details: saves them; the VAT number is checked with the register (422 VAT_NUMBER_INVALID). */
export function updateBillingDetails(body: TBillingDetailsRequest): Promise<TBillingDetails> {
  return api.connect.put('/user/billing-details', body, { schema: ZBillingDetails });
}

export function useUpdateBillingDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBillingDetails,
    onSuccess: (details) => queryClient.setQueryData<TBillingDetailsResponse>(billingDetailsKey, { details }),
  });
}
