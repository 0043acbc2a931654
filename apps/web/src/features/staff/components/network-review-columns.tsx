import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import type { GridColDef } from '@mui/x-data-grid';
import {
  MANAGEMENT_PRIVATE_NETWORK_SORT_FIELDS,
  type TManagementPrivateNetwork,
  type TPrivateNetworkReviewRequest,
  type TPrivateNetworkStatus,
} from '@connect/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { StaffRowActions, type StaffRowAction } from '../../../components/staff-list/staff-row-actions.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { MONOSPACE } from './identifier.tsx';

export type NetworkDecision = TPrivateNetworkReviewRequest['decision'];
export type NetworkReviewAction = 'details' | NetworkDecision;

const isSortable = (field: string) => (MANAGEMENT_PRIVATE_NETWORK_SORT_FIELDS as readonly string[]).includes(field);

// As on the customer's My networks: amber while waiting, green active, red rejected or removed.
const STATUS_COLOURS: Record<TPrivateNetworkStatus, ChipProps['color']> = {
  UNDER_REVIEW: 'warning',
  REMOVAL_REQUESTED: 'warning',
  ACTIVE: 'success',
  REJECTED: 'error',
  REMOVED: 'error',
};

export function NetworkReviewStatusChip({ status }: { status: TPrivateNetworkStatus }) {
  const { t } = useTranslation('staff');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLOURS[status]}
      label={t(`networkReviews.statuses.${status}`)}
    />
  );
}

/** The decisions a network's status allows: approve or reject under review, complete a requested removal. */
export function decisionsFor(status: TPrivateNetworkStatus): NetworkDecision[] {
  if (status === 'UNDER_REVIEW') return ['APPROVE', 'REJECT'];
  if (status === 'REMOVAL_REQUESTED') return ['COMPLETE_REMOVAL'];
  return [];
}

/** Who the owner is for the texts: the submitter (told of the decision), else the account's owner. */
export function ownerEmailOf(network: TManagementPrivateNetwork): string | null {
  return network.submittedBy?.email ?? network.account.owner?.email ?? null;
}

function Lines({ primary, secondary }: { primary: string; secondary?: string | null | undefined }) {
  const line = { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;
  return (
    <Box sx={{ minWidth: 0, lineHeight: 1.3 }}>
      <Box component="span" title={primary} sx={line}>
        {primary}
      </Box>
      {secondary ? (
        <Box component="span" title={secondary} sx={{ ...line, color: 'text.secondary', fontSize: 13 }}>
          {secondary}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * The review list's columns: the network (name over its RPC URL), chain id, the account
 * (organisation over its owner), the submitter, when it was submitted, and — on the tabs past the
 * review — when it was decided or its removal asked; then the row's actions, which are the
 * decisions its status allows. Network and submitted sort.
 */
export function networkReviewColumns({
  t,
  status,
  onAction,
}: {
  t: TFunction<'staff'>;
  status: TPrivateNetworkStatus;
  onAction: (network: TManagementPrivateNetwork, action: NetworkReviewAction) => void;
}): GridColDef<TManagementPrivateNetwork>[] {
  const dateColumn = (
    field: 'submittedAt' | 'reviewedAt' | 'removalRequestedAt',
    header: string,
  ): GridColDef<TManagementPrivateNetwork> => ({
    field,
    headerName: header,
    flex: 0.9,
    minWidth: 140,
    sortable: isSortable(field),
    valueFormatter: (value: string | null) => formatDateTime(value),
  });
  const extra =
    status === 'REMOVAL_REQUESTED'
      ? [dateColumn('removalRequestedAt', t('networkReviews.columns.removalRequestedAt'))]
      : status === 'UNDER_REVIEW'
        ? []
        : [dateColumn('reviewedAt', t('networkReviews.columns.decidedAt'))];
  return [
    {
      field: 'name',
      headerName: t('networkReviews.columns.name'),
      flex: 1.4,
      minWidth: 180,
      sortable: isSortable('name'),
      valueGetter: (_value, row) => `${row.name} ${row.url}`,
      renderCell: ({ row }) => (
        <Box sx={{ minWidth: 0, lineHeight: 1.3 }}>
          <Box
            component="span"
            title={row.name}
            sx={{ display: 'block', fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis' }}
          >
            {row.name}
          </Box>
          <Box
            component="span"
            title={row.url}
            sx={{
              display: 'block',
              fontFamily: MONOSPACE,
              fontSize: 12,
              color: 'text.secondary',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {row.url}
          </Box>
        </Box>
      ),
    },
    { field: 'chainId', headerName: t('networkReviews.columns.chainId'), width: 110, sortable: false },
    {
      field: 'account',
      headerName: t('networkReviews.columns.account'),
      flex: 1.3,
      minWidth: 170,
      sortable: false,
      valueGetter: (_value, row) =>
        [row.account.organisationName, row.account.owner?.email].filter(Boolean).join(' ') || '–',
      renderCell: ({ row }) => (
        <Lines
          primary={row.account.organisationName || t('networkReviews.noOrganisation')}
          secondary={row.account.owner?.email}
        />
      ),
    },
    {
      field: 'submittedBy',
      headerName: t('networkReviews.columns.submittedBy'),
      flex: 1.2,
      minWidth: 160,
      sortable: false,
      valueGetter: (_value, row) => row.submittedBy?.email ?? t('networkReviews.noUser'),
      renderCell: ({ row }) => (
        <Lines primary={row.submittedBy?.email ?? t('networkReviews.noUser')} secondary={row.submittedBy?.name} />
      ),
    },
    dateColumn('submittedAt', t('networkReviews.columns.submittedAt')),
    ...extra,
    {
      field: 'actions',
      headerName: t('networkReviews.columns.actions'),
      width: 75,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row, hasFocus, tabIndex }) => {
        const actions: StaffRowAction[] = [
          { key: 'details', label: t('networkReviews.actions.details'), onClick: () => onAction(row, 'details') },
          ...decisionsFor(row.status).map((decision) => ({
            key: decision,
            label: t(`networkReviews.actions.${decision}`),
            onClick: () => onAction(row, decision),
            isDestructive: decision !== 'APPROVE',
          })),
        ];
        return (
          <StaffRowActions
            label={t('networkReviews.actions.menu', { name: row.name })}
            actions={actions}
            hasFocus={hasFocus}
            tabIndex={tabIndex}
          />
        );
      },
    },
  ];
}
