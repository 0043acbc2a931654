import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Ref } from 'react';
import type { TQntPaymentReason } from '@connect/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** Where a paid upgrade goes next: My Networks to configure the networks the plan allows, or the dashboard. */
function NextSteps() {
  const { t } = useTranslation('accountPlan');
  return (
    <Stack direction="row" spacing={1.5}>
      <Button component={RouterLink} to={paths.myNetworks} variant="contained">
        {t('actions.toMyNetworks')}
      </Button>
      <Button component={RouterLink} to={paths.dashboard} color="inherit">
        {t('actions.toDashboard')}
      </Button>
    </Stack>
  );
}

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
      <NextSteps />
    </Stack>
  );
}

/**
 * A QNT payment settled (spec §2 success screens, QNT: the thanks, and the email that follows on
 * confirmation; §4: access once the transaction is confirmed, which is now): the plan is active.
 */
export function QntSuccess({
  planName,
  reason = null,
  headingRef,
}: {
  planName: string;
  /** PaidOver or PaidLate beside the settled payment: said under the thanks. */
  reason?: TQntPaymentReason | null;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useTranslation('accountPlan');
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }} role="status">
      <CheckCircleOutlineIcon color="success" sx={{ fontSize: 56 }} aria-hidden />
      <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ outline: 'none' }}>
        {t('success.qntTitle')}
      </Typography>
      <Typography>{t('success.qntBody', { plan: planName })}</Typography>
      {reason && reason !== 'PAID_PARTIAL' ? <Alert severity="info">{t(`qnt.reasonText.${reason}`)}</Alert> : null}
      <Typography color="text.secondary" sx={{ maxWidth: 560 }}>
        {t('success.qntEmail')}
      </Typography>
      <NextSteps />
    </Stack>
  );
}
