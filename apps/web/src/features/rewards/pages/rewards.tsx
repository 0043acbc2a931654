import CampaignOutlinedIcon from '@mui/icons-material/CampaignOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import type { TOptinsResponse } from '@connect/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { QueryState } from '../../../components/query-state.tsx';
import { isProblem, problemMessage } from '../../../lib/problems.ts';
import { useActiveCampaigns, type TActiveCampaign } from '../api/get-active-campaigns.ts';
import { getOptinsQueryOptions, useOptins } from '../api/get-optins.ts';
import { useProgress, type TCampaignProgress } from '../api/get-progress.ts';
import { useOptIn } from '../api/opt-in.ts';
import { BalanceCard, BalanceCardSkeleton } from '../components/balance-card.tsx';
import { CampaignCard, CampaignCardSkeleton } from '../components/campaign-card.tsx';
import { ClaimDialog } from '../components/claim-dialog.tsx';
import { NeedQntPlan } from '../components/need-qnt-plan.tsx';
import { RewardsIntro } from '../components/rewards-intro.tsx';
import { rewardPaths } from '../paths.ts';

/**
 * A task done adds its value to the balance: when the polled progress shows more earned, the
 * reward state (balance, held) is read again, so the figure follows without a poll of its own.
 */
function useBalanceFollowsProgress(progress: TCampaignProgress[] | undefined) {
  const queryClient = useQueryClient();
  const earned = progress?.map((campaign) => `${campaign.campaignId}:${campaign.earned}`).join('|');
  const previous = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (earned === undefined) return;
    if (previous.current !== undefined && previous.current !== earned) {
      void queryClient.invalidateQueries({ queryKey: getOptinsQueryOptions().queryKey });
    }
    previous.current = earned;
  }, [earned, queryClient]);
}

/** The campaigns open or running, each with the opt-in or the customer's progress. */
function Campaigns({ state }: { state: TOptinsResponse }) {
  const { t } = useTranslation('reward');
  const campaigns = useActiveCampaigns();
  const progress = useProgress(state.optins.length > 0);
  const optIn = useOptIn();
  const [failedId, setFailedId] = useState<string | null>(null);
  useBalanceFollowsProgress(progress.data);

  const handleOptIn = (campaign: TActiveCampaign) => {
    setFailedId(null);
    optIn.mutate(campaign.id, { onError: () => setFailedId(campaign.id) });
  };

  return (
    <Box component="section" aria-labelledby="rewards-campaigns" sx={{ mt: 4 }}>
      <Typography id="rewards-campaigns" variant="h2" sx={{ fontSize: 20, mb: 2 }}>
        {t('campaigns.title')}
      </Typography>
      <QueryState
        query={campaigns}
        loading={<CampaignCardSkeleton />}
        errorMessage={(error) => `${t('campaigns.loadError')} ${problemMessage(error)}`}
        retryLabel={t('retry')}
      >
        {(list) =>
          list.length === 0 ? (
            <Paper variant="outlined" sx={{ textAlign: 'center', py: 6, px: 2 }}>
              <CampaignOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
              <Typography variant="h3" sx={{ mt: 1, fontSize: 18 }}>
                {t('campaigns.empty.title')}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                {t('campaigns.empty.body')}
              </Typography>
            </Paper>
          ) : (
            <Stack spacing={2}>
              {list.map((campaign) => {
                const optin = state.optins.find((entry) => entry.campaignId === campaign.id);
                return (
                  <CampaignCard
                    key={campaign.id}
                    campaign={campaign}
                    optIn={{
                      optedInAt: optin?.optedInAt ?? null,
                      isAllowed: state.allowedToOptIn,
                      reason: state.reason,
                      isPending: optIn.isPending && optIn.variables === campaign.id,
                      hasFailed: failedId === campaign.id,
                      onOptIn: () => handleOptIn(campaign),
                    }}
                    progress={{
                      progress: progress.data?.find((entry) => entry.campaignId === campaign.id),
                      isError: progress.isError,
                      onRetry: () => void progress.refetch(),
                    }}
                  />
                );
              })}
            </Stack>
          )
        }
      </QueryState>
    </Box>
  );
}

/**
 * Rewards (issue 34 §2; spec §2 Rewards, feature reward): what rewards are, the REWARD_QNT balance
 * with the Claim button, and the campaigns — opt in, or follow the progress per task, polled
 * while the page is open. A customer without a paid plan bought with QNT (the reward state's
 * reason PLAN) is told what is needed and led to the upgrade journey instead.
 */
export function RewardsPage() {
  const { t } = useTranslation('reward');
  const optins = useOptins();
  const [isClaiming, setIsClaiming] = useState(false);

  // The reward state says why opting in is not allowed; PLAN: no paid plan bought with QNT (or the
  // feature off), and every other reward call would answer 409 REWARDS_NEED_QNT_PLAN.
  if (optins.data?.reason === 'PLAN' || isProblem(optins.error, 'REWARDS_NEED_QNT_PLAN')) {
    return (
      <Page title={t('title')}>
        <NeedQntPlan />
      </Page>
    );
  }

  return (
    <Page
      title={t('title')}
      description={t('description')}
      actions={
        optins.data?.everOptedIn ? (
          <Button
            component={RouterLink}
            to={rewardPaths.history}
            variant="outlined"
            startIcon={<HistoryOutlinedIcon aria-hidden />}
          >
            {t('historyLink')}
          </Button>
        ) : null
      }
    >
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 5 }}>
          <QueryState
            query={optins}
            loading={<BalanceCardSkeleton />}
            errorMessage={(error) => `${t('balance.loadError')} ${problemMessage(error)}`}
            retryLabel={t('retry')}
          >
            {(state) => <BalanceCard state={state} onClaim={() => setIsClaiming(true)} />}
          </QueryState>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <RewardsIntro />
        </Grid>
      </Grid>
      {optins.data ? (
        <Campaigns state={optins.data} />
      ) : optins.isError ? null : (
        <Box sx={{ mt: 4 }} aria-hidden>
          <Skeleton variant="text" width={140} height={32} sx={{ mb: 2 }} />
          <CampaignCardSkeleton />
        </Box>
      )}
      {isClaiming && optins.data ? (
        <ClaimDialog
          bounds={{ balance: optins.data.balance, minClaim: optins.data.minClaim }}
          onClose={() => setIsClaiming(false)}
        />
      ) : null}
    </Page>
  );
}
