import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { TCampaignHistoryResponse, TClaimHistoryResponse } from '@connect/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../components/visually-hidden.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { formatCampaignDay, formatExactQnt, formatRewardQnt } from '../format.ts';
import { Identifier, MONOSPACE } from './identifier.tsx';
import { ClaimStatusChip } from './status-chips.tsx';

/** A history table: sticky header, a caption for screen readers. */
function HistoryTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <Table stickyHeader size="small">
      <Box component="caption" sx={visuallyHidden}>
        {caption}
      </Box>
      <TableHead>
        <TableRow>
          {columns.map((column) => (
            <TableCell key={column}>{column}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>{children}</TableBody>
    </Table>
  );
}

/** The campaigns the account took part in, ended: their days, the tasks done and what each earned. */
export function CampaignHistoryTable({ rows }: { rows: TCampaignHistoryResponse['content'] }) {
  const { t } = useTranslation('reward');
  const columns = ['name', 'dates', 'tasks', 'earned'] as const;
  return (
    <HistoryTable
      caption={t('history.campaigns.caption')}
      columns={columns.map((column) => t(`history.campaigns.columns.${column}`))}
    >
      {rows.map((row) => (
        <TableRow key={row.campaignId} hover>
          <TableCell sx={{ fontWeight: 600 }}>{row.visibleName}</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            {t('campaigns.dates', { start: formatCampaignDay(row.startDate), end: formatCampaignDay(row.endDate) })}
          </TableCell>
          <TableCell>
            {t('history.campaigns.tasksDone', {
              done: formatNumber(row.tasksDone),
              total: formatNumber(row.taskCount),
            })}
          </TableCell>
          <TableCell>
            {t('history.campaigns.earnedOf', {
              earned: formatRewardQnt(row.earned),
              total: formatRewardQnt(row.qntValue),
            })}
          </TableCell>
        </TableRow>
      ))}
    </HistoryTable>
  );
}

/**
 * The account's claims, newest first: the tracking code (Claim ID), when, how much, to which
 * address, the status and — once paid — the transaction that paid it.
 */
export function ClaimHistoryTable({ rows }: { rows: TClaimHistoryResponse['content'] }) {
  const { t } = useTranslation('reward');
  const columns = ['trackingCode', 'date', 'amount', 'address', 'status', 'transaction'] as const;
  return (
    <HistoryTable
      caption={t('history.claims.caption')}
      columns={columns.map((column) => t(`history.claims.columns.${column}`))}
    >
      {rows.map((row) => (
        <TableRow key={row.id} hover>
          <TableCell sx={{ fontFamily: MONOSPACE, fontWeight: 600 }}>{row.trackingCode}</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(row.createdAt)}</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatExactQnt(row.amountClaimed)}</TableCell>
          <TableCell>
            <Identifier value={row.address} copyLabel={t('history.claims.copyAddress')} />
          </TableCell>
          <TableCell>
            <ClaimStatusChip status={row.status} />
          </TableCell>
          <TableCell>
            {row.status === 'COMPLETED' && row.txHash ? (
              <Identifier value={row.txHash} copyLabel={t('history.claims.copyTransaction')} />
            ) : (
              '–'
            )}
          </TableCell>
        </TableRow>
      ))}
    </HistoryTable>
  );
}
