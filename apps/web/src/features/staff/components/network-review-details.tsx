import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TManagementPrivateNetwork, TPrivateNetworkRpcCheck } from '@connect/shared';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { usePrivateNetworkReview } from '../api/get-private-network-reviews.ts';
import { useRunPrivateNetworkRpcCheck } from '../api/run-private-network-rpc-check.ts';
import { DetailItem, DetailsDrawer } from './details-drawer.tsx';
import { Identifier } from './identifier.tsx';
import { decisionsFor, NetworkReviewStatusChip, type NetworkDecision } from './network-review-columns.tsx';
import { AccountStatusChip } from './status-chips.tsx';

const DAY_MS = 86_400_000;

/**
 * A private network's details beside the review list (issue 33 §4): every field the customer
 * entered, its lifecycle with who decided, the account and the submitter; the live RPC check run
 * again on demand; and the decisions its status allows. The network is read again when opened
 * (and after a decision), so the panel shows where it stands even when it has left the tab.
 */
export function NetworkReviewDetails({
  network: opened,
  onDecide,
  onClose,
}: {
  network: TManagementPrivateNetwork;
  onDecide: (network: TManagementPrivateNetwork, decision: NetworkDecision) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const query = usePrivateNetworkReview(opened);
  const network = query.data ?? opened;
  const yesNo = (value: boolean) => t(value ? 'networkReviews.details.yes' : 'networkReviews.details.no');
  const waitingDays = Math.max(0, Math.floor((Date.now() - Date.parse(network.submittedAt)) / DAY_MS));
  const isRejected = network.status === 'REJECTED';
  const decisions = decisionsFor(network.status);
  const submissionId = useId();

  return (
    <DetailsDrawer title={network.name} subtitle={network.account.organisationName ?? undefined} onClose={onClose}>
      {query.isError ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('networkReviews.details.loadError', { message: problemMessage(query.error) })}
        </Alert>
      ) : null}
      {decisions.length ? (
        <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
          {decisions.map((decision) => (
            <Button
              key={decision}
              variant={decision === 'APPROVE' ? 'contained' : 'outlined'}
              color={decision === 'APPROVE' ? 'primary' : 'error'}
              onClick={() => onDecide(network, decision)}
            >
              {t(`networkReviews.actions.${decision}`)}
            </Button>
          ))}
        </Stack>
      ) : null}
      <Box component="dl" sx={{ m: 0 }}>
        <DetailItem label={t('networkReviews.details.status')}>
          <Stack component="span" direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <NetworkReviewStatusChip status={network.status} />
            {network.status === 'UNDER_REVIEW' ? (
              <Typography component="span" variant="body2" color="text.secondary">
                {waitingDays > 0
                  ? t('networkReviews.details.waiting', { count: waitingDays })
                  : t('networkReviews.details.waitingToday')}
              </Typography>
            ) : null}
          </Stack>
        </DetailItem>
        <DetailItem label={t('networkReviews.details.chainId')}>{network.chainId}</DetailItem>
        <DetailItem label={t('networkReviews.details.url')}>
          <Identifier value={network.url} copyLabel={t('networkReviews.details.copyUrl')} isFull />
        </DetailItem>
        <DetailItem label={t('networkReviews.details.environment')}>
          {t(`networkReviews.details.environments.${network.environment}`)}
        </DetailItem>
        <DetailItem label={t('networkReviews.details.nodeType')}>
          {t(`networkReviews.details.nodeTypes.${network.nodeType}`)}
        </DetailItem>
        <DetailItem label={t('networkReviews.details.eip1559')}>{yesNo(network.eip1559)}</DetailItem>
        <DetailItem label={t('networkReviews.details.numberOfBlocks')}>{network.numberOfBlocks}</DetailItem>
        <DetailItem label={t('networkReviews.details.tokenSymbol')}>{network.tokenSymbol}</DetailItem>
        <DetailItem label={t('networkReviews.details.tokenDecimals')}>{network.tokenDecimals}</DetailItem>
      </Box>
      {/* The check beside what it checks: a reviewer runs it before deciding. */}
      <RpcCheckSection networkId={network.id} />
      <Typography id={submissionId} variant="h3" sx={{ mt: 3, mb: 0.5 }}>
        {t('networkReviews.details.submission')}
      </Typography>
      <Box component="dl" aria-labelledby={submissionId} sx={{ m: 0 }}>
        <DetailItem label={t('networkReviews.details.submittedAt')}>{formatDateTime(network.submittedAt)}</DetailItem>
        <DetailItem label={t('networkReviews.details.submittedBy')}>
          {network.submittedBy
            ? [network.submittedBy.name, network.submittedBy.email].filter(Boolean).join(' · ')
            : t('networkReviews.noUser')}
        </DetailItem>
        {network.reviewedAt ? (
          <DetailItem label={t('networkReviews.details.reviewedAt')}>{formatDateTime(network.reviewedAt)}</DetailItem>
        ) : null}
        {network.reviewedBy ? (
          <DetailItem label={t('networkReviews.details.reviewedBy')}>{network.reviewedBy}</DetailItem>
        ) : null}
        {network.reviewNote ? (
          <DetailItem
            label={t(isRejected ? 'networkReviews.details.rejectionReason' : 'networkReviews.details.reviewNote')}
          >
            {network.reviewNote}
          </DetailItem>
        ) : null}
        {network.removalRequestedAt ? (
          <DetailItem label={t('networkReviews.details.removalRequestedAt')}>
            {formatDateTime(network.removalRequestedAt)}
          </DetailItem>
        ) : null}
        {network.removedAt ? (
          <DetailItem label={t('networkReviews.details.removedAt')}>{formatDateTime(network.removedAt)}</DetailItem>
        ) : null}
        <DetailItem label={t('networkReviews.details.organisation')}>
          {network.account.organisationName ?? t('networkReviews.noOrganisation')}
        </DetailItem>
        {network.account.status ? (
          <DetailItem label={t('networkReviews.details.accountStatus')}>
            <AccountStatusChip status={network.account.status} />
          </DetailItem>
        ) : null}
        {network.account.owner ? (
          <DetailItem label={t('networkReviews.details.accountOwner')}>
            {[network.account.owner.name, network.account.owner.email].filter(Boolean).join(' · ')}
          </DetailItem>
        ) : null}
        <DetailItem label={t('networkReviews.details.accountId')}>
          <Identifier value={network.account.accountId} copyLabel={t('networkReviews.details.copyAccountId')} isFull />
        </DetailItem>
        <DetailItem label={t('networkReviews.details.networkId')}>
          <Identifier value={network.id} copyLabel={t('networkReviews.details.copyNetworkId')} isFull />
        </DetailItem>
      </Box>
    </DetailsDrawer>
  );
}

