import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../../lib/problems.ts';
import type { CardConfirmationState } from './use-card-confirmation.ts';

/**
 * A card payment being confirmed, for the states before its outcome: checking with the provider,
 * the bank still processing (asked again every few seconds), still processing after the time
 * allowed (check again), or the check itself failing (try again). Settled states are the page's.
 */
export function CardConfirmationProgress({
  state,
  onRetry,
  headingRef,
}: {
  state: Exclude<CardConfirmationState, { phase: 'settled' }>;
  onRetry: () => void;
  headingRef?: Ref<HTMLHeadingElement> | undefined;
}) {
  const { t } = useTranslation('accountPlan');
  if (state.phase === 'error') {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('card.return.checkAgain')}
          </Button>
        }
      >
        <AlertTitle>{t('card.return.confirmFailed')}</AlertTitle>
        {problemMessage(state.error)}
      </Alert>
    );
  }
  const isSlow = state.phase === 'processing' && state.isSlow;
  const title =
    state.phase === 'confirming' ? 'card.return.confirming' : isSlow ? 'card.return.slow' : 'card.return.processing';
  const body =
    state.phase === 'confirming'
      ? 'card.return.confirmingBody'
      : isSlow
        ? 'card.return.slowBody'
        : 'card.return.processingBody';
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 3 }} role="status" aria-live="polite">
      {isSlow ? null : <CircularProgress size={40} aria-hidden />}
      <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ outline: 'none' }}>
        {t(title)}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 520 }}>
        {t(body)}
      </Typography>
      {state.phase === 'processing' && !isSlow ? (
        <LinearProgress sx={{ width: '100%', maxWidth: 320 }} aria-hidden />
      ) : null}
      {isSlow ? (
        <Button variant="outlined" onClick={onRetry}>
          {t('card.return.checkAgain')}
        </Button>
      ) : null}
    </Stack>
  );
}
