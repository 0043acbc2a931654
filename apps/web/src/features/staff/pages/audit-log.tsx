import ManageHistoryOutlinedIcon from '@mui/icons-material/ManageHistoryOutlined';
import SaveAltOutlinedIcon from '@mui/icons-material/SaveAltOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { AUDIT_ACTIONS, AUDIT_SORT_FIELDS, type TAuditAction, type TAuditEntry } from '@connect/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../../../components/list/list-toolbar.tsx';
import { Page } from '../../../components/page.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { DebouncedTextField } from '../../../components/staff-list/debounced-text-field.tsx';
import { StaffList, StaffListEmpty } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { exportAuditLog } from '../api/export-audit-log.ts';
import { useAuditLog, type AuditLogFilters } from '../api/get-audit-log.ts';
import { auditColumns } from '../components/audit-columns.tsx';
import { AuditEntryDetails } from '../components/audit-entry-details.tsx';
import { StaffAlertsSection } from '../components/staff-alerts-section.tsx';

const FILTERS = ['actor', 'action', 'recordType', 'recordId'] as const;
const DEFAULT_SORT = { field: 'occurredAt', direction: 'desc' } as const;

const isAction = (value: string | undefined): value is TAuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value ?? '');

/**
 * The audit log (issue 32 §1), management-admin: every staff action with who, what, on which
 * record, when, the values before and after and the request id; filtered by actor, action and
 * record (in the address like the rest of the list's state) and exported as CSV with the same
 * filters. The staff alerts to acknowledge sit above it.
 */
export function AuditLogPage() {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const state = useStaffListState({ sortFields: AUDIT_SORT_FIELDS, defaultSort: DEFAULT_SORT, filters: FILTERS });
  const filters: AuditLogFilters = {
    ...(state.filters.actor ? { actor: state.filters.actor } : {}),
    ...(isAction(state.filters.action) ? { action: state.filters.action } : {}),
    ...(state.filters.recordType ? { recordType: state.filters.recordType } : {}),
    ...(state.filters.recordId ? { recordId: state.filters.recordId } : {}),
  };
  const { searchTerm: _none, ...wire } = state.wire;
  const entries = useAuditLog({ ...wire, ...filters });
  const [details, setDetails] = useState<TAuditEntry | null>(null);
  const [isExporting, setIsExporting] = useState(false);
  const columns = useMemo(() => auditColumns(t), [t]);

  const handleExport = async () => {
    setIsExporting(true);
    try {
      await exportAuditLog(filters);
    } catch (error) {
      snackbar.show({ type: 'error', title: t('audit.exportFailed'), description: problemMessage(error) });
    } finally {
      setIsExporting(false);
    }
  };

  return (
    <Page title={t('audit.title')} description={t('audit.description')}>
      <StaffAlertsSection />
      <Typography variant="h3" component="h2" sx={{ mb: 1.5 }}>
        {t('audit.entriesTitle')}
      </Typography>
      <StaffList
        label={t('audit.listLabel')}
        state={state}
        rows={entries.data?.entries ?? []}
        paging={entries.data}
        isFetching={entries.isFetching}
        error={entries.error}
        onRetry={() => void entries.refetch()}
        errorTitle={t('audit.loadError')}
        columns={columns}
        getRowId={(entry) => entry.id}
        filters={
          <>
            <DebouncedTextField
              label={t('audit.filters.actor')}
              value={state.filters.actor}
              onCommit={(value) => state.setFilter('actor', value)}
            />
            <Box sx={{ width: 220 }}>
              <FilterSelect
                label={t('audit.filters.action')}
                allLabel={t('audit.filters.allActions')}
                value={isAction(state.filters.action) ? state.filters.action : ''}
                onChange={(value) => state.setFilter('action', value || undefined)}
                options={AUDIT_ACTIONS.map((action) => ({ value: action, label: t(`audit.actions.${action}`) }))}
                minWidth={200}
              />
            </Box>
            <DebouncedTextField
              label={t('audit.filters.recordType')}
              value={state.filters.recordType}
              onCommit={(value) => state.setFilter('recordType', value)}
              minWidth={150}
            />
            <DebouncedTextField
              label={t('audit.filters.recordId')}
              value={state.filters.recordId}
              onCommit={(value) => state.setFilter('recordId', value)}
            />
          </>
        }
        actions={
          <Button
            variant="outlined"
            startIcon={<SaveAltOutlinedIcon />}
            loading={isExporting}
            onClick={() => void handleExport()}
          >
            {t('audit.export')}
          </Button>
        }
        empty={
          state.isFiltered ? (
            <StaffListEmpty
              icon={<SearchOffIcon />}
              text={t('audit.empty.filtered')}
              action={
                <Button size="small" onClick={state.clearFilters}>
                  {t('list.clear')}
                </Button>
              }
            />
          ) : (
            <StaffListEmpty icon={<ManageHistoryOutlinedIcon />} text={t('audit.empty.none')} />
          )
        }
        onOpenRow={setDetails}
      />
      {details ? <AuditEntryDetails entry={details} onClose={() => setDetails(null)} /> : null}
    </Page>
  );
}
