import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZManagementCreateApplicationResponse,
  type TManagementCreateApplicationRequest,
  type TManagementCreateApplicationResponse,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { auditLogKey } from './get-audit-log.ts';
import { managementApplicationsKey } from './get-management-applications.ts';

/**
 * POST /management/applications (spec §7, admin creation): the application for the user with the
 * email, answered with its client secret this once (201).
 */
export function createManagedApplication(
  body: TManagementCreateApplicationRequest,
): Promise<TManagementCreateApplicationResponse> {
  return api.applicationManager.post('/management/applications', body, {
    schema: ZManagementCreateApplicationResponse,
  });
}

/** After a creation: the application list and the audit log that recorded it. */
export function useCreateManagedApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createManagedApplication,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: managementApplicationsKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]),
  });
}