/** The live RPC check, run on demand; its answer stays until the panel closes or it is run again. */
function RpcCheckSection({ networkId }: { networkId: string }) {
  const { t } = useTranslation('staff');
  const headingId = useId();
  const check = useRunPrivateNetworkRpcCheck();
  const result = check.data?.networkId === networkId ? check.data : null;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h3" sx={{ mb: 0.5 }}>
        {t('networkReviews.rpc.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('networkReviews.rpc.hint')}
      </Typography>
      <Button variant="outlined" loading={check.isPending} onClick={() => check.mutate(networkId)}>
        {t(result ? 'networkReviews.rpc.runAgain' : 'networkReviews.rpc.run')}
      </Button>
      {/* Announced when it arrives: the person pressed the button and waits for this. */}
      <Box role="status" aria-live="polite" aria-labelledby={headingId} sx={{ mt: 1.5 }}>
        {check.isError ? (
          <Alert severity="error">
            <AlertTitle>{t('networkReviews.rpc.error')}</AlertTitle>
            {problemMessage(check.error)}
          </Alert>
        ) : result ? (
          <RpcCheckResult result={result} />
        ) : null}
      </Box>
    </Box>
  );
}

function RpcCheckResult({ result }: { result: TPrivateNetworkRpcCheck }) {
  const { t } = useTranslation('staff');
  const yesNo = (value: boolean) => t(value ? 'networkReviews.details.yes' : 'networkReviews.details.no');
  const lines: ReactNode[] = [];
  if (result.chainId !== null && result.latestBlock !== null && result.eip1559 !== null) {
    lines.push(
      t('networkReviews.rpc.reported', {
        chainId: result.chainId,
        expected: result.expectedChainId,
        block: formatNumber(result.latestBlock),
        eip1559: yesNo(result.eip1559).toLowerCase(),
      }),
    );
  } else {
    lines.push(t('networkReviews.rpc.unreachable'));
  }
  return (
    <Alert severity={result.isPassed ? 'success' : 'error'}>
      <AlertTitle>{t(result.isPassed ? 'networkReviews.rpc.passed' : 'networkReviews.rpc.failed')}</AlertTitle>
      {lines.map((line, index) => (
        <Typography key={index} variant="body2">
          {line}
        </Typography>
      ))}
      {result.problems.length ? (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
          {result.problems.map((problem) => (
            <li key={problem.name}>
              <Typography variant="body2">{problem.reason}</Typography>
            </li>
          ))}
        </Box>
      ) : null}
      <Typography variant="caption" color="text.secondary">
        {t('networkReviews.rpc.checkedAt', { date: formatDateTime(result.checkedAt) })}
      </Typography>
    </Alert>
  );
}
