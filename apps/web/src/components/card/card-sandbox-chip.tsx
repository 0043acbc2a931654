import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

/** Marks the card sandbox wherever it acts (shared/UI.md), so nobody mistakes it for the real card provider. */
export function CardSandboxChip() {
  const { t } = useTranslation('accountPlan');
  return (
    <Tooltip title={t('card.sandboxHint')} describeChild>
      <Chip size="small" variant="outlined" color="info" label={t('card.sandbox')} />
    </Tooltip>
  );
}
