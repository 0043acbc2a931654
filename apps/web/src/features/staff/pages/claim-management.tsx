import PaidOutlinedIcon from '@mui/icons-material/PaidOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Button from '@mui/material/Button';
import { CLAIM_SORT_FIELDS, CLAIM_TABS, formatClaimSort, type TClaim, type TClaimSortField } from '@connect/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';
import { StaffList, StaffListEmpty, type StaffListTab } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { useManagementClaims } from '../api/get-management-claims.ts';
import { ClaimAccountFilter } from '../components/claim-account-filter.tsx';
import { claimColumns, type ClaimAction } from '../components/claim-columns.tsx';
import { ClaimDialog, type ClaimStep } from '../components/claim-dialog.tsx';
import { staffPagingOf } from '../components/reward-format.ts';

const TABS = ['pending', 'completed'] as const;
type ClaimTab = (typeof TABS)[number];

/**
 * The oldest claim first: the one nearest its 5 working days (spec §9). The address holds it as
 * `createdAt:asc` like every staff list; the wire says `createdAt,asc` (spec §4, formatClaimSort).
 */
const DEFAULT_SORT = { field: 'createdAt', direction: 'asc' } as const satisfies {
  field: TClaimSortField;
  direction: 'asc';
};
const FILTERS = ['accountId'] as const;

/**
 * Claim management (spec §2 Administrator screens 6; issue 34 §3), management-admin: the claims by
 * tab — pending (PENDING and PAYING) and completed (COMPLETED and REJECTED) — filtered by account
 * id, sorted by account or date, paged; a claim's details with its wallet address, transaction and
 * history; pay a pending claim from the treasury or reject it with a reason. A claim being paid is
 * followed until the chain confirms it (the list asks again every few seconds while one is PAYING).
 */
export function ClaimManagementPage() {
  const { t } = useTranslation('staff');
  const state = useStaffListState<TClaimSortField, ClaimTab, (typeof FILTERS)[number]>({
    sortFields: CLAIM_SORT_FIELDS,
    defaultSort: DEFAULT_SORT,
    tabs: { values: TABS, initial: 'pending' },
    filters: FILTERS,
  });
  const tab = state.tab ?? 'pending';
  const other: ClaimTab = tab === 'pending' ? 'completed' : 'pending';
  const accountId = state.filters.accountId;
  const wire = {
    page: state.page,
    size: state.size,
    sort: formatClaimSort(state.sort),
    ...(accountId ? { accountId } : {}),
  };
  const claims = useManagementClaims({ ...wire, status: CLAIM_TABS[tab] });
  // The other tab's count, from its first page as a switch would ask for it.
  const otherClaims = useManagementClaims({ ...wire, page: 0, status: CLAIM_TABS[other] });
  const [dialog, setDialog] = useState<{ claim: TClaim; step: ClaimStep } | null>(null);

  const { setFilter } = state;
  const handleAction = useCallback(
    (claim: TClaim, action: ClaimAction) => {
      if (action === 'filterAccount') setFilter('accountId', claim.accountId);
      else setDialog({ claim, step: action });
    },
    [setFilter],
  );
  const columns = useMemo(() => claimColumns({ t, onAction: handleAction }), [t, handleAction]);
  const tabs: StaffListTab<ClaimTab>[] = TABS.map((value) => ({
    value,
    label: t(`claims.tabs.${value}`),
    count: (value === tab ? claims : otherClaims).data?.totalElements,
  }));

  return (
    <Page title={t('claims.title')} description={t('claims.description')}>
      <StaffList
        label={t('claims.listLabel')}
        state={state}
        rows={claims.data?.content ?? []}
        paging={staffPagingOf(claims.data)}
        isFetching={claims.isFetching}
        error={claims.error}
        onRetry={() => void claims.refetch()}
        errorTitle={t('claims.loadError')}
        columns={columns}
        getRowId={(claim) => claim.id}
        tabs={tabs}
        filters={<ClaimAccountFilter value={accountId} onCommit={(id) => state.setFilter('accountId', id)} />}
        empty={
          state.isFiltered ? (
            <StaffListEmpty
              icon={<SearchOffIcon />}
              text={t('claims.empty.filtered')}
              action={
                <Button size="small" onClick={state.clearFilters}>
                  {t('list.clear')}
                </Button>
              }
            />
          ) : (
            <StaffListEmpty icon={<PaidOutlinedIcon />} text={t(`claims.empty.${tab}`)} />
          )
        }
        onOpenRow={(claim) => setDialog({ claim, step: 'details' })}
      />
      {dialog ? (
        <ClaimDialog
          key={dialog.claim.id}
          claim={dialog.claim}
          initialStep={dialog.step}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Page>
  );
}
