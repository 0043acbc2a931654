import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import { MANAGEMENT_ACCOUNT_SORT_FIELDS, type TManagementAccount } from '@connect/shared';
import type { TFunction } from 'i18next';
import { Ellipsis, TwoLines } from '../../../components/staff-list/cell-text.tsx';
import { StaffRowActions } from '../../../components/staff-list/staff-row-actions.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { AccountStatusChip, PlanStatusChip } from './status-chips.tsx';

const isSortable = (field: string) => (MANAGEMENT_ACCOUNT_SORT_FIELDS as readonly string[]).includes(field);

/** How an account is named in a row's menu and its details: its organisation, else its owner's email. */
export function accountName(account: TManagementAccount, noOrganisation: string): string {
  return account.organisationName || account.accountOwner?.email || noOrganisation;
}

/**
 * The account list's columns (spec §3 Account row): organisation (with a chip when the account is
 * pending or removed), account owner, plan (with a chip when the plan is not active), plan expiry,
 * last login, created and the row's actions. Organisation, plan and created sort.
 */
export function accountColumns({
  t,
  onDetails,
}: {
  t: TFunction<'staff'>;
  onDetails: (account: TManagementAccount) => void;
}): GridColDef<TManagementAccount>[] {
  const date = (field: 'planExpiryDate' | 'lastLogin' | 'createdAt'): GridColDef<TManagementAccount> => ({
    field,
    headerName: t(`accounts.columns.${field}`),
    flex: 0.9,
    minWidth: 140,
    sortable: isSortable(field),
    valueFormatter: (value: string | null) => formatDateTime(value),
  });
  return [
    {
      field: 'organisationName',
      headerName: t('accounts.columns.organisationName'),
      flex: 1.4,
      minWidth: 170,
      sortable: isSortable('organisationName'),
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Ellipsis text={row.organisationName || '–'} />
          {row.status === 'ACTIVE' ? null : <AccountStatusChip status={row.status} />}
        </Stack>
      ),
    },
    {
      field: 'accountOwner',
      headerName: t('accounts.columns.accountOwner'),
      flex: 1.4,
      minWidth: 170,
      sortable: false,
      // The grid's text of the cell (its accessible name): the name and the email, or the email.
      valueGetter: (_value, row) =>
        row.accountOwner ? [row.accountOwner.name, row.accountOwner.email].filter(Boolean).join(' ') : '–',
      renderCell: ({ row }) => {
        const owner = row.accountOwner;
        if (!owner) return '–';
        return owner.name ? <TwoLines main={owner.name} secondary={owner.email} /> : <Ellipsis text={owner.email} />;
      },
    },
    {
      field: 'currentPlan',
      headerName: t('accounts.columns.currentPlan'),
      flex: 1,
      minWidth: 140,
      sortable: isSortable('currentPlan'),
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Ellipsis text={row.currentPlan || '–'} />
          {row.planStatus && row.planStatus !== 'ACTIVE' ? <PlanStatusChip status={row.planStatus} /> : null}
        </Stack>
      ),
    },
    date('planExpiryDate'),
    date('lastLogin'),
    date('createdAt'),
    {
      field: 'actions',
      headerName: t('accounts.columns.actions'),
      width: 75,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row, hasFocus, tabIndex }) => (
        <StaffRowActions
          label={t('accounts.actions.menu', { name: accountName(row, t('accounts.noOrganisation')) })}
          // The trial, the plan, receipts, refunds and the switches are in the details panel.
          actions={[{ key: 'details', label: t('accounts.actions.details'), onClick: () => onDetails(row) }]}
          hasFocus={hasFocus}
          tabIndex={tabIndex}
        />
      ),
    },
  ];
}
