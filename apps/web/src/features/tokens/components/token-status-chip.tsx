import Chip, { type ChipProps } from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { TTokenStatus } from '@connect/shared';
import { useTranslation } from 'react-i18next';

/**
 * Status colours of shared/UI.md: green ACTIVE, amber PENDING/UNPAID, red FAILED, grey
 * NOT_ACTIVE/DEPRECATED; MISSING (a contract the chain lost) is red too, outlined, with its reason.
 */
const COLOURS: Record<TTokenStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PENDING: 'warning',
  UNPAID: 'warning',
  FAILED: 'error',
  NOT_ACTIVE: 'default',
  DEPRECATED: 'default',
  MISSING: 'error',
};

export function TokenStatusChip({ status }: { status: TTokenStatus }) {
  const { t } = useTranslation('quantPortfolio');
  const chip = (
    <Chip
      size="small"
      color={COLOURS[status]}
      variant={status === 'MISSING' ? 'outlined' : 'filled'}
      label={t(`status.${status}`)}
    />
  );
  return status === 'MISSING' ? <Tooltip title={t('missingHint')}>{chip}</Tooltip> : chip;
}

/** Marks a local chain that stands in for a public testnet. */
export function SandboxChip() {
  const { t } = useTranslation('quantPortfolio');
  return (
    <Tooltip title={t('sandboxHint')}>
      <Chip size="small" variant="outlined" color="info" label={t('sandbox')} />
    </Tooltip>
  );
}
