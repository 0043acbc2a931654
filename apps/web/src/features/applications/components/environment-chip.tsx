import Chip from '@mui/material/Chip';
import type { ApplicationType } from '@connect/shared';
import { useTranslation } from 'react-i18next';

/** Testnet or mainnet; mainnet stands out because it touches real value. */
export function EnvironmentChip({ type }: { type: ApplicationType }) {
  const { t } = useTranslation('applicationManager');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={type === 'mainnet' ? 'primary' : 'default'}
      label={t(`environment.${type}`)}
    />
  );
}
