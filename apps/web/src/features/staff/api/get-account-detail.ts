import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZManagementAccountDetail, type TManagementAccountDetail } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { downloadFile } from '../../../lib/download.ts';
import { managementAccountsKey } from './get-management-accounts.ts';

/**
 * GET /management/accounts/{accountId} (management-sales): the account panel of spec §3 — owner,
 * business, plan with its reason and payment preference, trial extensions, the ledger's balances,
 * and the latest orders, invoices, payments, credit notes and audit entries.
 */
export function getAccountDetail(accountId: string, signal?: AbortSignal): Promise<TManagementAccountDetail> {
  return api.connect.get(`/management/accounts/${encodeURIComponent(accountId)}`, {
    schema: ZManagementAccountDetail,
    ...(signal ? { signal } : {}),
  });
}

// Under the account list's key: a trial extension or a plan change refreshes it with the list.
export const getAccountDetailQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: [...managementAccountsKey, 'detail', accountId],
    queryFn: ({ signal }) => getAccountDetail(accountId, signal),
  });

export function useAccountDetail(accountId: string) {
  return useQuery(getAccountDetailQueryOptions(accountId));
}

/** Saves an invoice of the account as the customer's PDF (GET /management/accounts/{id}/invoices/{id}/pdf). */
export function downloadAccountInvoice(accountId: string, invoice: { id: string; number: string | null }) {
  return downloadFile(
    `/api/payment/management/accounts/${encodeURIComponent(accountId)}/invoices/${encodeURIComponent(invoice.id)}/pdf`,
    { accept: 'application/pdf', fallbackName: `${invoice.number ?? invoice.id}.pdf` },
  );
}
