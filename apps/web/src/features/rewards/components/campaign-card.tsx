import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { REWARD_MESSAGES, type TOptinsResponse } from '@connect/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/query-state.tsx';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import type { TActiveCampaign } from '../api/get-active-campaigns.ts';
import type { TCampaignProgress } from '../api/get-progress.ts';
import { formatCampaignDay, formatRewardQnt } from '../format.ts';
import { CampaignStatusChip } from './status-chips.tsx';
import { TaskList } from './task-list.tsx';

/** Why the account may not opt in now, in words (the reason of GET /campaigns/optins). */
function useNotAllowedText(reason: TOptinsResponse['reason']): string {
  const { t } = useTranslation('reward');
  if (reason === 'PLAN') return REWARD_MESSAGES.rewardsNeedQntPlan;
  if (reason === 'FULL') return REWARD_MESSAGES.campaignFull;
  return t(reason === 'OPTED_IN' ? 'campaigns.notAllowed.OPTED_IN' : 'campaigns.notAllowed.NONE');
}

export type CampaignOptIn = {
  /** When the account opted in to this campaign; null when it has not. */
  optedInAt: string | null;
  isAllowed: boolean;
  reason: TOptinsResponse['reason'];
  isPending: boolean;
  /** The last attempt failed (spec §8's text shows). */
  hasFailed: boolean;
  onOptIn: () => void;
};

/** The progress of a campaign the account takes part in, as the page's poll has it. */
export type CampaignProgressState = {
  progress: TCampaignProgress | undefined;
  isError: boolean;
  onRetry: () => void;
};

/**
 * A campaign open to opt in or running: its visible name, days, what it is worth, its tasks; then
 * either the Opt in button (disabled, with the reason, when the account may not), the
 * campaign-full state, or — once in — the customer's progress per task and what it earned.
 */
export function CampaignCard({
  campaign,
  optIn,
  progress,
}: {
  campaign: TActiveCampaign;
  optIn: CampaignOptIn;
  progress: CampaignProgressState;
}) {
  const { t } = useTranslation('reward');
  const titleId = useId();
  const reasonId = useId();
  const notAllowedText = useNotAllowedText(optIn.reason);
  const isOptedIn = optIn.optedInAt !== null;
  return (
    <Paper variant="outlined" component="article" aria-labelledby={titleId} sx={{ p: 3 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id={titleId} variant="h3" sx={{ fontSize: 18, mr: 1 }}>
          {campaign.visibleName}
        </Typography>
        <CampaignStatusChip status={campaign.status} startDate={campaign.startDate} />
        {campaign.full ? <Chip size="small" variant="outlined" color="warning" label={t('campaigns.full')} /> : null}
      </Stack>
      <Stack direction="row" spacing={3} sx={{ mt: 1, flexWrap: 'wrap', color: 'text.secondary' }}>
        <Typography variant="body2">
          {t('campaigns.dates', {
            start: formatCampaignDay(campaign.startDate),
            end: formatCampaignDay(campaign.endDate),
          })}
        </Typography>
        <Typography variant="body2">{t('campaigns.value', { amount: formatRewardQnt(campaign.qntValue) })}</Typography>
        <Typography variant="body2">
          {t('campaigns.places', {
            taken: formatNumber(Math.min(campaign.optedIn, campaign.participants)),
            total: formatNumber(campaign.participants),
          })}
        </Typography>
      </Stack>

      <Typography variant="subtitle2" component="h4" sx={{ mt: 2.5, mb: 1 }}>
        {t('campaigns.tasks')}
      </Typography>
      <TaskList tasks={campaign.tasks} isOptedIn={isOptedIn} progress={progress.progress?.tasks} />

      <Box sx={{ mt: 2.5 }}>
        {isOptedIn ? (
          <Stack spacing={1}>
            <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
              <Typography variant="body2" color="text.secondary">
                {t('campaigns.optedIn', { date: formatDate(optIn.optedInAt) })}
              </Typography>
              {progress.progress ? (
                <Typography sx={{ fontWeight: 600 }}>
                  {t('campaigns.earned', {
                    earned: formatRewardQnt(progress.progress.earned),
                    total: formatRewardQnt(campaign.qntValue),
                  })}
                </Typography>
              ) : (
                <Skeleton variant="text" width={160} aria-hidden />
              )}
            </Stack>
            {progress.isError ? (
              <QueryError variant="row" message={t('progress.loadError')} onRetry={progress.onRetry} />
            ) : null}
          </Stack>
        ) : campaign.full ? (
          <Alert severity="warning">{REWARD_MESSAGES.campaignFull}</Alert>
        ) : (
          <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Button
              variant="contained"
              onClick={optIn.onOptIn}
              loading={optIn.isPending}
              disabled={!optIn.isAllowed}
              aria-label={t('campaigns.optInto', { name: campaign.visibleName })}
              {...(optIn.isAllowed ? {} : { 'aria-describedby': reasonId })}
            >
              {t('campaigns.optIn')}
            </Button>
            {optIn.isAllowed ? null : (
              <Typography id={reasonId} variant="body2" color="text.secondary">
                {notAllowedText}
              </Typography>
            )}
            {optIn.hasFailed ? (
              <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
                {REWARD_MESSAGES.optInFailed}
              </Alert>
            ) : null}
          </Stack>
        )}
      </Box>
    </Paper>
  );
}

/** A campaign card's place while the campaigns load. */
export function CampaignCardSkeleton() {
  return <Skeleton variant="rounded" height={280} aria-hidden />;
}
