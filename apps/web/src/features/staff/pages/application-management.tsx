import AddIcon from '@mui/icons-material/Add';
import AppsOutlinedIcon from '@mui/icons-material/AppsOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import {
  APPLICATION_LIST_STATUSES,
  MANAGEMENT_APPLICATION_SORT_FIELDS,
  type TApplicationListStatus,
  type TManagementApplicationSortField,
} from '@connect/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../../components/list/list-toolbar.tsx';
import { Page } from '../../../components/page.tsx';
import { StaffList, StaffListEmpty } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { useManagementApplications } from '../api/get-management-applications.ts';
import { useNetworkCatalogue } from '../api/get-network-catalogue.ts';
import { applicationColumns } from '../components/application-columns.tsx';
import { CreateApplicationDialog } from '../components/create-application-dialog.tsx';

/** The newest application first — the contract's default, so the address leaves it out. */
const DEFAULT_SORT = { field: 'createdAt', direction: 'desc' } as const satisfies {
  field: TManagementApplicationSortField;
  direction: 'desc';
};
const FILTERS = ['status', 'network'] as const;

type StatusFilterValue = Lowercase<TApplicationListStatus>;

/** The status filter of the address (`?status=removed`, lower case like the accounts'); anything else is All statuses. */
function statusOf(value: string | undefined): TApplicationListStatus | undefined {
  const upper = value?.toUpperCase();
  return APPLICATION_LIST_STATUSES.find((status) => status === upper);
}

/**
 * Application management (spec §2, issue 33 §2), management-admin: every account's applications in
 * the staff list, searched by name, client id or owner email and filtered by network and status
 * (the account's); "Create application" makes one for a user, its secret shown once.
 */
export function ApplicationManagementPage() {
  const { t } = useTranslation('staff');
  const state = useStaffListState({
    sortFields: MANAGEMENT_APPLICATION_SORT_FIELDS,
    defaultSort: DEFAULT_SORT,
    filters: FILTERS,
  });
  const status = statusOf(state.filters.status);
  const catalogue = useNetworkCatalogue();
  // A network the catalogue does not list (an old link) filters nothing until the catalogue has it.
  const networkId = catalogue.data?.networks.some((network) => network.id === state.filters.network)
    ? state.filters.network
    : undefined;
  const applications = useManagementApplications({
    ...state.wire,
    ...(status ? { status: [status] } : {}),
    ...(networkId ? { networkId } : {}),
  });
  const [isCreating, setIsCreating] = useState(false);
  // The columns keep their identity (the grid compares them by reference); the menu's search goes
  // through the list state of the latest render.
  const setSearch = useRef(state.setSearch);
  useEffect(() => {
    setSearch.current = state.setSearch;
  });
  const columns = useMemo(() => applicationColumns({ t, onShowOwner: (email) => setSearch.current(email) }), [t]);
  const openCreate = () => setIsCreating(true);

  return (
    <Page
      title={t('applications.title')}
      description={t('applications.description')}
      actions={
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          onClick={openCreate}
        >
          {t('applications.create.open')}
        </Button>
      }
    >
      <StaffList
        label={t('applications.listLabel')}
        state={state}
        rows={applications.data?.applicationList ?? []}
        paging={applications.data}
        isFetching={applications.isFetching}
        error={applications.error}
        onRetry={() => void applications.refetch()}
        errorTitle={t('applications.loadError')}
        columns={columns}
        getRowId={(application) => application.applicationId}
        searchLabel={t('applications.search')}
        filters={
          // The theme makes a select full width; in the toolbar they sit beside the search.
          <>
            <Box sx={{ width: 220 }}>
              <FilterSelect<string>
                label={t('applications.filters.network')}
                allLabel={t('applications.filters.allNetworks')}
                value={networkId ?? ''}
                onChange={(value) => state.setFilter('network', value || undefined)}
                options={(catalogue.data?.networks ?? []).map((network) => ({
                  value: network.id,
                  label: network.name,
                }))}
                minWidth={190}
              />
            </Box>
            <Box sx={{ width: 200 }}>
              <FilterSelect<StatusFilterValue>
                label={t('applications.filters.status')}
                allLabel={t('applications.filters.allStatuses')}
                value={status ? (status.toLowerCase() as StatusFilterValue) : ''}
                onChange={(value) => state.setFilter('status', value || undefined)}
                options={APPLICATION_LIST_STATUSES.map((value) => ({
                  value: value.toLowerCase() as StatusFilterValue,
                  label: t(`accounts.statuses.${value}`),
                }))}
                minWidth={170}
              />
            </Box>
          </>
        }
        empty={
          state.isFiltered ? (
            <StaffListEmpty
              icon={<SearchOffIcon />}
              text={t('applications.empty.filtered')}
              action={
                <Button size="small" onClick={state.clearFilters}>
                  {t('list.clear')}
                </Button>
              }
            />
          ) : (
            <StaffListEmpty
              icon={<AppsOutlinedIcon />}
              text={t('applications.empty.none')}
              action={
                <Button size="small" variant="outlined" onClick={openCreate}>
                  {t('applications.create.open')}
                </Button>
              }
            />
          )
        }
      />
      {isCreating ? <CreateApplicationDialog onClose={() => setIsCreating(false)} /> : null}
    </Page>
  );
}
