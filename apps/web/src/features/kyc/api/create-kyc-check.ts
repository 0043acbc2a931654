import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZKycStatusResponse, type TCreateKycCheckRequest, type TKycStatusResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { currentUserQuery, setCurrentUser } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { setDisplayKycMessage } from '../kyc-message.ts';
import { getKycStatusQueryOptions } from './get-kyc-status.ts';

/** POST /kyc/create-check: starts a check; the status becomes PENDING. */
export function createKycCheck(body: TCreateKycCheckRequest): Promise<TKycStatusResponse> {
  return api.connect.post('/kyc/create-check', body, { schema: ZKycStatusResponse });
}

export function useCreateKycCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createKycCheck,
    onSuccess: (status) => {
      queryClient.setQueryData(getKycStatusQueryOptions().queryKey, status);
      // The user's onfidoApplicantStatus changed too: guards (select networks) read it from there.
      const userUuid = session.userUuid();
      const user = userUuid ? queryClient.getQueryData(currentUserQuery(userUuid).queryKey) : undefined;
      if (user) setCurrentUser({ ...user, onfidoApplicantStatus: status.status });
      // Spec §4: starting the check sets displayKycMessage; loading the user clears it.
      setDisplayKycMessage(true);
    },
  });
}
