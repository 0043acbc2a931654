import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Button from '@mui/material/Button';
import {
  MANAGEMENT_USER_SORT_FIELDS,
  USER_TABS,
  type TManagementUser,
  type TManagementUserSortField,
  type TUserTab,
} from '@connect/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Page } from '../../../components/page.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { StaffList, StaffListEmpty, type StaffListTab } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { formatNumber } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useEthAddressStats } from '../api/get-eth-address-stats.ts';
import { useManagementUsers } from '../api/get-management-users.ts';
import { useRemoveUser } from '../api/remove-user.ts';
import { useRestoreUser } from '../api/restore-user.ts';
import { useResetUserMfa } from '../api/reset-user-mfa.ts';
import { EditUserDialog } from '../components/edit-user-dialog.tsx';
import { InviteUserDialog } from '../components/invite-user-dialog.tsx';
import { userColumns, type UserAction } from '../components/user-columns.tsx';
import { UserDetails } from '../components/user-details.tsx';

/** Spec §9: the newest status change first. */
const DEFAULT_SORT = { field: 'statusChangedAt', direction: 'desc' } as const satisfies {
  field: TManagementUserSortField;
  direction: 'desc';
};

type Dialog =
  | { kind: 'invite' }
  | { kind: 'edit'; user: TManagementUser }
  | { kind: 'remove' | 'resetMfa' | 'restore'; user: TManagementUser };

const nameOf = (user: TManagementUser) => [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

/** Remove, restore or reset MFA: a confirmation naming the user, the server's refusal in the dialog. */
function UserConfirmDialog({
  dialog,
  onClose,
}: {
  dialog: { kind: 'remove' | 'resetMfa' | 'restore'; user: TManagementUser };
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const remove = useRemoveUser();
  const resetMfa = useResetUserMfa();
  const restore = useRestoreUser();
  const mutation = { remove, resetMfa, restore }[dialog.kind];
  const { user } = dialog;
  const texts = { name: nameOf(user), email: user.email };
  const handleConfirm = () =>
    mutation.mutate(
      { userId: user.userId },
      {
        onSuccess: () => {
          snackbar.show({ type: 'success', title: t(`users.${dialog.kind}.done`, texts) });
          onClose();
        },
      },
    );
  return (
    <ConfirmDialog
      open
      title={t(`users.${dialog.kind}.title`, texts)}
      confirmLabel={t(`users.${dialog.kind}.confirm`)}
      isDestructive={dialog.kind === 'remove'}
      isPending={mutation.isPending}
      error={mutation.isError ? problemMessage(mutation.error) : null}
      onConfirm={handleConfirm}
      onClose={onClose}
    >
      {t(`users.${dialog.kind}.text`, texts)}
    </ConfirmDialog>
  );
}

/**
 * User management (spec §2 Administrator screens, §3 User row; issue 32 §3), management-admin:
 * the users by status tab with each tab's count, search, the sortable columns, paging; a user's
 * details beside the list; invite, edit, reset MFA and remove.
 */
export function UserManagementPage() {
  const { t } = useTranslation(['staff', 'account']);
  const me = useCurrentUser();
  const state = useStaffListState<TManagementUserSortField, TUserTab>({
    sortFields: MANAGEMENT_USER_SORT_FIELDS,
    defaultSort: DEFAULT_SORT,
    tabs: { values: USER_TABS, initial: 'active' },
  });
  const tab = state.tab ?? 'active';
  const users = useManagementUsers({ status: tab.toUpperCase() as Uppercase<TUserTab>, ...state.wire });
  const addresses = useEthAddressStats();
  const [details, setDetails] = useState<TManagementUser | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const handleAction = useCallback((user: TManagementUser, action: UserAction) => {
    if (action === 'details') setDetails(user);
    else setDialog({ kind: action, user });
  }, []);
  const currentUserId = me.data?.id;
  const columns = useMemo(
    () => userColumns({ t, tab, currentUserId, onAction: handleAction }),
    [t, tab, currentUserId, handleAction],
  );

  const counts = users.data?.statusesList;
  const tabs: StaffListTab<TUserTab>[] = USER_TABS.map((value) => ({
    value,
    label: t(`users.tabs.${value}`),
    count: counts?.find((count) => count.userStatus === value.toUpperCase())?.statusCount,
  }));

  return (
    <Page
      title={t('users.title')}
      description={
        <>
          {t('users.description')}
          {addresses.data
            ? ` ${t('users.addressTotals', {
                total: formatNumber(addresses.data.totalAddresses),
                unallocated: formatNumber(addresses.data.totalUnallocatedAddresses),
              })}`
            : null}
        </>
      }
      actions={
        <Button
          variant="contained"
          startIcon={<PersonAddAlt1OutlinedIcon />}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          onClick={() => setDialog({ kind: 'invite' })}
        >
          {t('users.invite.open')}
        </Button>
      }
    >
      <StaffList
        label={t('users.listLabel')}
        state={state}
        rows={users.data?.userList ?? []}
        paging={users.data}
        isFetching={users.isFetching}
        error={users.error}
        onRetry={() => void users.refetch()}
        errorTitle={t('users.loadError')}
        columns={columns}
        getRowId={(user) => user.userId}
        tabs={tabs}
        searchLabel={t('users.search')}
        empty={
          state.isFiltered ? (
            <StaffListEmpty
              icon={<SearchOffIcon />}
              text={t('users.empty.filtered')}
              action={
                <Button size="small" onClick={state.clearFilters}>
                  {t('list.clear')}
                </Button>
              }
            />
          ) : (
            <StaffListEmpty
              icon={<PeopleAltOutlinedIcon />}
              text={t(`users.empty.${tab}`)}
              action={
                tab === 'removed' ? undefined : (
                  <Button size="small" variant="outlined" onClick={() => setDialog({ kind: 'invite' })}>
                    {t('users.invite.open')}
                  </Button>
                )
              }
            />
          )
        }
        onOpenRow={setDetails}
      />
      {details ? <UserDetails user={details} onClose={() => setDetails(null)} /> : null}
      {dialog?.kind === 'invite' ? <InviteUserDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'edit' ? <EditUserDialog user={dialog.user} onClose={() => setDialog(null)} /> : null}
      {dialog && dialog.kind !== 'invite' && dialog.kind !== 'edit' ? (
        <UserConfirmDialog dialog={dialog} onClose={() => setDialog(null)} />
      ) : null}
    </Page>
  );
}
