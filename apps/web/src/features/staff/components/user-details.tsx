import Box from '@mui/material/Box';
import { isStaffRole, MANAGED_MFA_TEXTS, type TManagementUser } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { DepositAddress } from './deposit-address.tsx';
import { DetailItem, DetailsDrawer } from './details-drawer.tsx';
import { Identifier } from './identifier.tsx';
import { KycChip } from './status-chips.tsx';

/**
 * A user's details (spec §3 "further user fields"): first and last login, the allocated deposit
 * address (customer users only: the call allocates one when there is none, and staff have no
 * account to pay from), the account id and the MFA status in the spec's words.
 */
export function UserDetails({ user, onClose }: { user: TManagementUser; onClose: () => void }) {
  const { t } = useTranslation(['staff', 'account']);
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <DetailsDrawer title={name || user.email} subtitle={name ? user.email : undefined} onClose={onClose}>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailItem label={t('users.details.role')}>{t(`account:options.roles.${user.role}`)}</DetailItem>
        <DetailItem label={t('users.details.status')}>
          {t(`users.statuses.${user.status}`)} · {formatDateTime(user.statusChangedAt)}
        </DetailItem>
        <DetailItem label={t('users.details.mfa')}>{MANAGED_MFA_TEXTS[user.mfaStatus]}</DetailItem>
        <DetailItem label={t('users.details.firstLogin')}>
          {user.firstLoginAt ? formatDateTime(user.firstLoginAt) : t('users.details.never')}
        </DetailItem>
        <DetailItem label={t('users.details.lastLogin')}>
          {user.lastLoginAt ? formatDateTime(user.lastLoginAt) : t('users.details.never')}
        </DetailItem>
        <DetailItem label={t('users.details.accountId')}>
          <Identifier value={user.accountId} copyLabel={t('users.details.copyAccountId')} isFull />
        </DetailItem>
        {isStaffRole(user.role) ? null : (
          <DetailItem label={t('users.details.depositAddress')}>
            <DepositAddress accountId={user.accountId} />
          </DetailItem>
        )}
        {user.organisationName ? (
          <DetailItem label={t('users.columns.organisationName')}>{user.organisationName}</DetailItem>
        ) : null}
        <DetailItem label={t('users.columns.onfidoApplicantStatus')}>
          <KycChip status={user.onfidoApplicantStatus} />
        </DetailItem>
        <DetailItem label={t('users.columns.addedBy')}>{user.addedBy ?? t('users.details.signedUp')}</DetailItem>
        {user.removedBy ? <DetailItem label={t('users.columns.removedBy')}>{user.removedBy}</DetailItem> : null}
      </Box>
    </DetailsDrawer>
  );
}
