import Box from '@mui/material/Box';
import type { GridColDef } from '@mui/x-data-grid';
import type { TAuditEntry } from '@connect/shared';
import type { TFunction } from 'i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { auditChangesSummary } from './audit-changes.ts';
import { MONOSPACE, shortenMiddle } from './identifier.tsx';
import { OutcomeChip } from './status-chips.tsx';

/**
 * The audit log's columns: when (the one sortable column), actor, action, outcome, the record
 * acted on, a one-line summary of the changes (the values in full in the entry's details) and the
 * request id to find the request in the server's log.
 */
export function auditColumns(t: TFunction<'staff'>): GridColDef<TAuditEntry>[] {
  return [
    {
      field: 'occurredAt',
      headerName: t('audit.columns.occurredAt'),
      minWidth: 150,
      flex: 0.8,
      valueFormatter: (value: string) => formatDateTime(value),
    },
    { field: 'actorEmail', headerName: t('audit.columns.actorEmail'), minWidth: 160, flex: 1.2, sortable: false },
    {
      field: 'action',
      headerName: t('audit.columns.action'),
      minWidth: 130,
      flex: 1,
      sortable: false,
      valueFormatter: (value: TAuditEntry['action']) => t(`audit.actions.${value}`),
    },
    {
      field: 'outcome',
      headerName: t('audit.columns.outcome'),
      minWidth: 110,
      sortable: false,
      renderCell: ({ row }) => <OutcomeChip outcome={row.outcome} />,
    },
    {
      field: 'record',
      headerName: t('audit.columns.record'),
      minWidth: 150,
      flex: 1,
      sortable: false,
      valueGetter: (_value, row) => `${row.recordType} ${row.recordId}`,
      renderCell: ({ row }) => (
        <Box
          component="span"
          title={`${row.recordType} ${row.recordId}`}
          sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}
        >
          {row.recordType}{' '}
          <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: 13 }}>
            {shortenMiddle(row.recordId, 8, 4)}
          </Box>
        </Box>
      ),
    },
    {
      field: 'changes',
      headerName: t('audit.columns.changes'),
      minWidth: 200,
      flex: 1.6,
      sortable: false,
      valueGetter: (_value, row) => auditChangesSummary(row),
    },
    {
      field: 'requestId',
      headerName: t('audit.columns.requestId'),
      minWidth: 110,
      sortable: false,
      renderCell: ({ row }) =>
        row.requestId ? (
          <Box component="code" title={row.requestId} sx={{ fontFamily: MONOSPACE, fontSize: 13 }}>
            {shortenMiddle(row.requestId, 8, 4)}
          </Box>
        ) : (
          '–'
        ),
    },
  ];
}
