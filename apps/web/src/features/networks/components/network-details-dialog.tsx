import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TUserNetwork } from '@connect/shared';
import { CopyButton } from '../../../components/copy-button.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { NetworkStatusChip, SandboxChip } from './network-status-chip.tsx';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} component="div" sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ width: 220, flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Stack>
  );
}

/** Where applications send JSON-RPC for this network (the platform API's gateway). */
const gatewayUrl = (networkId: string) => `${window.location.origin}/api/gateway/${networkId}`;

/** Everything known about one of the account's networks. */
export function NetworkDetailsDialog({ network, onClose }: { network: TUserNetwork | null; onClose: () => void }) {
  const { t } = useTranslation('integrate');
  const titleId = useId();
  const details = network?.private ?? null;
  const yesNo = (value: boolean) => (value ? t('details.yes') : t('details.no'));
  return (
    <Dialog open={Boolean(network)} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      {network ? (
        <>
          <DialogTitle id={titleId}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <span>{t('details.title', { name: network.network })}</span>
              <NetworkStatusChip status={network.status} />
              {network.isLocal ? <SandboxChip /> : null}
            </Stack>
          </DialogTitle>
          <DialogContent>
            <Stack component="dl" sx={{ m: 0 }}>
              <Row label={t('columns.networkType')}>{t(`networkType.${network.networkType}`)}</Row>
              <Row label={t('columns.technology')}>{network.technology}</Row>
              <Row label={t('details.chainId')}>{network.chainId}</Row>
              {details ? (
                <>
                  <Row label={t('details.environment')}>{t(`private.fields.${details.environment}`)}</Row>
                  <Row label={t('details.rpcUrl')}>
                    <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace' }}>
                      {details.url}
                    </Typography>
                  </Row>
                  <Row label={t('details.nodeType')}>{t(`private.fields.${details.nodeType}`)}</Row>
                  <Row label={t('details.tokenSymbol')}>{details.tokenSymbol}</Row>
                  <Row label={t('details.tokenDecimals')}>{details.tokenDecimals}</Row>
                  <Row label={t('details.numberOfBlocks')}>{details.numberOfBlocks}</Row>
                  <Row label={t('details.eip1559')}>{yesNo(details.eip1559)}</Row>
                  <Row label={t('details.submittedAt')}>{formatDateTime(details.submittedAt)}</Row>
                  {details.reviewedAt ? (
                    <Row label={t('details.reviewedAt')}>{formatDateTime(details.reviewedAt)}</Row>
                  ) : null}
                  {details.reviewNote ? (
                    <Row label={t(network.status === 'REJECTED' ? 'details.rejectionReason' : 'details.reviewNote')}>
                      {details.reviewNote}
                    </Row>
                  ) : null}
                  {details.removalRequestedAt ? (
                    <Row label={t('details.removalRequestedAt')}>{formatDateTime(details.removalRequestedAt)}</Row>
                  ) : null}
                  {details.removedAt ? (
                    <Row label={t('details.removedAt')}>{formatDateTime(details.removedAt)}</Row>
                  ) : null}
                </>
              ) : (
                <>
                  <Row label={t('details.gateway')}>
                    <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace' }}>
                      {gatewayUrl(network.id)}
                    </Typography>
                    <CopyButton value={gatewayUrl(network.id)} label={t('details.copyGateway')} />
                    <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {t('details.gatewayHint')}
                    </Typography>
                  </Row>
                  <Row label={t('details.latestBlock')}>{formatNumber(network.latestBlock)}</Row>
                  <Row label={t('details.checkedAt')}>{formatDateTime(network.healthCheckedAt)}</Row>
                  <Row label={t('columns.networkRateLimit')}>
                    {network.networkRateLimit === null
                      ? t('notApplicable')
                      : t('details.rateLimit', {
                          count: network.networkRateLimit,
                          value: formatNumber(network.networkRateLimit),
                        })}
                  </Row>
                  {network.explorerUrl ? (
                    <Row label={t('details.explorer')}>
                      <Link href={network.explorerUrl} target="_blank" rel="noopener noreferrer">
                        {network.explorerUrl}
                      </Link>
                    </Row>
                  ) : null}
                </>
              )}
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={onClose}>{t('actions.close')}</Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}
