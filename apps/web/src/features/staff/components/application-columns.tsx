import type { GridColDef } from '@mui/x-data-grid';
import { MANAGEMENT_APPLICATION_SORT_FIELDS, type TManagementApplication } from '@connect/shared';
import type { TFunction } from 'i18next';
import { TwoLines } from '../../../components/staff-list/cell-text.tsx';
import { StaffRowActions } from '../../../components/staff-list/staff-row-actions.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { Identifier } from './identifier.tsx';
import { AccountStatusChip } from './status-chips.tsx';

const isSortable = (field: string) => (MANAGEMENT_APPLICATION_SORT_FIELDS as readonly string[]).includes(field);

/**
 * The application list's columns (issue 33 §2): name (over its role), client id, owner (over the
 * organisation), networks (over the environment), status (the account's), created and the row's actions.
 * Name, owner and created sort.
 */
export function applicationColumns({
  t,
  onShowOwner,
}: {
  t: TFunction<'staff'>;
  /** Narrows the list to the owner's applications (a search by their email). */
  onShowOwner: (email: string) => void;
}): GridColDef<TManagementApplication>[] {
  return [
    {
      field: 'name',
      headerName: t('applications.columns.name'),
      flex: 1.3,
      minWidth: 160,
      sortable: isSortable('name'),
      valueGetter: (_value, row) => `${row.name} ${t(`applications.roles.${row.roleName}`)}`,
      renderCell: ({ row }) => <TwoLines main={row.name} secondary={t(`applications.roles.${row.roleName}`)} />,
    },
    {
      field: 'clientId',
      headerName: t('applications.columns.clientId'),
      flex: 1,
      minWidth: 140,
      sortable: false,
      renderCell: ({ row }) => (
        <Identifier value={row.clientId} copyLabel={t('applications.copyClientId', { name: row.name })} />
      ),
    },
    {
      field: 'ownerEmail',
      headerName: t('applications.columns.owner'),
      flex: 1.4,
      minWidth: 170,
      sortable: isSortable('ownerEmail'),
      // The grid's text of the cell (its accessible name): the email and the organisation.
      valueGetter: (_value, row) => [row.owner?.email ?? '–', row.organisationName].filter(Boolean).join(' '),
      renderCell: ({ row }) => <TwoLines main={row.owner?.email ?? '–'} secondary={row.organisationName} />,
    },
    {
      // The networks over the environment (testnet or mainnet): one column, so the list fits the page.
      field: 'networks',
      headerName: t('applications.columns.networks'),
      flex: 1.1,
      minWidth: 140,
      sortable: false,
      valueGetter: (_value, row) =>
        `${row.networks.map((network) => network.name).join(', ') || '–'} ${t(`applications.types.${row.applicationType}`)}`,
      renderCell: ({ row }) => (
        <TwoLines
          main={row.networks.map((network) => network.name).join(', ') || '–'}
          secondary={t(`applications.types.${row.applicationType}`)}
        />
      ),
    },
    {
      field: 'status',
      headerName: t('applications.columns.status'),
      width: 100,
      sortable: false,
      valueFormatter: (value: TManagementApplication['status']) => t(`accounts.statuses.${value}`),
      renderCell: ({ row }) => <AccountStatusChip status={row.status} />,
    },
    {
      field: 'createdAt',
      headerName: t('applications.columns.createdAt'),
      flex: 0.9,
      minWidth: 140,
      sortable: isSortable('createdAt'),
      valueFormatter: (value: string) => formatDateTime(value),
    },
    {
      field: 'actions',
      headerName: t('applications.columns.actions'),
      width: 75,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row, hasFocus, tabIndex }) => (
        <StaffRowActions
          label={t('applications.actions.menu', { name: row.name })}
          actions={
            row.owner
              ? [
                  {
                    key: 'owner',
                    label: t('applications.actions.showOwner'),
                    onClick: () => onShowOwner(row.owner!.email),
                  },
                ]
              : []
          }
          hasFocus={hasFocus}
          tabIndex={tabIndex}
        />
      ),
    },
  ];
}
