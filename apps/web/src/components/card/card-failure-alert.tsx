import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { CARD_MESSAGES, type TCardConfirmation } from '@connect/shared';

/**
 * Stripe's codes for an authentication the customer (or the bank) failed. Their message is written
 * for developers ("…You can provide payment_method_data or a new PaymentMethod…"), so the customer
 * is told in words of their own, as Stripe.js does.
 */
const AUTHENTICATION_FAILURES: ReadonlySet<string> = new Set([
  'payment_intent_authentication_failure',
  'setup_intent_authentication_failure',
]);

/** The provider's reason for a failed card intent, in words for the customer; null without one. */
export function useCardFailureReason(): (failure: TCardConfirmation['failure']) => string | null {
  const { t } = useTranslation('accountPlan');
  return (failure) => {
    if (!failure) return null;
    return AUTHENTICATION_FAILURES.has(failure.code) ? t('card.return.authenticationFailed') : failure.message;
  };
}

/**
 * A card payment that failed (spec §8): 'Payment has failed', the provider's reason when there is
 * one ('Your card was declined.'), and the advice to check the details or use another card.
 * `title` replaces the heading where the card was being saved rather than charged; null leaves it
 * out where the page's heading already says it.
 */
export function CardFailureAlert({
  reason,
  title = CARD_MESSAGES.failed,
  action,
  ref,
}: {
  reason?: string | null | undefined;
  title?: string | null;
  action?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <Alert severity="error" ref={ref} tabIndex={-1} {...(action ? { action } : {})} sx={{ outline: 'none' }}>
      {title ? <AlertTitle>{title}</AlertTitle> : null}
      {reason ? `${reason} ` : ''}
      {CARD_MESSAGES.checkDetails}
    </Alert>
  );
}
