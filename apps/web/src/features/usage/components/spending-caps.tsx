import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TApplicationSpend } from '@connect/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useSpendingCaps } from '../api/get-spending-caps.ts';
import { formatCredits, formatShare } from '../utils/format.ts';
import { SpendingCapDialog } from './spending-cap-dialog.tsx';

function CapProgress({ spend }: { spend: TApplicationSpend }) {
  const { t } = useTranslation('usage');
  if (spend.monthlyCapCredits === null) {
    return <Typography color="text.secondary">{t('caps.noCap')}</Typography>;
  }
  const share = spend.usedCredits / spend.monthlyCapCredits;
  // The server's state (capState in the shared package) is the one rule of 85 % and 100 %.
  const level = spend.state;
  const label = t('caps.progress', { percent: formatShare(share) });
  return (
    <Stack spacing={0.75} sx={{ minWidth: 200 }}>
      <LinearProgress
        variant="determinate"
        value={Math.min(100, share * 100)}
        color={level === 'REACHED' ? 'error' : level === 'WARNING' ? 'warning' : 'primary'}
        aria-label={t('caps.progressLabel', { name: spend.name })}
        aria-valuetext={label}
        sx={{ height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" color="text.secondary">
        {label}
        {level === 'WARNING' ? ` · ${t('caps.nearing')}` : null}
      </Typography>
      {level === 'REACHED' ? (
        <Chip size="small" color="error" label={t('caps.reached')} sx={{ alignSelf: 'flex-start', maxWidth: '100%' }} />
      ) : null}
    </Stack>
  );
}

/** Spending caps (issue 17): each application's month against its cap, and the dialog that sets it. */
export function SpendingCaps() {
  const { t } = useTranslation('usage');
  const titleId = useId();
  const caps = useSpendingCaps();
  const [editing, setEditing] = useState<TApplicationSpend | null>(null);

  return (
    <Card component="section" aria-labelledby={titleId}>
      <Box sx={{ p: 3, pb: 1 }}>
        <Typography id={titleId} variant="h3" component="h2">
          {t('caps.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('caps.description')}
        </Typography>
      </Box>
      <QueryState
        query={caps}
        loading={
          <Box sx={{ px: 3, pb: 3 }} aria-busy="true">
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} height={48} />
            ))}
          </Box>
        }
        errorMessage={t('caps.loadFailed')}
        errorVariant="row"
        errorSx={{ px: 3 }}
      >
        {(data) =>
          data.applications.length === 0 ? (
            <Box sx={{ px: 3, pb: 3 }}>
              <Typography color="text.secondary" sx={{ mb: 1.5 }}>
                {t('caps.empty')}
              </Typography>
              <Button variant="outlined" component={RouterLink} to={paths.registerApplication}>
                {t('caps.register')}
              </Button>
            </Box>
          ) : (
            <Table size="small" aria-labelledby={titleId}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('caps.application')}</TableCell>
                  <TableCell align="right">{t('caps.used')}</TableCell>
                  <TableCell align="right">{t('caps.cap')}</TableCell>
                  <TableCell sx={{ width: '35%' }}>{t('caps.progressColumn')}</TableCell>
                  <TableCell align="right">{t('caps.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.applications.map((spend) => (
                  <TableRow key={spend.applicationId}>
                    <TableCell>{spend.name}</TableCell>
                    <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatCredits(spend.usedCredits)}
                    </TableCell>
                    <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {spend.monthlyCapCredits === null ? '—' : formatCredits(spend.monthlyCapCredits)}
                    </TableCell>
                    <TableCell>
                      <CapProgress spend={spend} />
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        variant={spend.monthlyCapCredits === null ? 'outlined' : 'text'}
                        onClick={() => setEditing(spend)}
                        aria-label={t(spend.monthlyCapCredits === null ? 'caps.setLabel' : 'caps.editLabel', {
                          name: spend.name,
                        })}
                      >
                        {spend.monthlyCapCredits === null ? t('caps.set') : t('caps.edit')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )
        }
      </QueryState>
      {editing ? <SpendingCapDialog spend={editing} onClose={() => setEditing(null)} /> : null}
    </Card>
  );
}
