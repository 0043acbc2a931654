import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { TApplicationQuota } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { FlowActions } from '../../../components/flow/flow-stepper.tsx';
import { QuotaReachedAlert } from './quota-reached-alert.tsx';

/** Registration step 1: what an application is for; starting waits for the allowance, and stops at the plan's limit. */
export function RegisterIntroStep({
  quota,
  isQuotaPending,
  isQuotaReached,
  onStart,
}: {
  quota: TApplicationQuota | undefined;
  isQuotaPending: boolean;
  isQuotaReached: boolean;
  onStart: () => void;
}) {
  const { t } = useTranslation('applicationManager');
  return (
    <Box>
      <Typography variant="h2" sx={{ fontSize: 22, mb: 1 }}>
        {t('stepper.intro.heading')}
      </Typography>
      <Typography color="text.secondary">{t('stepper.intro.body')}</Typography>
      <List>
        {(['point1', 'point2', 'point3'] as const).map((point) => (
          <ListItem key={point} disableGutters>
            <CheckCircleOutlineIcon color="primary" fontSize="small" sx={{ mr: 1.5 }} aria-hidden />
            <ListItemText primary={t(`stepper.intro.${point}`)} />
          </ListItem>
        ))}
      </List>
      {isQuotaPending ? <Skeleton variant="rounded" height={48} /> : null}
      {isQuotaReached && quota ? <QuotaReachedAlert total={quota.total} /> : null}
      <FlowActions
        continueLabel={t('stepper.intro.start')}
        onContinue={onStart}
        isContinueDisabled={!quota || isQuotaReached}
      />
    </Box>
  );
}
