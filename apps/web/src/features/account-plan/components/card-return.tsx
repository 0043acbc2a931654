import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CARD_MESSAGES, type TCardConfirmation } from '@connect/shared';
import { CardConfirmationProgress } from '../../../components/card/card-confirmation-progress.tsx';
import { CardFailureAlert, useCardFailureReason } from '../../../components/card/card-failure-alert.tsx';
import { useCardConfirmation } from '../../../components/card/use-card-confirmation.ts';
import { paths } from '../../../config/paths.ts';
import { clearCardReturn, type CardReturn } from '../../../lib/payment/card-return.ts';
import { refreshPlanQueries } from '../../../lib/plans/api.ts';
import { FiatSuccess } from './success-screens.tsx';

/**
 * The upgrade page opened again by the card payment's return (spec §2: the guard lets a PENDING
 * plan through with payment_intent or setup_intent): the payment confirmed with the server, then
 * the fiat success screen, or 'Payment has failed' (for pay as you go, the card not saved) with the
 * advice and a way back to the card form for another card. The query is taken out of the address once the outcome is known.
 */
export function CardReturnStep({
  cardReturn,
  planName,
  headingRef,
  onTryAgain,
  onRestart,
}: {
  cardReturn: CardReturn;
  /** The plan that was paid for, as the page knows it. */
  planName: (confirmation: TCardConfirmation) => string;
  headingRef?: Ref<HTMLHeadingElement> | undefined;
  /** Back to the card form, for the order the failed payment was for. */
  onTryAgain: (orderId: string) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation('accountPlan');
  const queryClient = useQueryClient();
  const { state, retry } = useCardConfirmation(cardReturn);
  const reasonOf = useCardFailureReason();
  const isSettled = state.phase === 'settled';

  useEffect(() => {
    if (!isSettled) return;
    clearCardReturn();
    // The top bar, the dashboard and the features show the plan as it is now.
    void refreshPlanQueries(queryClient);
  }, [isSettled, queryClient]);

  if (state.phase !== 'settled')
    return <CardConfirmationProgress state={state} onRetry={retry} headingRef={headingRef} />;
  const { confirmation } = state;
  if (confirmation.status === 'succeeded') {
    return <FiatSuccess planName={planName(confirmation)} headingRef={headingRef} />;
  }
  const isSetup = confirmation.kind === 'SETUP';
  // Another card for the same order: one still waiting for its payment, or (pay as you go, paid at
  // once) the card its month-end bills are charged to.
  const canTryAgain =
    confirmation.orderId !== null &&
    (confirmation.orderStatus === 'AWAITING_PAYMENT' || (isSetup && confirmation.orderStatus === 'PAID'));
  return (
    <Stack spacing={3}>
      <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ outline: 'none' }}>
        {isSetup ? t('card.return.setupFailed') : CARD_MESSAGES.failed}
      </Typography>
      <CardFailureAlert title={null} reason={reasonOf(confirmation.failure) ?? t('card.return.notCompleted')} />
      <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
        <Button component={RouterLink} to={paths.dashboard} color="inherit">
          {t('actions.toDashboard')}
        </Button>
        {canTryAgain ? (
          <Button variant="contained" onClick={() => onTryAgain(confirmation.orderId!)}>
            {t('actions.tryAnotherCard')}
          </Button>
        ) : (
          <Button variant="contained" onClick={onRestart}>
            {t('actions.chooseAgain')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
