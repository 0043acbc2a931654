import AddIcon from '@mui/icons-material/Add';
import CampaignOutlinedIcon from '@mui/icons-material/CampaignOutlined';
import Button from '@mui/material/Button';
import { CAMPAIGN_OPEN_STATUSES, CAMPAIGN_SORT_FIELDS, type TCampaign, type TCampaignStatus } from '@connect/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { StaffList, StaffListEmpty, type StaffListTab } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { paths } from '../../../config/paths.ts';
import { useManagementCampaigns } from '../api/get-management-campaigns.ts';
import { campaignColumns, type CampaignAction } from '../components/campaign-columns.tsx';
import { CampaignConfirmDialog, type CampaignConfirm } from '../components/campaign-confirm-dialog.tsx';
import { CampaignDialog } from '../components/campaign-dialog.tsx';
import { CampaignTreasury } from '../components/campaign-treasury.tsx';
import { staffPagingOf } from '../components/reward-format.ts';

/** Spec §4, §9: two tabs, All statuses by default; each asks for its own statuses. */
const TABS = ['all', 'completed'] as const;
type CampaignTab = (typeof TABS)[number];
const TAB_STATUSES: Record<CampaignTab, readonly TCampaignStatus[]> = {
  all: CAMPAIGN_OPEN_STATUSES,
  completed: ['COMPLETED'],
};

/** The latest start first (the contract's default): next month's campaign above this month's. */
const DEFAULT_SORT = { field: 'startDate', direction: 'desc' } as const satisfies {
  field: (typeof CAMPAIGN_SORT_FIELDS)[number];
  direction: 'desc';
};

type Dialog =
  { kind: 'create' } | { kind: 'edit'; campaign: TCampaign } | { kind: CampaignConfirm; campaign: TCampaign };

/**
 * Campaign management (spec §2 Administrator screens 4; issue 34 §1), management-admin: the
 * campaigns by tab — all statuses (active, published, draft) and completed — each paged on its own
 * with its count, the sortable columns of the staff list; create and edit a draft, publish it, take
 * it back to draft, end it, delete it; a row opens its tasks (Task Management). The treasury the
 * rewards are paid from sits above the list.
 */
export function CampaignManagementPage() {
  const { t } = useTranslation('staff');
  const navigate = useNavigate();
  const state = useStaffListState<(typeof CAMPAIGN_SORT_FIELDS)[number], CampaignTab>({
    sortFields: CAMPAIGN_SORT_FIELDS,
    defaultSort: DEFAULT_SORT,
    tabs: { values: TABS, initial: 'all' },
  });
  const tab = state.tab ?? 'all';
  const other: CampaignTab = tab === 'all' ? 'completed' : 'all';
  const wire = { page: state.page, size: state.size, sort: state.wire.sort };
  const campaigns = useManagementCampaigns({ ...wire, status: TAB_STATUSES[tab] });
  // The other tab's count: its first page as a switch would ask for it (a tab starts from page 1),
  // so switching shows it from the cache.
  const otherCampaigns = useManagementCampaigns({ ...wire, page: 0, status: TAB_STATUSES[other] });
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const openTasks = useCallback((campaign: TCampaign) => void navigate(paths.taskManagement(campaign.id)), [navigate]);
  const handleAction = useCallback(
    (campaign: TCampaign, action: CampaignAction) => {
      if (action === 'tasks') openTasks(campaign);
      else setDialog({ kind: action, campaign });
    },
    [openTasks],
  );
  const columns = useMemo(() => campaignColumns({ t, onAction: handleAction }), [t, handleAction]);

  const countOf = (value: CampaignTab) => (value === tab ? campaigns : otherCampaigns).data?.totalElements;
  const tabs: StaffListTab<CampaignTab>[] = TABS.map((value) => ({
    value,
    label: t(`campaigns.tabs.${value}`),
    count: countOf(value),
  }));
  const createButton = (variant: 'contained' | 'outlined') => (
    <Button
      variant={variant}
      size={variant === 'outlined' ? 'small' : 'medium'}
      startIcon={<AddIcon />}
      sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      onClick={() => setDialog({ kind: 'create' })}
    >
      {t('campaigns.create')}
    </Button>
  );

  return (
    <Page title={t('campaigns.title')} description={t('campaigns.description')} actions={createButton('contained')}>
      <CampaignTreasury />
      <StaffList
        label={t('campaigns.listLabel')}
        state={state}
        rows={campaigns.data?.content ?? []}
        paging={staffPagingOf(campaigns.data)}
        isFetching={campaigns.isFetching}
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
        errorTitle={t('campaigns.loadError')}
        columns={columns}
        getRowId={(campaign) => campaign.id}
        tabs={tabs}
        empty={
          <StaffListEmpty
            icon={<CampaignOutlinedIcon />}
            text={t(`campaigns.empty.${tab}`)}
            action={tab === 'all' ? createButton('outlined') : undefined}
          />
        }
        onOpenRow={openTasks}
      />
      {dialog?.kind === 'create' ? (
        <CampaignDialog campaign={null} onClose={() => setDialog(null)} onCreated={openTasks} />
      ) : dialog?.kind === 'edit' ? (
        <CampaignDialog campaign={dialog.campaign} onClose={() => setDialog(null)} />
      ) : dialog ? (
        <CampaignConfirmDialog campaign={dialog.campaign} action={dialog.kind} onClose={() => setDialog(null)} />
      ) : null}
    </Page>
  );
}
