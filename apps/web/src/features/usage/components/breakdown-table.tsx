import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import type { TUsageBucket, TUsageReport } from '@connect/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { formatCredits, formatShare } from '../utils/format.ts';
import { breakdown, type BreakdownRow } from '../utils/series.ts';

type SortKey = 'credits' | 'calls';
type Sort = { by: SortKey; direction: 'asc' | 'desc' };

const TOTAL = { fontWeight: 600, color: 'text.primary', fontSize: '0.875rem' } as const;
const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.8125rem' };

/** "Where your credits went": per application, network and method, sortable by credits (default) or calls. */
export function BreakdownTable({
  buckets,
  applications,
  networks,
}: {
  buckets: TUsageBucket[];
  applications: TUsageReport['applications'];
  networks: TUsageReport['networks'];
}) {
  const { t } = useTranslation('usage');
  const titleId = useId();
  const [sort, setSort] = useState<Sort>({ by: 'credits', direction: 'desc' });
  const { rows, calls, credits } = breakdown(buckets);
  const applicationNames = new Map(applications.map((application) => [application.id, application.name]));
  const networkNames = new Map(networks.map((network) => [network.id, network.name]));
  const sign = sort.direction === 'desc' ? -1 : 1;
  const sorted = [...rows].sort(
    (a, b) => sign * (a[sort.by] - b[sort.by]) || sign * (a.credits - b.credits) || a.key.localeCompare(b.key),
  );

  const handleSort = (by: SortKey) =>
    setSort((current) => ({ by, direction: current.by === by && current.direction === 'desc' ? 'asc' : 'desc' }));

  const sortableHeader = (by: SortKey, label: string) => (
    <TableCell align="right" sortDirection={sort.by === by ? sort.direction : false}>
      <TableSortLabel
        active={sort.by === by}
        direction={sort.by === by ? sort.direction : 'desc'}
        onClick={() => handleSort(by)}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );

  const applicationOf = (row: BreakdownRow) =>
    row.isDeployment || !row.applicationId ? t('breakdown.none') : (applicationNames.get(row.applicationId) ?? '—');

  return (
    <Card component="section" aria-labelledby={titleId}>
      <Box sx={{ p: 3, pb: 1 }}>
        <Typography id={titleId} variant="h3" component="h2">
          {t('breakdown.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('breakdown.description')}
        </Typography>
      </Box>
      <TableContainer sx={{ maxHeight: 520 }}>
        <Table stickyHeader size="small" aria-labelledby={titleId}>
          <TableHead>
            <TableRow>
              <TableCell>{t('breakdown.application')}</TableCell>
              <TableCell>{t('breakdown.network')}</TableCell>
              <TableCell>{t('breakdown.method')}</TableCell>
              {sortableHeader('calls', t('breakdown.calls'))}
              {sortableHeader('credits', t('breakdown.credits'))}
              <TableCell align="right">{t('breakdown.share')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {sorted.map((row) => (
              <TableRow key={row.key} hover>
                <TableCell>{applicationOf(row)}</TableCell>
                <TableCell>{row.networkId ? (networkNames.get(row.networkId) ?? '—') : '—'}</TableCell>
                <TableCell sx={row.isDeployment ? undefined : MONO}>
                  {row.isDeployment ? t('breakdown.deployment') : row.method}
                </TableCell>
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatNumber(row.calls)}
                </TableCell>
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatCredits(row.credits)}
                </TableCell>
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatShare(row.share)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell colSpan={3} sx={TOTAL}>
                {t('breakdown.total')}
              </TableCell>
              <TableCell align="right" sx={TOTAL}>
                {formatNumber(calls)}
              </TableCell>
              <TableCell align="right" sx={TOTAL}>
                {formatCredits(credits)}
              </TableCell>
              <TableCell align="right" sx={TOTAL}>
                {formatShare(credits > 0 ? 1 : 0)}
              </TableCell>
            </TableRow>
          </TableFooter>
        </Table>
      </TableContainer>
    </Card>
  );
}
