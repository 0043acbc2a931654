import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../../../lib/problems.ts';
import { useAccountEthAddress } from '../api/get-account-eth-address.ts';
import { Identifier } from './identifier.tsx';

/**
 * A customer account's QNT deposit address, asked for when shown. The call is admin-only (spec §6)
 * and allocates an address when the account has none: render this only for an administrator and a
 * customer account — a sales user's 403 would sign the SPA out (spec §8).
 */
export function DepositAddress({ accountId }: { accountId: string }) {
  const { t } = useTranslation('staff');
  const address = useAccountEthAddress(accountId, true);
  if (address.isPending) return <Skeleton width={220} aria-label={t('users.details.addressLoading')} />;
  if (address.isError) return <>{problemMessage(address.error)}</>;
  return <Identifier value={address.data.address} copyLabel={t('users.details.copyAddress')} isFull />;
}
