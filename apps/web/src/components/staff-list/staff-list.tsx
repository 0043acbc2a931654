import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import {
  DataGrid,
  type GridColDef,
  type GridLocaleText,
  type GridPaginationModel,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { STAFF_COUNT_CAP, STAFF_PAGE_SIZES, type TStaffListPaging } from '@connect/shared';
import { createContext, useContext, useEffect, useId, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format.ts';
import { problemMessage } from '../../lib/problems.ts';
import { useSnackbar } from '../snackbar/snackbar-context.ts';
import { DebouncedTextField } from './debounced-text-field.tsx';
import type { StaffListState } from './use-staff-list-state.ts';

/*
 * The staff console's one list (issue 32 §2): users here, accounts, applications, campaigns,
 * tasks and claims next. MUI X DataGrid in server-side mode — the server pages, sorts and filters;
 * the grid shows one page and reports clicks. What each list brings: its columns, its rows and
 * their id, its answer's paging, and optionally tabs, a search box and filters. The state lives in
 * the address (use-staff-list-state.ts), the cursor in memory (use-staff-list-query.ts).
 */

export type StaffListTab<T extends string> = { value: T; label: string; count?: number | undefined };

type Overlay = { empty: ReactNode; error: Error | null; onRetry: () => void };
const OverlayContext = createContext<Overlay | null>(null);

/** The grid's body when it has no rows: the load failure with a retry, else the list's empty state. */
function NoRowsOverlay() {
  const { t } = useTranslation('staff');
  const overlay = useContext(OverlayContext);
  if (!overlay) return null;
  return (
    <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', p: 3, textAlign: 'center' }}>
      {overlay.error ? (
        <>
          <ErrorOutlineIcon color="error" sx={{ fontSize: 40 }} aria-hidden />
          <Typography sx={{ mt: 1 }}>{problemMessage(overlay.error)}</Typography>
          <Button variant="outlined" size="small" sx={{ mt: 2 }} onClick={overlay.onRetry}>
            {t('list.retry')}
          </Button>
        </>
      ) : (
        overlay.empty
      )}
    </Stack>
  );
}

/** An empty list: an icon, one sentence, and the action that fills it (or clears the filters). */
export function StaffListEmpty({ icon, text, action }: { icon: ReactNode; text: string; action?: ReactNode }) {
  return (
    <>
      <Box sx={{ color: 'text.secondary', '& svg': { fontSize: 40 } }} aria-hidden>
        {icon}
      </Box>
      <Typography sx={{ mt: 1 }}>{text}</Typography>
      {action ? <Box sx={{ mt: 2 }}>{action}</Box> : null}
    </>
  );
}

export function StaffList<Row extends GridValidRowModel, F extends string, T extends string, K extends string>({
  label,
  state,
  rows,
  paging,
  isFetching,
  error,
  onRetry,
  errorTitle,
  columns,
  getRowId,
  tabs,
  searchLabel,
  filters,
  actions,
  empty,
  onOpenRow,
}: {
  /** What the list is, for screen readers (the grid's label). */
  label: string;
  state: StaffListState<F, T, K>;
  rows: readonly Row[];
  /** The answer's paging; undefined until the first answer. */
  paging: TStaffListPaging | undefined;
  isFetching: boolean;
  error: Error | null;
  onRetry: () => void;
  /** The failure notification's title (spec §8: 'Failure loading the user list'); its text is the error's message. */
  errorTitle: string;
  columns: GridColDef<Row>[];
  getRowId: (row: Row) => string;
  tabs?: StaffListTab<T>[];
  /** The search box's label; no search box without it. */
  searchLabel?: string;
  /** The list's filters, after the search box in the toolbar. */
  filters?: ReactNode;
  /** The toolbar's actions, at its end (an export). */
  actions?: ReactNode;
  empty: ReactNode;
  /** A row's details: opened by a click on the row or Enter on one of its cells. */
  onOpenRow?: (row: Row) => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const tabsId = useId();

  // Spec §8: a failed load is an error notification titled with what failed.
  useEffect(() => {
    if (error) snackbar.show({ type: 'error', title: errorTitle, description: problemMessage(error) });
  }, [error, errorTitle, snackbar]);

  const isCapped = paging?.totalCapped ?? false;
  const localeText = useMemo<Partial<GridLocaleText>>(
    () => ({
      paginationRowsPerPage: t('list.rowsPerPage'),
      paginationDisplayedRows: ({ from, to, count }) =>
        t('list.displayedRows', {
          from: formatNumber(from),
          to: formatNumber(to),
          // Past the cap the total is not counted (issue 32 §2): "10,000+".
          count: isCapped ? t('list.capped', { cap: formatNumber(STAFF_COUNT_CAP) }) : formatNumber(count),
        }),
      paginationItemAriaLabel: (type) => t(`list.pageButton.${type}`),
      noRowsLabel: t('list.noRows'),
    }),
    [t, isCapped],
  );
  const overlay = useMemo(
    () => ({ empty, error: rows.length === 0 ? error : null, onRetry }),
    [empty, error, onRetry, rows.length],
  );

  // The models keep their identity while the state is the same: the grid compares them by
  // reference, and a new one each render would count as a new sort (which moves to the first page).
  const sortField = state.sort?.field;
  const sortDirection = state.sort?.direction;
  const sortModel = useMemo<GridSortModel>(
    () => (sortField && sortDirection ? [{ field: sortField, sort: sortDirection }] : []),
    [sortField, sortDirection],
  );
  const paginationModel = useMemo(() => ({ page: state.page, pageSize: state.size }), [state.page, state.size]);
  const handleSortModel = (model: GridSortModel) => {
    // The grid offers the next direction of its own cycle; the list's cycle (nextStaffSort) decides.
    // An empty model is the sorted column's click from descending back to none, unless the grid
    // dropped a sort whose column is gone (not a click).
    const field = model[0]?.field ?? state.sort?.field;
    if (!field || !columns.some((column) => column.field === field)) return;
    state.toggleSort(field);
  };
  const handlePagination = (model: GridPaginationModel) => {
    if (model.pageSize !== state.size) state.setSize(model.pageSize);
    else if (model.page !== state.page) state.setPage(model.page);
  };

  // A list known to be empty (or whose first load failed) is its message alone: the grid would keep
  // an empty row group, which assistive technology reads as a broken table (axe's
  // aria-required-children).
  const isEmpty = rows.length === 0 && !isFetching && (paging ? paging.totalItems === 0 : error !== null);
  const grid = isEmpty ? (
    <OverlayContext.Provider value={overlay}>
      <Box role="status" aria-label={label} sx={{ height: 240 }}>
        <NoRowsOverlay />
      </Box>
    </OverlayContext.Provider>
  ) : (
    <Box sx={{ display: 'flex', flexDirection: 'column', maxHeight: 760, minHeight: 0 }}>
      <OverlayContext.Provider value={overlay}>
        <DataGrid
          aria-label={label}
          rows={rows}
          columns={columns}
          getRowId={getRowId}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          // Unknown (-1) until the first answer: a known 0 would make the grid move to the first
          // page before the page of the address has loaded.
          rowCount={paging ? paging.totalItems : -1}
          paginationModel={paginationModel}
          onPaginationModelChange={handlePagination}
          pageSizeOptions={STAFF_PAGE_SIZES}
          sortModel={sortModel}
          onSortModelChange={handleSortModel}
          sortingOrder={['asc', 'desc', null]}
          loading={isFetching}
          localeText={localeText}
          // At most 100 rows a page: every row rendered, so the page reads the same in every
          // browser and in tests (virtualisation measures a layout the test DOM does not have).
          disableVirtualization
          disableColumnMenu
          disableColumnFilter
          disableColumnSelector
          disableDensitySelector
          disableRowSelectionOnClick
          columnHeaderHeight={48}
          rowHeight={52}
          onRowClick={onOpenRow ? (params) => onOpenRow(params.row) : undefined}
          onCellKeyDown={
            onOpenRow
              ? (params, event) => {
                  // The actions cell has its own buttons; Enter anywhere else opens the row.
                  if (event.key === 'Enter' && params.field !== 'actions' && event.target === event.currentTarget) {
                    onOpenRow(params.row);
                  }
                }
              : undefined
          }
          slots={{ noRowsOverlay: NoRowsOverlay }}
          slotProps={{
            loadingOverlay: { variant: 'linear-progress', noRowsVariant: 'skeleton' },
            basePagination: {
              material: {
                showFirstButton: true,
                // A capped total has no last page to jump to (issue 32 §2).
                showLastButton: !isCapped,
              },
            },
          }}
          sx={{
            border: 0,
            borderRadius: 0,
            '--DataGrid-overlayHeight': '240px',
            '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 600 },
            '& .MuiDataGrid-row': onOpenRow ? { cursor: 'pointer' } : {},
            '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
          }}
        />
      </OverlayContext.Provider>
    </Box>
  );

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      {tabs && state.tab !== null ? (
        <Tabs
          value={state.tab}
          onChange={(_event, value: T) => state.setTab(value)}
          aria-label={label}
          sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}
        >
          {tabs.map((tab) => (
            <Tab
              key={tab.value}
              value={tab.value}
              id={`${tabsId}-${tab.value}`}
              aria-controls={`${tabsId}-panel`}
              label={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <span>{tab.label}</span>{' '}
                  {tab.count !== undefined ? (
                    <Chip size="small" label={formatNumber(tab.count)} sx={{ height: 20, fontSize: 12 }} />
                  ) : null}
                </Stack>
              }
            />
          ))}
        </Tabs>
      ) : null}
      {searchLabel || filters || actions ? (
        <Stack
          direction="row"
          useFlexGap
          spacing={1.5}
          sx={{ p: 2, flexWrap: 'wrap', alignItems: 'center', borderBottom: 1, borderColor: 'divider' }}
        >
          {searchLabel ? (
            <DebouncedTextField
              label={searchLabel}
              value={state.search}
              onCommit={(term) => state.setSearch(term ?? '')}
              isSearch
            />
          ) : null}
          {filters}
          {actions ? <Box sx={{ ml: 'auto' }}>{actions}</Box> : null}
        </Stack>
      ) : null}
      {tabs && state.tab !== null ? (
        <Box role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${state.tab}`}>
          {grid}
        </Box>
      ) : (
        grid
      )}
    </Paper>
  );
}
