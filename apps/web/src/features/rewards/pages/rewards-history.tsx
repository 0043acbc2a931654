import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CampaignOutlinedIcon from '@mui/icons-material/CampaignOutlined';
import RedeemOutlinedIcon from '@mui/icons-material/RedeemOutlined';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { EmptyList, PagedList } from '../../../components/list/paged-list.tsx';
import { Page } from '../../../components/page.tsx';
import { isProblem } from '../../../lib/problems.ts';
import { useCampaignHistory, type RewardPageQuery } from '../api/get-campaign-history.ts';
import { useClaimHistory } from '../api/get-claim-history.ts';
import { useOptins } from '../api/get-optins.ts';
import { CampaignHistoryTable, ClaimHistoryTable } from '../components/history-tables.tsx';
import { isHistoryAllowed } from '../guard.ts';
import { rewardPaths } from '../paths.ts';

/** Spec §9: page sizes 5, 10, 50, 100; 5 by default. */
export const HISTORY_PAGE_SIZES = [5, 10, 50, 100] as const;
const FIRST_PAGE: RewardPageQuery = { page: 0, size: HISTORY_PAGE_SIZES[0] };

type HistoryTab = 'campaigns' | 'claims';

/** Paging of a tab: a new size starts from the first page. */
function pagingHandlers(set: (next: RewardPageQuery) => void, current: RewardPageQuery) {
  return {
    page: current.page,
    size: current.size,
    pageSizes: HISTORY_PAGE_SIZES,
    onPage: (page: number) => set({ ...current, page }),
    onSize: (size: number) => set({ page: 0, size }),
  };
}

function CampaignHistoryPanel({
  paging,
  onPaging,
}: {
  paging: RewardPageQuery;
  onPaging: (next: RewardPageQuery) => void;
}) {
  const { t } = useTranslation('reward');
  const history = useCampaignHistory(paging);
  return (
    <PagedList
      query={history}
      retryLabel={t('retry')}
      loadErrorText={t('history.campaigns.loadError')}
      placeholderRowHeight={37}
      rowsPerPageLabel={t('history.rowsPerPage')}
      {...pagingHandlers(onPaging, paging)}
      empty={
        <EmptyList
          icon={<CampaignOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />}
          isFiltered={false}
          filteredText=""
          clearLabel=""
          onClear={() => undefined}
          title={t('history.campaigns.empty.title')}
          body={t('history.campaigns.empty.body')}
          action={
            <Button component={RouterLink} to={rewardPaths.rewards} variant="outlined">
              {t('history.campaigns.empty.action')}
            </Button>
          }
        />
      }
    >
      {(data) => <CampaignHistoryTable rows={data.content} />}
    </PagedList>
  );
}

function ClaimHistoryPanel({
  paging,
  onPaging,
}: {
  paging: RewardPageQuery;
  onPaging: (next: RewardPageQuery) => void;
}) {
  const { t } = useTranslation('reward');
  const history = useClaimHistory(paging);
  return (
    <PagedList
      query={history}
      retryLabel={t('retry')}
      loadErrorText={t('history.claims.loadError')}
      placeholderRowHeight={45}
      rowsPerPageLabel={t('history.rowsPerPage')}
      {...pagingHandlers(onPaging, paging)}
      empty={
        <EmptyList
          icon={<RedeemOutlinedIcon sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />}
          isFiltered={false}
          filteredText=""
          clearLabel=""
          onClear={() => undefined}
          title={t('history.claims.empty.title')}
          body={t('history.claims.empty.body')}
          action={
            <Button component={RouterLink} to={rewardPaths.rewards} variant="outlined">
              {t('history.claims.empty.action')}
            </Button>
          }
        />
      }
    >
      {(data) => <ClaimHistoryTable rows={data.content} />}
    </PagedList>
  );
}

/**
 * Rewards history (issue 34 §2; spec §2, §4: only for users who ever opted in, who others are
 * sent to Rewards): the tabs Campaign history and Claim history, each paged on its own. The tab
 * lives in the address (`?tab=claims`), so the claim stepper can lead straight to the claims.
 */
export function RewardsHistoryPage() {
  const { t } = useTranslation('reward');
  const tabsId = useId();
  const [params, setParams] = useSearchParams();
  const tab: HistoryTab = params.get('tab') === 'claims' ? 'claims' : 'campaigns';
  const [campaignPaging, setCampaignPaging] = useState(FIRST_PAGE);
  const [claimPaging, setClaimPaging] = useState(FIRST_PAGE);
  // The route's guard decided on entering; the page holds to it when the state is read again.
  const optins = useOptins();
  if (optins.data ? !isHistoryAllowed(optins.data) : isProblem(optins.error, 'REWARDS_NEED_QNT_PLAN')) {
    return <Navigate to={rewardPaths.rewards} replace />;
  }

  const handleTab = (next: HistoryTab) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'claims') updated.set('tab', 'claims');
        else updated.delete('tab');
        return updated;
      },
      { replace: true },
    );

  return (
    <Page
      title={t('history.title')}
      description={t('history.description')}
      actions={
        <Button component={RouterLink} to={rewardPaths.rewards} startIcon={<ArrowBackIcon aria-hidden />}>
          {t('history.back')}
        </Button>
      }
    >
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Tabs
          value={tab}
          onChange={(_event, value: HistoryTab) => handleTab(value)}
          aria-label={t('history.tabs.label')}
          sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}
        >
          {(['campaigns', 'claims'] as const).map((value) => (
            <Tab
              key={value}
              value={value}
              id={`${tabsId}-${value}`}
              aria-controls={`${tabsId}-panel`}
              label={t(`history.tabs.${value}`)}
            />
          ))}
        </Tabs>
        <div role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
          {tab === 'campaigns' ? (
            <CampaignHistoryPanel paging={campaignPaging} onPaging={setCampaignPaging} />
          ) : (
            <ClaimHistoryPanel paging={claimPaging} onPaging={setClaimPaging} />
          )}
        </div>
      </Paper>
    </Page>
  );
}
