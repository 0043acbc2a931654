import { useMutation } from '@tanstack/react-query';
import { ZUser, type TCompanyDetailsRequest, type TUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { setCurrentUser } from '../../../lib/current-user.ts';

/** PUT /user/company-details: the account's business details; answers the updated user. */
export function updateCompanyDetails(body: TCompanyDetailsRequest): Promise<TUser> {
  return api.connect.put('/user/company-details', body, { schema: ZUser });
}

export function useUpdateCompanyDetails() {
  return useMutation({ mutationFn: updateCompanyDetails, onSuccess: setCurrentUser });
}
