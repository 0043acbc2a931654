import type { QueryClient } from '@tanstack/react-query';
import { auditLogKey } from './get-audit-log.ts';
import { managementUsersKey } from './get-management-users.ts';

/** After any staff action on a user: the lists and their counts, and the audit log that recorded it. */
export function invalidateAfterUserAction(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: managementUsersKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}
