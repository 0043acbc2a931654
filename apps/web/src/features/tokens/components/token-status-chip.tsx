import Chip, { type ChipProps } from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { TTokenStatus } from '@connect/shared';
import { useTranslation } from 'react-i18next';

/** Status colours of shared/UI.md: green ACTIVE, amber PENDING/UNPAID, red FAILED, grey NOT_ACTIVE/DEPRECATED. */
const COLOURS: Record<TTokenStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PENDING: 'warning',
  UNPAID: 'warning',
  FAILED: 'error',
  NOT_ACTIVE: 'default',
  DEPRECATED: 'default',
};

export function TokenStatusChip({ status }: { status: TTokenStatus }) {
  const { t } = useTranslation('quantPortfolio');
  return <Chip size="small" color={COLOURS[status]} label={t(`status.${status}`)} />;
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
