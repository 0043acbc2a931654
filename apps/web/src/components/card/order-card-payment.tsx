import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { orderCardIntentQuery, setupCardIntentQuery } from '../../lib/payment/card-api.ts';
import { problemMessage } from '../../lib/problems.ts';
import { QueryState } from '../query-state.tsx';
import { CardFormSkeleton, CardPaymentForm } from './card-payment-form.tsx';

/**
 * Pays an order by card (POST /card/order, then the card form): a PaymentIntent for what is to pay
 * now, or a SetupIntent when nothing is (pay as you go: the card is kept for the month-end bills).
 */
export function OrderCardPayment({
  orderId,
  saveCard,
  returnUrl,
  setupIntro,
}: {
  orderId: string;
  /** Whether the card is kept for later charges; left out, the server decides (a plan's checkout keeps it). */
  saveCard?: boolean | undefined;
  returnUrl: string;
  /** Said above the form when nothing is to pay now and the card is only kept. */
  setupIntro?: string;
}) {
  const { t } = useTranslation('accountPlan');
  const intent = useQuery(orderCardIntentQuery({ orderId, ...(saveCard === undefined ? {} : { saveCard }) }));
  return (
    <QueryState
      query={intent}
      loading={<CardFormSkeleton />}
      errorMessage={(error) => `${t('card.intentFailed')} ${problemMessage(error)}`}
    >
      {(loaded) =>
        loaded.kind === 'SETUP' && setupIntro ? (
          <Stack spacing={2}>
            <Typography>{setupIntro}</Typography>
            <CardPaymentForm intent={loaded} returnUrl={returnUrl} />
          </Stack>
        ) : (
          <CardPaymentForm intent={loaded} returnUrl={returnUrl} />
        )
      }
    </QueryState>
  );
}

/** Saves or replaces the account's card (POST /card/setup, then the card form). */
export function SetupCardPayment({ returnUrl }: { returnUrl: string }) {
  const { t } = useTranslation('accountPlan');
  const intent = useQuery(setupCardIntentQuery());
  return (
    <QueryState
      query={intent}
      loading={<CardFormSkeleton />}
      errorMessage={(error) => `${t('card.intentFailed')} ${problemMessage(error)}`}
    >
      {(loaded) => <CardPaymentForm intent={loaded} returnUrl={returnUrl} />}
    </QueryState>
  );
}
