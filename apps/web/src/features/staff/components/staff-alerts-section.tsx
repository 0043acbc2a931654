import TaskAltOutlinedIcon from '@mui/icons-material/TaskAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { TStaffAlert } from '@connect/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state.tsx';
import { useSnackbar } from '../../../components/snackbar/snackbar-context.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { useAcknowledgeStaffAlert } from '../api/acknowledge-staff-alert.ts';
import { useStaffAlerts } from '../api/get-staff-alerts.ts';
import { MONOSPACE, shortenMiddle } from './identifier.tsx';

function AlertRow({ alert }: { alert: TStaffAlert }) {
  const { t } = useTranslation('staff');
  const snackbar = useSnackbar();
  const acknowledge = useAcknowledgeStaffAlert();
  const handleAcknowledge = () =>
    acknowledge.mutate(alert.id, {
      onSuccess: () => snackbar.show({ type: 'success', title: t('alerts.acknowledged') }),
      onError: (error) =>
        snackbar.show({ type: 'error', title: t('alerts.acknowledgeFailed'), description: problemMessage(error) }),
    });
  return (
    <ListItem divider sx={{ alignItems: 'flex-start', gap: 2, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
          <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: 13, fontWeight: 600 }}>
            {alert.code}
          </Box>
          <Typography variant="body2" color="text.secondary">
            {formatDateTime(alert.raisedAt)}
          </Typography>
        </Stack>
        <Typography sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>{alert.message}</Typography>
        {alert.record ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
            {t('alerts.record')} {alert.record.type}{' '}
            <Box component="code" title={alert.record.id} sx={{ fontFamily: MONOSPACE, fontSize: 13 }}>
              {shortenMiddle(alert.record.id, 8, 4)}
            </Box>
          </Typography>
        ) : null}
      </Box>
      {alert.acknowledgedAt ? (
        <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
          {/* The answer names the acknowledging staff member by id only. */}
          {t('alerts.acknowledgedBy', {
            when: formatDateTime(alert.acknowledgedAt),
            who: alert.acknowledgedBy ? shortenMiddle(alert.acknowledgedBy, 8, 4) : t('alerts.someone'),
          })}
        </Typography>
      ) : (
        <Button
          variant="outlined"
          size="small"
          sx={{ flexShrink: 0 }}
          loading={acknowledge.isPending}
          disabled={acknowledge.isPending}
          onClick={handleAcknowledge}
          aria-label={t('alerts.acknowledgeLabel', { code: alert.code })}
        >
          {t('alerts.acknowledge')}
        </Button>
      )}
    </ListItem>
  );
}

/**
 * The staff alerts (issue 27 §4) on the audit log's page (issue 32 §1): the open ones to
 * acknowledge, or every alert with who acknowledged it and when.
 */
export function StaffAlertsSection() {
  const { t } = useTranslation('staff');
  const [isAllShown, setIsAllShown] = useState(false);
  const alerts = useStaffAlerts(isAllShown ? 'all' : 'open');
  return (
    <Paper variant="outlined" component="section" aria-labelledby="staff-alerts-title" sx={{ mb: 3 }}>
      <Stack
        direction="row"
        sx={{ px: 2, py: 1.5, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
      >
        <Typography id="staff-alerts-title" variant="h3" component="h2">
          {t('alerts.title')}
        </Typography>
        <FormControlLabel
          control={<Switch checked={isAllShown} onChange={(event) => setIsAllShown(event.target.checked)} />}
          label={t('alerts.showAll')}
        />
      </Stack>
      <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
        <QueryState
          query={alerts}
          loading={
            <Box sx={{ p: 2 }} aria-hidden>
              <Skeleton variant="rounded" height={48} sx={{ mb: 1 }} />
              <Skeleton variant="rounded" height={48} />
            </Box>
          }
          errorMessage={(error) => `${t('alerts.loadError')} ${problemMessage(error)}`}
          errorVariant="row"
          errorSx={{ px: 2 }}
        >
          {(list) =>
            list.length === 0 ? (
              <Stack direction="row" spacing={1.5} sx={{ p: 2, alignItems: 'center', color: 'text.secondary' }}>
                <TaskAltOutlinedIcon aria-hidden />
                <Typography>{isAllShown ? t('alerts.none') : t('alerts.noneOpen')}</Typography>
              </Stack>
            ) : (
              <List disablePadding aria-labelledby="staff-alerts-title">
                {list.map((alert) => (
                  <AlertRow key={alert.id} alert={alert} />
                ))}
              </List>
            )
          }
        </QueryState>
      </Box>
    </Paper>
  );
}
