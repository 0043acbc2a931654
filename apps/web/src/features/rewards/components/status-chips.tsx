import Chip, { type ChipProps } from '@mui/material/Chip';
import type { TCampaignStatus, TClaimStatus } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { formatCampaignDay } from '../format.ts';

// Spec §4: ACTIVE green, PUBLISHED primary, DRAFT default, COMPLETED blue. The label says it in
// words, so colour is never the only signal.
const CAMPAIGN_COLOURS: Record<TCampaignStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PUBLISHED: 'primary',
  DRAFT: 'default',
  COMPLETED: 'info',
};

/** A campaign's status as the customer reads it: "Running", or "Opens 01.12.2026" before its start. */
export function CampaignStatusChip({ status, startDate }: { status: TCampaignStatus; startDate: string }) {
  const { t } = useTranslation('reward');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={CAMPAIGN_COLOURS[status]}
      label={t(`campaigns.status.${status}`, { date: formatCampaignDay(startDate) })}
    />
  );
}

// shared/UI.md: amber while waiting, green once paid, red when refused.
const CLAIM_COLOURS: Record<TClaimStatus, ChipProps['color']> = {
  PENDING: 'warning',
  PAYING: 'warning',
  COMPLETED: 'success',
  REJECTED: 'error',
};

export function ClaimStatusChip({ status }: { status: TClaimStatus }) {
  const { t } = useTranslation('reward');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={CLAIM_COLOURS[status]}
      label={t(`history.claims.statuses.${status}`)}
    />
  );
}
