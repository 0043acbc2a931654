import Chip, { type ChipProps } from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import type { TUserNetwork } from '@connect/shared';

/** Status colours of shared/UI.md: green live/active, amber waiting or degraded, red failed/removed, grey not set up. */
const COLOURS: Record<TUserNetwork['status'], ChipProps['color']> = {
  ONLINE: 'success',
  DEGRADED: 'warning',
  OFFLINE: 'error',
  NOT_CONFIGURED: 'default',
  UNDER_REVIEW: 'warning',
  ACTIVE: 'success',
  REJECTED: 'error',
  REMOVAL_REQUESTED: 'warning',
  REMOVED: 'error',
};

/** A network's status as a chip; the hint (e.g. "Answer within 5 working days") is its tooltip. */
export function NetworkStatusChip({ status }: { status: TUserNetwork['status'] }) {
  const { t } = useTranslation('integrate');
  const hint = t(`statusHint.${status}`, { defaultValue: '' });
  const chip = <Chip size="small" color={COLOURS[status]} label={t(`status.${status}`)} />;
  return hint ? (
    <Tooltip title={hint}>
      <span>{chip}</span>
    </Tooltip>
  ) : (
    chip
  );
}

/** Marks a local chain that stands in for a public testnet, so nobody mistakes it for the real one. */
export function SandboxChip() {
  const { t } = useTranslation('integrate');
  return (
    <Tooltip title={t('sandboxHint')}>
      <Chip size="small" variant="outlined" color="info" label={t('sandbox')} />
    </Tooltip>
  );
}
