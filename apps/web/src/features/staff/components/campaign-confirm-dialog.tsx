import { REWARD_MESSAGES, type TCampaign } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatQnt } from '../../../lib/plans/money.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useDeleteCampaign } from '../api/delete-campaign.ts';
import { useUpdateCampaignStatus } from '../api/update-campaign-status.ts';
import type { CampaignTransition } from './campaign-columns.tsx';
import { campaignBudgetWei, formatDay, formatRewardQnt } from './reward-format.ts';

export type CampaignConfirm = 'delete' | CampaignTransition;

const KEYS: Record<CampaignConfirm, string> = {
  delete: 'delete',
  PUBLISHED: 'publish',
  DRAFT: 'draft',
  COMPLETED: 'end',
};

/**
 * Delete a draft, or move a campaign along CAMPAIGN_STAFF_TRANSITIONS (publish, back to draft, end
 * now): a confirmation naming the campaign and what follows — for a publication, the budget the
 * treasury must hold. The server's refusal is shown in the dialog in its own words (a treasury
 * short of the budget, a campaign without a published task…); a failed deletion says spec §8's
 * 'Campaign deletion failed.' before the reason.
 */
export function CampaignConfirmDialog({
  campaign,
  action,
  onClose,
}: {
  campaign: TCampaign;
  action: CampaignConfirm;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const remove = useDeleteCampaign();
  const status = useUpdateCampaignStatus();
  const mutation = action === 'delete' ? remove : status;
  const key = KEYS[action];
  const texts = {
    name: campaign.name,
    start: formatDay(campaign.startDate),
    end: formatDay(campaign.endDate),
    value: formatRewardQnt(campaign.qntValue),
    participants: formatNumber(campaign.participants),
    budget: formatQnt(campaignBudgetWei(campaign.qntValue, campaign.participants)),
  };

  const handleConfirm = () => {
    const onSuccess = () => {
      snackbar.show({ type: 'success', title: t(`campaigns.${key}.done`, texts) });
      onClose();
    };
    if (action === 'delete') remove.mutate(campaign.id, { onSuccess });
    else status.mutate({ campaignId: campaign.id, status: action }, { onSuccess });
  };

  const error = mutation.isError
    ? action === 'delete'
      ? `${REWARD_MESSAGES.deletionFailed} ${problemMessage(mutation.error)}`
      : problemMessage(mutation.error)
    : null;
  return (
    <ConfirmDialog
      open
      title={t(`campaigns.${key}.title`, texts)}
      confirmLabel={t(`campaigns.${key}.confirm`)}
      isDestructive={action === 'delete' || action === 'COMPLETED'}
      isPending={mutation.isPending}
      error={error}
      onConfirm={handleConfirm}
      onClose={onClose}
    >
      {t(`campaigns.${key}.text`, texts)}
    </ConfirmDialog>
  );
}
