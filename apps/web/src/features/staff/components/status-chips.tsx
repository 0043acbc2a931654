import Chip, { type ChipProps } from '@mui/material/Chip';
import type { KycStatus, PlanStatus, TAccountListStatus, TAuditOutcome } from '@connect/shared';
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

// An account that is not active says so beside its name: amber while its users are only invited,
// red once removed (an active account needs no chip).
const ACCOUNT_COLOURS: Record<TAccountListStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PENDING: 'warning',
  REMOVED: 'error',
};

export function AccountStatusChip({ status }: { status: TAccountListStatus }) {
  const { t } = useTranslation('staff');
  return (
    <Chip size="small" variant="outlined" color={ACCOUNT_COLOURS[status]} label={t(`accounts.statuses.${status}`)} />
  );
}

// As on the customer's own plan section: green active, amber pending, grey inactive, red disabled.
const PLAN_COLOURS: Record<PlanStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PENDING: 'warning',
  INACTIVE: 'default',
  DISABLED: 'error',
};

export function PlanStatusChip({ status }: { status: PlanStatus }) {
  const { t } = useTranslation('account');
  return (
    <Chip size="small" variant="outlined" color={PLAN_COLOURS[status]} label={t(`options.planStatus.${status}`)} />
  );
}
