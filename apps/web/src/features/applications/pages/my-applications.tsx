import AddIcon from '@mui/icons-material/Add';
import AppsOutlinedIcon from '@mui/icons-material/AppsOutlined';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableContainer from '@mui/material/TableContainer';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { APPLICATION_PAGE_SIZES, APPLICATION_TYPES, type ApplicationType, type TApplication } from '@connect/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useApplicationNetworks } from '../api/get-application-networks.ts';
import { useApplications } from '../api/get-applications.ts';
import { ApplicationDetailsDialog } from '../components/application-details-dialog.tsx';
import { ApplicationsTable, type ApplicationAction } from '../components/applications-table.tsx';
import { DeleteApplicationDialog } from '../components/delete-application-dialog.tsx';
import { EditApplicationDialog } from '../components/edit-application-dialog.tsx';
import { applicationPaths } from '../paths.ts';

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

function TableSkeleton() {
  return (
    <Box sx={{ p: 2 }} aria-hidden>
      {[0, 1, 2, 3].map((row) => (
        <Skeleton key={row} variant="rounded" height={40} sx={{ mb: 1 }} />
      ))}
    </Box>
  );
}

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
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          {quota ? (
            <Chip
              color={isQuotaReached ? 'warning' : 'default'}
              variant="outlined"
              aria-label={`${t('counterLabel')}: ${quota.total === null ? quota.used : `${quota.used} / ${quota.total}`}`}
              title={t('counterLabel')}
              label={
                quota.total === null
                  ? t('counterUnlimited', { used: formatNumber(quota.used) })
                  : t('counter', { used: formatNumber(quota.used), total: formatNumber(quota.total) })
              }
              data-testid="applications-counter"
            />
          ) : (
            <Skeleton variant="rounded" width={110} height={32} />
          )}
          {registerButton}
        </Stack>
      }
    >
      {isQuotaReached && quota ? (
        <Alert
          id="quota-reached"
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Button component={RouterLink} to={applicationPaths.upgrade} color="inherit" size="small">
              {t('upgrade')}
            </Button>
          }
        >
          {t('quotaReached', { total: quota.total })}
        </Alert>
      ) : null}
      <Paper variant="outlined">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ p: 2 }}>
          <TextField
            label={t('toolbar.search')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            size="small"
            type="search"
            sx={{ flex: 1, minWidth: 220 }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            select
            label={t('toolbar.network')}
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            value={networkId}
            onChange={(event) => setNetworkId(event.target.value)}
            size="small"
            sx={{ minWidth: 220 }}
          >
            <MenuItem value="">{t('toolbar.allNetworks')}</MenuItem>
            {(networks.data ?? []).map((network) => (
              <MenuItem key={network.id} value={network.id}>
                {network.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('toolbar.environment')}
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            value={applicationType}
            onChange={(event) => setApplicationType(event.target.value as ApplicationType | '')}
            size="small"
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="">{t('toolbar.allEnvironments')}</MenuItem>
            {APPLICATION_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`environment.${type}`)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {applications.isPending ? (
          <TableSkeleton />
        ) : applications.isError ? (
          <Alert
            severity="error"
            sx={{ m: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => void applications.refetch()}>
                {t('actions.retry')}
              </Button>
            }
          >
            {t('loadError')} {applications.error.message}
          </Alert>
        ) : applications.data.totalElements === 0 ? (
          <Box sx={{ textAlign: 'center', py: 6, px: 2 }}>
            <AppsOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
            {isFiltered ? (
              <>
                <Typography sx={{ mt: 1 }}>{t('empty.filtered')}</Typography>
                <Button
                  sx={{ mt: 2 }}
                  onClick={() => {
                    setSearch('');
                    setNetworkId('');
                    setApplicationType('');
                  }}
                >
                  {t('empty.clear')}
                </Button>
              </>
            ) : (
              <>
                <Typography variant="h3" component="h2" sx={{ mt: 1, fontSize: 18 }}>
                  {t('empty.title')}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
                  {t('empty.body')}
                </Typography>
                {registerButton}
              </>
            )}
          </Box>
        ) : (
          <>
            <TableContainer sx={{ maxHeight: 640 }}>
              <ApplicationsTable
                applications={applications.data.content}
                onAction={(application, action) => setOpen({ application, action })}
              />
            </TableContainer>
            <TablePagination
              component="div"
              count={applications.data.totalElements}
              page={page}
              rowsPerPage={size}
              rowsPerPageOptions={[...APPLICATION_PAGE_SIZES]}
              labelRowsPerPage={t('table.rowsPerPage')}
              onPageChange={(_event, next) => setPage(next)}
              onRowsPerPageChange={(event) => setSize(Number(event.target.value))}
            />
          </>
        )}
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
