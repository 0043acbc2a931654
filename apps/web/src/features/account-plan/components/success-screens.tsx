import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** The paid upgrade (spec §2 success screens, fiat): the plan is active; My Networks comes next. */
export function FiatSuccess({ planName, headingRef }: { planName: string; headingRef?: Ref<HTMLHeadingElement> }) {
  const { t } = useTranslation('accountPlan');
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }} role="status">
      <CheckCircleOutlineIcon color="success" sx={{ fontSize: 56 }} aria-hidden />
      <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ outline: 'none' }}>
        {t('success.fiatTitle')}
      </Typography>
      <Typography>{t('success.fiatBody', { plan: planName })}</Typography>
      <Typography color="text.secondary">{t('success.fiatNetworks')}</Typography>
      <Stack direction="row" spacing={1.5}>
        <Button component={RouterLink} to={paths.myNetworks} variant="contained">
          {t('actions.toMyNetworks')}
        </Button>
        <Button component={RouterLink} to={paths.dashboard} color="inherit">
          {t('actions.toDashboard')}
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * A QNT payment sent from the wallet (spec §2 success screens, QNT; §4: not instant, access once the
 * transaction is confirmed). Used by the QNT payment of a later issue.
 */
export function QntSuccess({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  const { t } = useTranslation('accountPlan');
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }} role="status">
      <HourglassTopIcon color="primary" sx={{ fontSize: 56 }} aria-hidden />
      <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ outline: 'none' }}>
        {t('success.qntTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 560 }}>
        {t('success.qntBody')}
      </Typography>
      <Button component={RouterLink} to={paths.dashboard} variant="contained">
        {t('actions.toDashboard')}
      </Button>
    </Stack>
  );
}
