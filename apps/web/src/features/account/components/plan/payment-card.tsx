import CreditCardIcon from '@mui/icons-material/CreditCard';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Trans, useTranslation } from 'react-i18next';
import { CARD_MESSAGES, type TCardConfirmation, type TCardStatus } from '@connect/shared';
import { CardFailureAlert } from '../../../../components/card/card-failure-alert.tsx';
import { CardSandboxChip } from '../../../../components/card/card-sandbox-chip.tsx';
import { QueryState } from '../../../../components/query-state.tsx';
import { formatDateTime, formatNumber } from '../../../../lib/format.ts';
import { formatGbp } from '../../../../lib/plans/money.ts';
import { problemMessage } from '../../../../lib/problems.ts';
import { useCardStatus, useChargeSavedCard } from '../../api/card.ts';
import { DetailRow } from '../account-section.tsx';

/**
 * My account's payment card (GET /card/status): the saved card (brand, last four digits, expiry)
 * with Replace card (or Add a card when there is none), and a monthly charge that failed with its
 * amount, attempts, next attempt and Pay now. Nothing is shown where cards are not taken.
 */
export function PaymentCard({ onChangeCard }: { onChangeCard: (isReplacing: boolean) => void }) {
  const { t } = useTranslation('account');
  const status = useCardStatus();
  return (
    <QueryState
      query={status}
      loading={
        <Box aria-busy="true" aria-label={t('myAccount.card.loading')} sx={{ mt: 3 }}>
          <Skeleton width="40%" height={32} />
          <Skeleton width="60%" />
        </Box>
      }
      errorMessage={t('myAccount.card.loadFailed')}
      errorVariant="row"
    >
      {(loaded) => (loaded.available ? <SavedCard status={loaded} onChangeCard={onChangeCard} /> : null)}
    </QueryState>
  );
}

function SavedCard({ status, onChangeCard }: { status: TCardStatus; onChangeCard: (isReplacing: boolean) => void }) {
  const { t } = useTranslation('account');
  // Here, not in FailedCharge: its answer stays on screen once the paid charge has left the status.
  const payNow = useChargeSavedCard();
  const { card } = status;
  return (
    <Box component="section" aria-labelledby="payment-card-title" sx={{ mt: 3 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
        <Typography id="payment-card-title" variant="h4" component="h3">
          {t('myAccount.card.title')}
        </Typography>
        {status.provider?.mode === 'sandbox' ? <CardSandboxChip /> : null}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('myAccount.card.description')}
      </Typography>
      {status.failedCharge ? (
        <FailedCharge
          charge={status.failedCharge}
          isPaying={payNow.isPending}
          onPayNow={(orderId) => payNow.mutate(orderId)}
        />
      ) : null}
      {payNow.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {problemMessage(payNow.error)}
        </Alert>
      ) : null}
      {payNow.data ? <PayNowResult result={payNow.data} /> : null}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        {card ? (
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flex: 1, minWidth: 200 }}>
            <CreditCardIcon color="action" aria-hidden />
            <Box>
              <Typography sx={{ fontWeight: 600 }} data-testid="saved-card">
                {t('myAccount.card.card', { brand: brandName(card.brand), last4: card.last4 })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('myAccount.card.expires', {
                  date: `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`,
                })}
              </Typography>
            </Box>
          </Stack>
        ) : (
          <Typography color="text.secondary" sx={{ flex: 1, minWidth: 200 }}>
            {t('myAccount.card.none')}
          </Typography>
        )}
        <Button variant="outlined" onClick={() => onChangeCard(card !== null)}>
          {t(card ? 'myAccount.card.replace' : 'myAccount.card.add')}
        </Button>
      </Stack>
    </Box>
  );
}

/** 'visa' → 'Visa', 'amex' → 'Amex' (the provider's brand ids are lower case). */
const brandName = (brand: string) => brand.charAt(0).toLocaleUpperCase('en') + brand.slice(1);

/** A monthly charge of the saved card that failed and will be tried again, with Pay now. */
function FailedCharge({
  charge,
  isPaying,
  onPayNow,
}: {
  charge: NonNullable<TCardStatus['failedCharge']>;
  isPaying: boolean;
  onPayNow: (orderId: string) => void;
}) {
  const { t } = useTranslation('account');
  const amount = formatGbp(charge.amountGbpMinor);
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      action={
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          loading={isPaying}
          onClick={() => onPayNow(charge.orderId)}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {t('myAccount.card.failedCharge.payNow')}
        </Button>
      }
    >
      <AlertTitle>{CARD_MESSAGES.failed}</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {/* The reference on one line (it is quoted as a whole); the provider's words as text, after it. */}
        <Trans
          t={t}
          i18nKey="myAccount.card.failedCharge.intro"
          values={{ amount, reference: charge.reference }}
          components={{ reference: <Box component="span" sx={{ whiteSpace: 'nowrap' }} /> }}
        />{' '}
        {charge.message}
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailRow label={t('myAccount.card.failedCharge.amount')}>{amount}</DetailRow>
        <DetailRow label={t('myAccount.card.failedCharge.attempts')}>{formatNumber(charge.attempts)}</DetailRow>
        <DetailRow label={t('myAccount.card.failedCharge.nextAttempt')}>
          {charge.nextAttemptAt ? formatDateTime(charge.nextAttemptAt) : t('myAccount.card.failedCharge.noNextAttempt')}
        </DetailRow>
      </Box>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {t('myAccount.card.failedCharge.replaceHint')}
      </Typography>
    </Alert>
  );
}

function PayNowResult({ result }: { result: TCardConfirmation }) {
  const { t } = useTranslation('account');
  return (
    <Box sx={{ mb: 2 }} role="status">
      {result.status === 'succeeded' ? (
        <Alert severity="success">{t('myAccount.card.paid')}</Alert>
      ) : result.status === 'processing' ? (
        <Alert severity="info">{t('myAccount.card.processing')}</Alert>
      ) : (
        <CardFailureAlert reason={result.failure?.message} />
      )}
    </Box>
  );
}
