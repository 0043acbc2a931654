import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import type { GridColDef } from '@mui/x-data-grid';
import { CLAIM_SORT_FIELDS, type TClaim, type TClaimStatus } from '@connect/shared';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { StaffRowActions, type StaffRowAction } from '../../../components/staff-list/staff-row-actions.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { MONOSPACE, shortenMiddle } from './identifier.tsx';
import { formatRewardQnt } from './reward-format.ts';

// shared/UI.md: amber pending, green paid, red refused; a payout under way is blue, with a spinner.
const CLAIM_COLOURS: Record<TClaimStatus, ChipProps['color']> = {
  PENDING: 'warning',
  PAYING: 'info',
  COMPLETED: 'success',
  REJECTED: 'error',
};

export function ClaimStatusChip({ status }: { status: TClaimStatus }) {
  const { t } = useTranslation('staff');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={CLAIM_COLOURS[status]}
      label={t(`claims.statuses.${status}`)}
      {...(status === 'PAYING' ? { icon: <CircularProgress size={12} color="inherit" aria-hidden /> } : {})}
    />
  );
}

export type ClaimAction = 'details' | 'pay' | 'reject' | 'filterAccount';

const isSortable = (field: string) => (CLAIM_SORT_FIELDS as readonly string[]).includes(field);
const Mono = ({ text, full }: { text: string; full: string }) => (
  <Box component="span" title={full} sx={{ fontFamily: MONOSPACE, fontSize: 13 }}>
    {text}
  </Box>
);

/**
 * The claim list's columns (spec §3 Claim): accountId (sortable), Claim ID (the tracking code),
 * createdAt (sortable), amountClaimed, completedAt, status, and the row's actions — details, pay
 * and reject a pending claim, or show only that account's claims.
 */
export function claimColumns({
  t,
  onAction,
}: {
  t: TFunction<'staff'>;
  onAction: (claim: TClaim, action: ClaimAction) => void;
}): GridColDef<TClaim>[] {
  return [
    {
      field: 'accountId',
      headerName: t('claims.columns.accountId'),
      minWidth: 150,
      flex: 1,
      sortable: isSortable('accountId'),
      renderCell: ({ row }) => <Mono text={shortenMiddle(row.accountId, 8, 4)} full={row.accountId} />,
    },
    {
      field: 'trackingCode',
      headerName: t('claims.columns.trackingCode'),
      minWidth: 140,
      flex: 1,
      sortable: false,
      renderCell: ({ row }) => <Mono text={row.trackingCode} full={row.trackingCode} />,
    },
    {
      field: 'createdAt',
      headerName: t('claims.columns.createdAt'),
      minWidth: 150,
      flex: 1,
      sortable: isSortable('createdAt'),
      valueFormatter: (value: string) => formatDateTime(value),
    },
    {
      field: 'amountClaimed',
      headerName: t('claims.columns.amountClaimed'),
      minWidth: 120,
      align: 'right',
      headerAlign: 'right',
      sortable: false,
      valueFormatter: (value: string) => formatRewardQnt(value),
    },
    {
      field: 'completedAt',
      headerName: t('claims.columns.completedAt'),
      minWidth: 150,
      flex: 1,
      sortable: false,
      valueFormatter: (value: string | null) => formatDateTime(value),
    },
    {
      field: 'status',
      headerName: t('claims.columns.status'),
      minWidth: 130,
      sortable: false,
      renderCell: ({ row }) => <ClaimStatusChip status={row.status} />,
    },
    {
      field: 'actions',
      headerName: t('claims.columns.actions'),
      width: 75,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row, hasFocus, tabIndex }) => {
        const isPending = row.status === 'PENDING';
        const actions: StaffRowAction[] = [
          { key: 'details', label: t('claims.actions.details'), onClick: () => onAction(row, 'details') },
          ...(isPending
            ? [
                { key: 'pay', label: t('claims.actions.pay'), onClick: () => onAction(row, 'pay') },
                {
                  key: 'reject',
                  label: t('claims.actions.reject'),
                  onClick: () => onAction(row, 'reject'),
                  isDestructive: true,
                },
              ]
            : []),
          {
            key: 'filterAccount',
            label: t('claims.actions.filterAccount'),
            onClick: () => onAction(row, 'filterAccount'),
          },
        ];
        return (
          <StaffRowActions
            label={t('claims.actions.menu', { code: row.trackingCode })}
            actions={actions}
            hasFocus={hasFocus}
            tabIndex={tabIndex}
          />
        );
      },
    },
  ];
}
