import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CARD_MESSAGES } from '@connect/shared';
import { CardFailureAlert, useCardFailureReason } from '../../../../components/card/card-failure-alert.tsx';
import { useCardConfirmation } from '../../../../components/card/use-card-confirmation.ts';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context.ts';
import { clearCardReturn, readCardReturn, withoutCardReturn } from '../../../../lib/payment/card-return.ts';
import { problemMessage } from '../../../../lib/problems.ts';
import { useRefreshAfterCard } from '../../api/card.ts';

/**
 * My account opened by a card's return (a card saved or replaced, an order paid from here): the
 * intent confirmed with the server, then "Card saved" (or "Payment received") in the snackbar,
 * or the failure with the provider's reason and the advice, kept on the page until dismissed.
 * The query is taken out of the address once the outcome is known.
 */
export function AccountCardReturn({ onTryAgain }: { onTryAgain: (retry: { orderId: string | null }) => void }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [cardReturn] = useState(() => readCardReturn(searchParams));
  // Through the router (a history replace), so the address and the router's location agree: a later
  // change of the page's query (the buy-credits dialog) does not bring the payment back.
  const clear = useCallback(() => {
    clearCardReturn();
    setSearchParams(withoutCardReturn, { replace: true });
  }, [setSearchParams]);
  return cardReturn ? <CardReturnNotice cardReturn={cardReturn} onHandled={clear} onTryAgain={onTryAgain} /> : null;
}

function CardReturnNotice({
  cardReturn,
  onHandled,
  onTryAgain,
}: {
  cardReturn: NonNullable<ReturnType<typeof readCardReturn>>;
  onHandled: () => void;
  onTryAgain: (retry: { orderId: string | null }) => void;
}) {
  const { t } = useTranslation('account');
  const { t: tPlan } = useTranslation('accountPlan');
  const snackbar = useSnackbar();
  const refresh = useRefreshAfterCard();
  const { state, retry } = useCardConfirmation(cardReturn);
  const reasonOf = useCardFailureReason();
  const [isDismissed, setDismissed] = useState(false);
  const isHandled = useRef(false);
  const isSetup = cardReturn.kind === 'SETUP';

  useEffect(() => {
    if (state.phase !== 'settled' || isHandled.current) return;
    isHandled.current = true;
    onHandled();
    void refresh();
    if (state.confirmation.status === 'succeeded') {
      snackbar.show({ type: 'success', title: t(isSetup ? 'myAccount.card.saved' : 'myAccount.card.paid') });
    }
  }, [state, isSetup, onHandled, refresh, snackbar, t]);

  if (isDismissed) return null;
  if (state.phase === 'error') {
    return (
      <Alert
        severity="error"
        sx={{ mb: 2 }}
        action={
          <Button color="inherit" size="small" onClick={retry}>
            {tPlan('card.return.checkAgain')}
          </Button>
        }
      >
        <AlertTitle>{tPlan('card.return.confirmFailed')}</AlertTitle>
        {problemMessage(state.error)}
      </Alert>
    );
  }
  if (state.phase === 'confirming' || state.phase === 'processing') {
    const isSlow = state.phase === 'processing' && state.isSlow;
    return (
      <Alert
        severity="info"
        role="status"
        sx={{ mb: 2 }}
        icon={isSlow ? undefined : <CircularProgress size={18} aria-hidden />}
        action={
          isSlow ? (
            <Button color="inherit" size="small" onClick={retry}>
              {tPlan('card.return.checkAgain')}
            </Button>
          ) : undefined
        }
      >
        {state.phase === 'confirming' ? tPlan('card.return.confirming') : t('myAccount.card.processing')}
      </Alert>
    );
  }
  const { confirmation } = state;
  if (confirmation.status === 'succeeded') return null;
  return (
    <Box sx={{ mb: 2 }}>
      <CardFailureAlert
        title={isSetup ? t('myAccount.card.saveFailed') : CARD_MESSAGES.failed}
        reason={reasonOf(confirmation.failure) ?? tPlan('card.return.notCompleted')}
        action={
          <>
            {isSetup || confirmation.orderStatus === 'AWAITING_PAYMENT' ? (
              <Button color="inherit" size="small" onClick={() => onTryAgain({ orderId: confirmation.orderId })}>
                {tPlan('actions.tryAnotherCard')}
              </Button>
            ) : null}
            <Button color="inherit" size="small" onClick={() => setDismissed(true)}>
              {t('actions.close')}
            </Button>
          </>
        }
      />
    </Box>
  );
}
