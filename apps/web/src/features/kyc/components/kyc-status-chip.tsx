import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Chip, { type ChipProps } from '@mui/material/Chip';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { KycStatus } from '@connect/shared';

// UI.md: green VERIFIED, amber PENDING, red FAILED, grey for not yet started; an icon as well, so
// colour is never the only signal.
const LOOK: Record<KycStatus, { color: ChipProps['color']; icon: ReactElement }> = {
  VERIFIED: { color: 'success', icon: <CheckCircleOutlineIcon /> },
  PENDING: { color: 'warning', icon: <HourglassEmptyIcon /> },
  FAILED: { color: 'error', icon: <ErrorOutlineIcon /> },
  UNVERIFIED: { color: 'default', icon: <RadioButtonUncheckedIcon /> },
};

export function KycStatusChip({ status, size = 'medium' }: { status: KycStatus; size?: ChipProps['size'] }) {
  const { t } = useTranslation('kyc');
  const look = LOOK[status];
  return <Chip size={size} color={look.color} icon={look.icon} label={t(`status.chip.${status}`)} />;
}

export function SandboxChip() {
  const { t } = useTranslation('kyc');
  return <Chip size="small" variant="outlined" color="info" label={t('verify.sandboxChip')} />;
}
