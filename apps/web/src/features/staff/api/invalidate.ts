import type { QueryClient } from '@tanstack/react-query';
import { getAccountFeaturesQueryOptions } from './get-account-features.ts';
import { getAccountOverridesQueryOptions } from './get-account-overrides.ts';
import { auditLogKey } from './get-audit-log.ts';
import { managementAccountsKey } from './get-management-accounts.ts';
import { managementUsersKey } from './get-management-users.ts';

/** After any staff action on a user: the lists and their counts, and the audit log that recorded it. */
export function invalidateAfterUserAction(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: managementUsersKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}

/**
 * After an override is set or cleared: that account's overrides and allowances in force, its
 * feature map, and the audit log that recorded the change. Not the account list: no column of it
 * shows a feature or an allowance.
 */
export function invalidateAfterOverrideChange(queryClient: QueryClient, accountId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: getAccountOverridesQueryOptions(accountId).queryKey }),
    queryClient.invalidateQueries({ queryKey: getAccountFeaturesQueryOptions(accountId).queryKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}

/**
 * After a trial extension, a plan change, a receipt or a refund: everything under the account
 * list's key — the list (its plan expiry and plan status columns, which the open panel shows too),
 * the open account's detail, features and allowances (an ended trial reopened or a disabled plan
 * changes what is in service) — and the audit log that recorded it.
 */
export function invalidateAfterPlanChange(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: managementAccountsKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}
