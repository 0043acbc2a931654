import Chip, { type ChipProps } from '@mui/material/Chip';
import type { KycStatus, TAuditOutcome } from '@connect/shared';
import { useTranslation } from 'react-i18next';

// shared/UI.md: green VERIFIED, amber PENDING, red FAILED, grey not yet started; the label says it
// in words, so colour is never the only signal.
const KYC_COLOURS: Record<KycStatus, ChipProps['color']> = {
  VERIFIED: 'success',
  PENDING: 'warning',
  FAILED: 'error',
  UNVERIFIED: 'default',
};

export function KycChip({ status }: { status: KycStatus }) {
  const { t } = useTranslation('account');
  return <Chip size="small" variant="outlined" color={KYC_COLOURS[status]} label={t(`options.kycStatus.${status}`)} />;
}

// An intent waits for its outcome (amber until SUCCEEDED or FAILED follows it).
const OUTCOME_COLOURS: Record<TAuditOutcome, ChipProps['color']> = {
  DONE: 'success',
  SUCCEEDED: 'success',
  INTENT: 'warning',
  FAILED: 'error',
};

export function OutcomeChip({ outcome }: { outcome: TAuditOutcome }) {
  const { t } = useTranslation('staff');
  return (
    <Chip size="small" variant="outlined" color={OUTCOME_COLOURS[outcome]} label={t(`audit.outcomes.${outcome}`)} />
  );
}
