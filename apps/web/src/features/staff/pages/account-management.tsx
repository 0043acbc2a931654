import Box from '@mui/material/Box';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Button from '@mui/material/Button';
import {
  ACCOUNT_STATUS_FILTERS,
  MANAGEMENT_ACCOUNT_SORT_FIELDS,
  type TManagementAccount,
  type TManagementAccountSortField,
} from '@connect/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../../components/list/list-toolbar.tsx';
import { Page } from '../../../components/page.tsx';
import { StaffList, StaffListEmpty } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { useManagementAccounts } from '../api/get-management-accounts.ts';
import { accountColumns } from '../components/account-columns.tsx';
import { AccountDetails } from '../components/account-details.tsx';

/** Spec §9: the newest account first — the contract's default, so the address leaves it out. */
const DEFAULT_SORT = { field: 'createdAt', direction: 'desc' } as const satisfies {
  field: TManagementAccountSortField;
  direction: 'desc';
};
const FILTERS = ['status'] as const;

type StatusFilter = (typeof ACCOUNT_STATUS_FILTERS)[number];
type StatusFilterValue = Lowercase<StatusFilter>;

/** The status filter of the address (`?status=removed`, lower case like the users' tabs); anything else is All statuses. */
function statusOf(value: string | undefined): StatusFilter | undefined {
  const upper = value?.toUpperCase();
  return ACCOUNT_STATUS_FILTERS.find((status) => status === upper);
}

/**
 * Account management (spec §2 Account management, §3 Account row; issue 33 §1), management-sales:
 * every account in the staff list with search, the status filter (All statuses, Active, Removed),
 * the sortable organisation, plan and created columns and paging; an account's details and
 * features beside the list.
 */
export function AccountManagementPage() {
  const { t } = useTranslation('staff');
  const state = useStaffListState({
    sortFields: MANAGEMENT_ACCOUNT_SORT_FIELDS,
    defaultSort: DEFAULT_SORT,
    filters: FILTERS,
  });
  const status = statusOf(state.filters.status);
  const accounts = useManagementAccounts({ ...state.wire, ...(status ? { status: [status] } : {}) });
  const [details, setDetails] = useState<TManagementAccount | null>(null);
  const columns = useMemo(() => accountColumns({ t, onDetails: setDetails }), [t]);
  // The open account as the list now answers it (a trial extended moves its plan expiry), else as opened.
  const shown = details
    ? (accounts.data?.accountList.find((account) => account.accountId === details.accountId) ?? details)
    : null;

  return (
    <Page title={t('accounts.title')} description={t('accounts.description')}>
      <StaffList
        label={t('accounts.listLabel')}
        state={state}
        rows={accounts.data?.accountList ?? []}
        paging={accounts.data}
        isFetching={accounts.isFetching}
        error={accounts.error}
        onRetry={() => void accounts.refetch()}
        errorTitle={t('accounts.loadError')}
        columns={columns}
        getRowId={(account) => account.accountId}
        searchLabel={t('accounts.search')}
        filters={
          // The theme makes a select full width; in the toolbar it sits beside the search.
          <Box sx={{ width: 200 }}>
            <FilterSelect<StatusFilterValue>
              label={t('accounts.filters.status')}
              allLabel={t('accounts.filters.allStatuses')}
              value={status ? (status.toLowerCase() as StatusFilterValue) : ''}
              onChange={(value) => state.setFilter('status', value || undefined)}
              options={ACCOUNT_STATUS_FILTERS.map((value) => ({
                value: value.toLowerCase() as StatusFilterValue,
                label: t(`accounts.statuses.${value}`),
              }))}
              minWidth={170}
            />
          </Box>
        }
        empty={
          state.isFiltered ? (
            <StaffListEmpty
              icon={<SearchOffIcon />}
              text={t('accounts.empty.filtered')}
              action={
                <Button size="small" onClick={state.clearFilters}>
                  {t('list.clear')}
                </Button>
              }
            />
          ) : (
            // Accounts come from sign-ups and invitations (on User management), not from this page.
            <StaffListEmpty icon={<BusinessOutlinedIcon />} text={t('accounts.empty.none')} />
          )
        }
        onOpenRow={setDetails}
      />
      {shown ? <AccountDetails account={shown} onClose={() => setDetails(null)} /> : null}
    </Page>
  );
}
