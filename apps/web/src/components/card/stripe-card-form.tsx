import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCardIntent } from '@connect/shared';
import { SubmitButton } from '../submit-button.tsx';
import { CardFailureAlert } from './card-failure-alert.tsx';

/*
 * Stripe's Payment Element (provider mode 'stripe'). This module is loaded only in that mode
 * (card-payment-form.tsx imports it lazily): importing @stripe/stripe-js adds Stripe's script to
 * the page, which the sandbox never needs.
 */

/** One Stripe.js per publishable key for the page's life, as Stripe asks (loadStripe once). */
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => {
      stripes.delete(publishableKey); // a later opening tries again
      return null;
    });
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

export function StripeCardForm({
  intent,
  returnUrl,
  submitLabel,
}: {
  intent: TCardIntent;
  returnUrl: string;
  submitLabel: string;
}) {
  const { t } = useTranslation('accountPlan');
  const [stripe] = useState(() => stripeFor(intent.provider.publishableKey));
  const [hasLoadFailed, setLoadFailed] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    // Stripe's script blocked or unreachable: say so instead of a form that never appears.
    void stripe.then((loaded) => isCurrent && !loaded && setLoadFailed(true));
    return () => {
      isCurrent = false;
    };
  }, [stripe]);

  if (hasLoadFailed) return <Alert severity="error">{t('card.stripeFailed')}</Alert>;
  return (
    <Elements stripe={stripe} options={{ clientSecret: intent.clientSecret }}>
      <PaymentElementForm
        intent={intent}
        returnUrl={returnUrl}
        submitLabel={submitLabel}
        onLoadError={() => setLoadFailed(true)}
      />
    </Elements>
  );
}

/**
 * The Payment Element and its confirmation: Stripe redirects to `returnUrl` with the intent in the
 * query (after its own authentication, if the bank asks); only a refusal comes back here.
 */
function PaymentElementForm({
  intent,
  returnUrl,
  submitLabel,
  onLoadError,
}: {
  intent: TCardIntent;
  returnUrl: string;
  submitLabel: string;
  onLoadError: () => void;
}) {
  const { t } = useTranslation('accountPlan');
  const stripe = useStripe();
  const elements = useElements();
  const [isReady, setReady] = useState(false);
  const [isSending, setSending] = useState(false);
  const [failure, setFailure] = useState<{ reason: string | null } | null>(null);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || isSending) return;
    setSending(true);
    setFailure(null);
    const confirmParams = { return_url: returnUrl };
    const { error } =
      intent.kind === 'SETUP'
        ? await stripe.confirmSetup({ elements, confirmParams })
        : await stripe.confirmPayment({ elements, confirmParams });
    // Only reached when Stripe did not redirect: the card was refused or a field is incomplete.
    setFailure({ reason: error.message ?? null });
    setSending(false);
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void handleSubmit(event)}>
      <Stack spacing={2.5}>
        {!isReady ? (
          <Box aria-busy="true" aria-label={t('card.loading')}>
            <Skeleton variant="rounded" height={48} sx={{ mb: 1.5 }} />
            <Skeleton variant="rounded" height={48} />
          </Box>
        ) : null}
        <Box sx={isReady ? undefined : { height: 0, overflow: 'hidden' }}>
          <PaymentElement
            options={{ layout: 'tabs', readOnly: isSending }}
            onReady={() => setReady(true)}
            onLoadError={onLoadError}
          />
        </Box>
        {failure ? <CardFailureAlert reason={failure.reason} /> : null}
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <SubmitButton loading={isSending} disabled={!stripe || !elements || !isReady}>
            {submitLabel}
          </SubmitButton>
        </Stack>
      </Stack>
    </Box>
  );
}
