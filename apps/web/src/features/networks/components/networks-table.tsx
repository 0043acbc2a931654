import MoreVertIcon from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TUserNetwork } from '@connect/shared';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { NetworkStatusChip, SandboxChip } from './network-status-chip.tsx';

type SortKey = 'network' | 'activatedDate';
type Sort = { key: SortKey; direction: 'asc' | 'desc' };

const HINTED = new Set<TUserNetwork['status']>(['UNDER_REVIEW', 'REMOVAL_REQUESTED']);

function compare(a: TUserNetwork, b: TUserNetwork, sort: Sort): number {
  const sign = sort.direction === 'asc' ? 1 : -1;
  if (sort.key === 'network') return sign * a.network.localeCompare(b.network, 'en', { sensitivity: 'base' });
  return sign * (Date.parse(a.activatedDate ?? '') || 0) - sign * (Date.parse(b.activatedDate ?? '') || 0);
}

/**
 * The network table of spec §2.5: networkType, network, technology, status, activatedDate,
 * networkRateLimit and a row action menu.
 */
export function NetworksTable({
  networks,
  labelledBy,
  onDetails,
  onRequestRemoval,
}: {
  networks: TUserNetwork[];
  labelledBy: string;
  onDetails: (network: TUserNetwork) => void;
  onRequestRemoval?: (network: TUserNetwork) => void;
}) {
  const { t } = useTranslation('integrate');
  const [sort, setSort] = useState<Sort>({ key: 'network', direction: 'asc' });
  const rows = useMemo(() => [...networks].sort((a, b) => compare(a, b, sort)), [networks, sort]);

  const sortable = (key: SortKey, label: string) => (
    <TableSortLabel
      active={sort.key === key}
      direction={sort.key === key ? sort.direction : 'asc'}
      onClick={() =>
        setSort((current) => ({
          key,
          direction: current.key === key && current.direction === 'asc' ? 'desc' : 'asc',
        }))
      }
    >
      {label}
    </TableSortLabel>
  );
  const ariaSort = (key: SortKey) =>
    sort.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined;

  return (
    <TableContainer sx={{ maxHeight: 480 }}>
      {/* Fixed widths, so the three sections' columns line up under each other. */}
      <Table stickyHeader size="small" aria-labelledby={labelledBy} sx={{ tableLayout: 'fixed', minWidth: 760 }}>
        <colgroup>
          {['13%', '25%', '11%', '19%', '11%', '11%', '10%'].map((width, index) => (
            <col key={index} style={{ width }} />
          ))}
        </colgroup>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.networkType')}</TableCell>
            <TableCell aria-sort={ariaSort('network')}>{sortable('network', t('columns.network'))}</TableCell>
            <TableCell>{t('columns.technology')}</TableCell>
            <TableCell>{t('columns.status')}</TableCell>
            <TableCell aria-sort={ariaSort('activatedDate')}>
              {sortable('activatedDate', t('columns.activatedDate'))}
            </TableCell>
            <TableCell align="right">{t('columns.networkRateLimit')}</TableCell>
            <TableCell align="right">{t('columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((network) => (
            <TableRow key={network.id} hover>
              <TableCell>{t(`networkType.${network.networkType}`)}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {network.network}
                  </Typography>
                  {network.isLocal ? <SandboxChip /> : null}
                </Stack>
              </TableCell>
              <TableCell>{network.technology}</TableCell>
              <TableCell>
                <Stack spacing={0.25} sx={{ alignItems: 'flex-start' }}>
                  <NetworkStatusChip status={network.status} />
                  {HINTED.has(network.status) ? (
                    <Typography variant="caption" color="text.secondary">
                      {t(`statusHint.${network.status}`)}
                    </Typography>
                  ) : null}
                  {/* Issue 33 §4: the owner sees why at once, not only in the details. */}
                  {network.status === 'REJECTED' && network.private?.reviewNote ? (
                    <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {t('rejectedReason', { reason: network.private.reviewNote })}
                    </Typography>
                  ) : null}
                </Stack>
              </TableCell>
              <TableCell>{formatDate(network.activatedDate)}</TableCell>
              <TableCell align="right">
                {network.networkRateLimit === null
                  ? t('notApplicable')
                  : t('rateLimit', { value: formatNumber(network.networkRateLimit) })}
              </TableCell>
              <TableCell align="right">
                <RowActions network={network} onDetails={onDetails} onRequestRemoval={onRequestRemoval} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function RowActions({
  network,
  onDetails,
  onRequestRemoval,
}: {
  network: TUserNetwork;
  onDetails: (network: TUserNetwork) => void;
  onRequestRemoval?: (network: TUserNetwork) => void;
}) {
  const { t } = useTranslation('integrate');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const canRemove =
    onRequestRemoval && network.networkType === 'private' && !['REMOVAL_REQUESTED', 'REMOVED'].includes(network.status);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        aria-label={t('actions.rowActions', { name: network.network })}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        size="small"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        <MenuItem
          onClick={() => {
            close();
            onDetails(network);
          }}
        >
          {t('actions.details')}
        </MenuItem>
        {network.explorerUrl ? (
          <MenuItem component="a" href={network.explorerUrl} target="_blank" rel="noopener noreferrer" onClick={close}>
            {t('actions.openExplorer')}
          </MenuItem>
        ) : null}
        {canRemove ? (
          <MenuItem
            onClick={() => {
              close();
              onRequestRemoval(network);
            }}
            sx={{ color: 'error.main' }}
          >
            {t('actions.requestRemoval')}
          </MenuItem>
        ) : null}
      </Menu>
    </>
  );
}
