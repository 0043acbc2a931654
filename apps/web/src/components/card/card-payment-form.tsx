import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCardIntent } from '@connect/shared';
import { formatGbp } from '../../lib/plans/money.ts';
import { SandboxCardForm } from './sandbox-card-form.tsx';

// Loaded in stripe mode only: the module brings Stripe.js onto the page (see its header).
const StripeCardForm = lazy(() =>
  import('./stripe-card-form.tsx').then((module) => ({ default: module.StripeCardForm })),
);

/** A placeholder shaped like the card form while its code or Stripe.js loads. */
export function CardFormSkeleton() {
  const { t } = useTranslation('accountPlan');
  return (
    <Box aria-busy="true" aria-label={t('card.loading')}>
      <Skeleton variant="rounded" height={56} sx={{ mb: 2 }} />
      <Skeleton variant="rounded" height={56} sx={{ mb: 2 }} />
      <Skeleton variant="rounded" width={160} height={40} sx={{ ml: 'auto' }} />
    </Box>
  );
}

/**
 * Pays (or, for a SetupIntent, saves) a card for a CardIntent: the amount, then the card form of
 * the intent's provider — the sandbox's own form (its Sandbox chip beside its note), or Stripe's
 * Payment Element. Either one ends, as Stripe does, at `returnUrl` with the intent in the query, where the
 * page confirms it (useCardConfirmation); a decline stays on the form.
 */
export function CardPaymentForm({ intent, returnUrl }: { intent: TCardIntent; returnUrl: string }) {
  const { t } = useTranslation('accountPlan');
  const isPayment = intent.kind === 'PAYMENT';
  const amount = formatGbp(intent.amountGbpMinor);
  const submitLabel = isPayment ? t('card.pay', { amount }) : t('card.save');
  const isSandbox = intent.provider.mode === 'sandbox';
  return (
    <Stack spacing={2.5}>
      {isPayment ? (
        <Box>
          <Typography variant="body2" color="text.secondary">
            {t('card.amountDue')}
          </Typography>
          <Typography variant="h3" component="p" data-testid="card-amount">
            {amount}
          </Typography>
        </Box>
      ) : null}
      {isSandbox ? (
        <SandboxCardForm intent={intent} returnUrl={returnUrl} submitLabel={submitLabel} />
      ) : (
        <Suspense fallback={<CardFormSkeleton />}>
          <StripeCardForm intent={intent} returnUrl={returnUrl} submitLabel={submitLabel} />
        </Suspense>
      )}
    </Stack>
  );
}
