import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Button from '@mui/material/Button';
import {
  MANAGEMENT_PRIVATE_NETWORK_SORT_FIELDS,
  PRIVATE_NETWORK_REVIEW_TABS,
  type TManagementPrivateNetwork,
  type TManagementPrivateNetworkSortField,
  type TPrivateNetworkStatus,
} from '@connect/shared';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page.tsx';
import { StaffList, StaffListEmpty, type StaffListTab } from '../../../components/staff-list/staff-list.tsx';
import { useStaffListState } from '../../../components/staff-list/use-staff-list-state.ts';
import { usePrivateNetworkReviews } from '../api/get-private-network-reviews.ts';
import { NetworkDecisionDialog } from '../components/network-decision-dialog.tsx';
import {
  networkReviewColumns,
  type NetworkDecision,
  type NetworkReviewAction,
} from '../components/network-review-columns.tsx';
import { NetworkReviewDetails } from '../components/network-review-details.tsx';

/** The queue's order: the longest wait first — the contract's default, so the address leaves it out. */
const DEFAULT_SORT = { field: 'submittedAt', direction: 'asc' } as const satisfies {
  field: TManagementPrivateNetworkSortField;
  direction: 'asc';
};

/** The tabs as the address writes them (`?tab=removal-requested`), lower case like the users' tabs. */
const TABS = PRIVATE_NETWORK_REVIEW_TABS.map((status) => status.toLowerCase().replace('_', '-'));
type ReviewTab = (typeof TABS)[number];
const statusOfTab = (tab: string): TPrivateNetworkStatus =>
  PRIVATE_NETWORK_REVIEW_TABS[Math.max(0, TABS.indexOf(tab))]!;

/**
 * Network review (issue 33 §4), management-admin: the private networks customers submitted, by
 * status (Under review first, with each status's count), searched by network, chain id,
 * organisation or email; a network's details with the live RPC check run again beside the list;
 * approve, reject with a reason, or complete a requested removal — each confirmed in a dialog.
 */
export function NetworkReviewPage() {
  const { t } = useTranslation('staff');
  const state = useStaffListState<TManagementPrivateNetworkSortField, ReviewTab>({
    sortFields: MANAGEMENT_PRIVATE_NETWORK_SORT_FIELDS,
    defaultSort: DEFAULT_SORT,
    tabs: { values: TABS, initial: TABS[0]! },
  });
  const status = statusOfTab(state.tab ?? TABS[0]!);
  const networks = usePrivateNetworkReviews({ status, ...state.wire });
  const [details, setDetails] = useState<TManagementPrivateNetwork | null>(null);
  const [decision, setDecision] = useState<{ network: TManagementPrivateNetwork; decision: NetworkDecision } | null>(
    null,
  );

  const handleAction = useCallback((network: TManagementPrivateNetwork, action: NetworkReviewAction) => {
    if (action === 'details') setDetails(network);
    else setDecision({ network, decision: action });
  }, []);
  const columns = useMemo(() => networkReviewColumns({ t, status, onAction: handleAction }), [t, status, handleAction]);

  const counts = networks.data?.statusCounts;
  const tabs: StaffListTab<ReviewTab>[] = TABS.map((tab) => ({
    value: tab,
    label: t(`networkReviews.statuses.${statusOfTab(tab)}`),
    count: counts?.[statusOfTab(tab)],
  }));

  return (
    <Page title={t('networkReviews.title')} description={t('networkReviews.description')}>
      <StaffList
        label={t('networkReviews.listLabel')}
        state={state}
        rows={networks.data?.networks ?? []}
        paging={networks.data}
        isFetching={networks.isFetching}
        error={networks.error}
        onRetry={() => void networks.refetch()}
        errorTitle={t('networkReviews.loadError')}
        columns={columns}
        getRowId={(network) => network.id}
        tabs={tabs}
        searchLabel={t('networkReviews.search')}
        empty={
          state.isFiltered ? (
            <StaffListEmpty
              icon={<SearchOffIcon />}
              text={t('networkReviews.empty.filtered')}
              action={
                <Button size="small" onClick={state.clearFilters}>
                  {t('list.clear')}
                </Button>
              }
            />
          ) : (
            // Networks come from customers' submissions on My networks, not from this page.
            <StaffListEmpty icon={<FactCheckOutlinedIcon />} text={t(`networkReviews.empty.${status}`)} />
          )
        }
        onOpenRow={setDetails}
      />
      {details ? (
        <NetworkReviewDetails
          network={details}
          onDecide={(network, chosen) => setDecision({ network, decision: chosen })}
          onClose={() => setDetails(null)}
        />
      ) : null}
      {/* Over the panel, beside it in the tree: its keys and clicks are not the panel's. */}
      {decision ? (
        <NetworkDecisionDialog
          network={decision.network}
          decision={decision.decision}
          onClose={() => setDecision(null)}
        />
      ) : null}
    </Page>
  );
}
