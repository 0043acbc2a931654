import AddIcon from '@mui/icons-material/Add';
import AppsOutlinedIcon from '@mui/icons-material/AppsOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { APPLICATION_PAGE_SIZES, APPLICATION_TYPES, type ApplicationType, type TApplication } from '@connect/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FilterSelect, SearchField } from '../../../components/list/list-toolbar.tsx';
import { CounterChip, EmptyList, ListHeaderActions, PagedList } from '../../../components/list/paged-list.tsx';
import { Page } from '../../../components/page.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { useApplicationNetworks } from '../api/get-application-networks.ts';
import { useApplications } from '../api/get-applications.ts';
import { ApplicationDetailsDialog } from '../components/application-details-dialog.tsx';
import { ApplicationsTable, type ApplicationAction } from '../components/applications-table.tsx';
import { DeleteApplicationDialog } from '../components/delete-application-dialog.tsx';
import { EditApplicationDialog } from '../components/edit-application-dialog.tsx';
import { QuotaReachedAlert } from '../components/quota-reached-alert.tsx';
import { applicationPaths } from '../paths.ts';

/** My applications (spec §2.5): counter, search and filters, table, dialogs, empty state. */
export function MyApplicationsPage() {
  const { t } = useTranslation('applicationManager');
  const [search, setSearch] = useState('');
  const [networkId, setNetworkId] = useState('');
  const [applicationType, setApplicationType] = useState<ApplicationType | ''>('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(10);
  const [open, setOpen] = useState<{ application: TApplication; action: ApplicationAction } | null>(null);
  const debouncedSearch = useDebounced(search.trim(), 300);

  const query = {
    page,
    size,
    search: debouncedSearch || undefined,
    networkId: networkId || undefined,
    applicationType: applicationType || undefined,
  };
  const applications = useApplications(query);
  const networks = useApplicationNetworks();

  // A filter change starts again from the first page.
  useEffect(() => setPage(0), [debouncedSearch, networkId, applicationType, size]);

  const quota = applications.data?.quota;
  const isQuotaReached = quota ? quota.total !== null && quota.used >= quota.total : false;
  const isFiltered = Boolean(debouncedSearch || networkId || applicationType);

  const registerButton = (
    <Button
      component={RouterLink}
      to={applicationPaths.register}
      variant="contained"
      startIcon={<AddIcon />}
      disabled={!quota || isQuotaReached}
      aria-describedby={isQuotaReached ? 'quota-reached' : undefined}
    >
      {t('register')}
    </Button>
  );

  return (
    <Page
      title={t('title')}
      description={t('description')}
      actions={
        <ListHeaderActions
          counters={
            quota ? (
              <CounterChip
                name={t('counterLabel')}
                used={quota.used}
                total={quota.total}
                text={
                  quota.total === null
                    ? t('counterUnlimited', { used: formatNumber(quota.used) })
                    : t('counter', { used: formatNumber(quota.used), total: formatNumber(quota.total) })
                }
                isWarning={isQuotaReached}
                testId="applications-counter"
              />
            ) : null
          }
          placeholderWidth={110}
          action={registerButton}
        />
      }
    >
      {isQuotaReached && quota ? <QuotaReachedAlert id="quota-reached" total={quota.total} sx={{ mb: 2 }} /> : null}
      <Paper variant="outlined">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ p: 2 }}>
          <SearchField label={t('toolbar.search')} value={search} onChange={setSearch} />
          <FilterSelect
            label={t('toolbar.network')}
            value={networkId}
            onChange={setNetworkId}
            allLabel={t('toolbar.allNetworks')}
            options={(networks.data ?? []).map((network) => ({ value: network.id, label: network.name }))}
            minWidth={220}
          />
          <FilterSelect
            label={t('toolbar.environment')}
            value={applicationType}
            onChange={setApplicationType}
            allLabel={t('toolbar.allEnvironments')}
            options={APPLICATION_TYPES.map((type) => ({ value: type, label: t(`environment.${type}`) }))}
            minWidth={200}
          />
        </Stack>
        <PagedList
          query={applications}
          retryLabel={t('actions.retry')}
          loadErrorText={t('loadError')}
          placeholderRowHeight={40}
          empty={
            <EmptyList
              icon={<AppsOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />}
              isFiltered={isFiltered}
              filteredText={t('empty.filtered')}
              clearLabel={t('empty.clear')}
              onClear={() => {
                setSearch('');
                setNetworkId('');
                setApplicationType('');
              }}
              title={t('empty.title')}
              body={t('empty.body')}
              action={registerButton}
            />
          }
          page={page}
          size={size}
          pageSizes={APPLICATION_PAGE_SIZES}
          rowsPerPageLabel={t('table.rowsPerPage')}
          onPage={setPage}
          onSize={setSize}
        >
          {(data) => (
            <ApplicationsTable
              applications={data.content}
              onAction={(application, action) => setOpen({ application, action })}
            />
          )}
        </PagedList>
      </Paper>
      {open?.action === 'details' ? (
        <ApplicationDetailsDialog application={open.application} open onClose={() => setOpen(null)} />
      ) : null}
      {open?.action === 'edit' ? (
        <EditApplicationDialog application={open.application} open onClose={() => setOpen(null)} />
      ) : null}
      {open?.action === 'delete' ? (
        <DeleteApplicationDialog application={open.application} open onClose={() => setOpen(null)} />
      ) : null}
    </Page>
  );
}
