import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CAMPAIGN_STAFF_TRANSITIONS, type TCampaign } from '@connect/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { CampaignStatusChip, type CampaignAction, type CampaignTransition } from './campaign-columns.tsx';
import { formatDay, formatRewardQnt } from './reward-format.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * The campaign above its tasks (Task Management): its status, the name customers see, its days,
 * QNT value (the most one participant can earn: its published tasks' values) and places taken;
 * the campaign's own actions beside them (edit while a draft, its status changes).
 */
export function CampaignHeader({
  campaign,
  onAction,
}: {
  campaign: TCampaign;
  onAction: (action: Exclude<CampaignAction, 'tasks' | 'delete'>) => void;
}) {
  const { t } = useTranslation('staff');
  const transitions = CAMPAIGN_STAFF_TRANSITIONS[campaign.status] as CampaignTransition[];
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
        <Stack
          component="dl"
          direction="row"
          spacing={3}
          useFlexGap
          sx={{ m: 0, flexWrap: 'wrap', alignItems: 'flex-start' }}
        >
          <Fact label={t('campaigns.columns.status')}>
            <CampaignStatusChip status={campaign.status} />
          </Fact>
          <Fact label={t('campaigns.columns.visibleName')}>{campaign.visibleName}</Fact>
          <Fact label={t('campaigns.header.dates')}>
            {t('campaigns.header.dateRange', {
              start: formatDay(campaign.startDate),
              end: formatDay(campaign.endDate),
            })}
          </Fact>
          <Fact label={t('campaigns.columns.qntValue')}>{formatRewardQnt(campaign.qntValue)}</Fact>
          <Fact label={t('campaigns.columns.participants')}>
            {t('campaigns.participantsOf', {
              optedIn: formatNumber(campaign.optedIn),
              places: formatNumber(campaign.participants),
            })}
          </Fact>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flexShrink: 0 }}>
          {campaign.status === 'DRAFT' ? (
            <Button variant="outlined" startIcon={<EditOutlinedIcon />} onClick={() => onAction('edit')}>
              {t('campaigns.actions.edit')}
            </Button>
          ) : null}
          {transitions.map((status) => (
            <Button
              key={status}
              variant={status === 'PUBLISHED' ? 'contained' : 'outlined'}
              color={status === 'COMPLETED' ? 'error' : 'primary'}
              onClick={() => onAction(status)}
            >
              {t(`campaigns.actions.${status}`)}
            </Button>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
