import type { GridColDef } from '@mui/x-data-grid';
import { MANAGEMENT_USER_SORT_FIELDS, type TManagementUser, type TUserTab } from '@connect/shared';
import type { TFunction } from 'i18next';
import { StaffRowActions, type StaffRowAction } from '../../../components/staff-list/staff-row-actions.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { KycChip } from './status-chips.tsx';

export type UserAction = 'details' | 'edit' | 'resetMfa' | 'remove' | 'restore';

const isSortable = (field: string) => (MANAGEMENT_USER_SORT_FIELDS as readonly string[]).includes(field);
const orDash = (value: string | null | undefined) => value || '–';

/**
 * The user list's columns (spec §3 User row): first name, last name, email, role, organisation,
 * status changed, added by — "Removed by" on the removed tab — KYC and the row's actions. The six
 * of MANAGEMENT_USER_SORT_FIELDS sort; the rest do not.
 */
export function userColumns({
  t,
  tab,
  currentUserId,
  onAction,
}: {
  t: TFunction<['staff', 'account']>;
  tab: TUserTab;
  currentUserId: string | undefined;
  onAction: (user: TManagementUser, action: UserAction) => void;
}): GridColDef<TManagementUser>[] {
  const text = (field: keyof TManagementUser, flex: number, minWidth: number): GridColDef<TManagementUser> => ({
    field,
    headerName: t(`users.columns.${field}`),
    flex,
    minWidth,
    sortable: isSortable(field),
    valueFormatter: (value: string | null) => orDash(value),
  });
  const byColumn: GridColDef<TManagementUser> =
    tab === 'removed'
      ? { ...text('removedBy', 1, 115), sortable: false }
      : { ...text('addedBy', 1, 115), sortable: false };
  return [
    text('firstName', 0.8, 110),
    text('lastName', 0.8, 110),
    text('email', 1.5, 140),
    {
      field: 'role',
      headerName: t('users.columns.role'),
      flex: 1,
      minWidth: 100,
      sortable: isSortable('role'),
      valueFormatter: (value: TManagementUser['role']) => t(`account:options.roles.${value}`),
    },
    text('organisationName', 1.1, 100),
    {
      field: 'statusChangedAt',
      headerName: t('users.columns.statusChangedAt'),
      flex: 1,
      minWidth: 145,
      sortable: isSortable('statusChangedAt'),
      valueFormatter: (value: string) => formatDateTime(value),
    },
    byColumn,
    {
      field: 'onfidoApplicantStatus',
      headerName: t('users.columns.onfidoApplicantStatus'),
      minWidth: 110,
      sortable: false,
      renderCell: ({ row }) => <KycChip status={row.onfidoApplicantStatus} />,
    },
    {
      field: 'actions',
      headerName: t('users.columns.actions'),
      width: 75,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      renderCell: ({ row, hasFocus, tabIndex }) => {
        const details: StaffRowAction = {
          key: 'details',
          label: t('users.actions.details'),
          onClick: () => onAction(row, 'details'),
        };
        // A removed user is only looked at or restored (the server refuses edits to them).
        if (tab === 'removed') {
          const restore = {
            key: 'restore',
            label: t('users.actions.restore'),
            onClick: () => onAction(row, 'restore'),
          };
          return (
            <StaffRowActions
              label={t('users.actions.menu', { email: row.email })}
              actions={[details, restore]}
              hasFocus={hasFocus}
              tabIndex={tabIndex}
            />
          );
        }
        const actions: StaffRowAction[] = [
          details,
          { key: 'edit', label: t('users.actions.edit'), onClick: () => onAction(row, 'edit') },
          { key: 'resetMfa', label: t('users.actions.resetMfa'), onClick: () => onAction(row, 'resetMfa') },
        ];
        // Not one's own row: the server refuses it (CANNOT_CHANGE_SELF), so the menu does not offer it.
        if (row.userId !== currentUserId) {
          actions.push({
            key: 'remove',
            label: t('users.actions.remove'),
            onClick: () => onAction(row, 'remove'),
            isDestructive: true,
          });
        }
        return (
          <StaffRowActions
            label={t('users.actions.menu', { email: row.email })}
            actions={actions}
            hasFocus={hasFocus}
            tabIndex={tabIndex}
          />
        );
      },
    },
  ];
}
