import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOrder, TPaymentMethod } from '@connect/shared';
import { OrderCardPayment } from '../../../../components/card/order-card-payment.tsx';
import { QueryState } from '../../../../components/query-state.tsx';
import { SubmitButton } from '../../../../components/submit-button.tsx';
import { formatNumber } from '../../../../lib/format.ts';
import { creditBundlesQuery } from '../../../../lib/plans/api.ts';
import { formatUsd, formatUsdPerCredit } from '../../../../lib/plans/money.ts';
import { problemMessage } from '../../../../lib/problems.ts';
import { useOrderCredits } from '../../api/plan.ts';
import { accountReturnUrl } from './card-dialogs.tsx';
import { OrderDetails } from './order-details.tsx';

const TERMS = ['termsAndConditions', 'acceptableUsePolicy', 'privacyPolicy'] as const;
type Terms = Record<(typeof TERMS)[number], boolean>;
const NO_TERMS: Terms = { termsAndConditions: false, acceptableUsePolicy: false, privacyPolicy: false };

/**
 * Buy credits outside the upgrade journey (POST /order/credits): a bundle of the plan, the three
 * policies (spec §2), a payment method the plan accepts and this installation takes; then the
 * order with its bank-transfer instructions, its QNT payment, or the card form. The dialog is mounted when opened, so each opening
 * is one checkout with one idempotency key: a double click or a retry answers the same order.
 */
export function BuyCreditsDialog({
  ratePlanId,
  paymentMethods,
  onClose,
}: {
  ratePlanId: string;
  paymentMethods: TPaymentMethod[];
  onClose: () => void;
}) {
  const { t } = useTranslation('account');
  const titleId = useId();
  const bundles = useQuery(creditBundlesQuery(ratePlanId));
  const order = useOrderCredits();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const isSending = useRef(false);
  const [bundleId, setBundleId] = useState('');
  const [method, setMethod] = useState<TPaymentMethod | ''>(paymentMethods.length === 1 ? paymentMethods[0]! : '');
  const [terms, setTerms] = useState<Terms>(NO_TERMS);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [placed, setPlaced] = useState<TOrder | null>(null);

  const hasAllTerms = TERMS.every((term) => terms[term]);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    // A second click before React re-renders the disabled button must not send again.
    if (!bundleId || !method || !hasAllTerms || isSending.current) return;
    isSending.current = true;
    order.mutate(
      {
        idempotencyKey,
        creditBundleId: bundleId,
        paymentMethod: method,
        terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
      },
      {
        onSuccess: setPlaced,
        onSettled: () => {
          isSending.current = false;
        },
      },
    );
  };

  if (placed) {
    const isCard = placed.paymentMethod === 'FIAT';
    return (
      <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
        <DialogTitle id={titleId}>{t('myAccount.plan.buy.placedTitle', { reference: placed.reference })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('myAccount.plan.buy.placedText')}
          </Typography>
          {isCard ? (
            <OrderCardPayment orderId={placed.id} returnUrl={accountReturnUrl()} />
          ) : (
            <OrderDetails order={placed} autoPay={placed.paymentMethod === 'QNT'} />
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant={isCard ? 'text' : 'contained'} color={isCard ? 'inherit' : 'primary'} onClick={onClose}>
            {isCard ? t('actions.close') : t('myAccount.plan.buy.done')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  const bundleError = isSubmitted && !bundleId;
  const termsError = isSubmitted && !hasAllTerms;
  return (
    <Dialog
      open
      onClose={order.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      slotProps={{ paper: { component: 'form', noValidate: true, onSubmit: handleSubmit } as object }}
    >
      <DialogTitle id={titleId}>{t('myAccount.plan.buy.title')}</DialogTitle>
      <DialogContent>
        <Box component="fieldset" disabled={order.isPending} sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('myAccount.plan.buy.intro')}
          </Typography>
          <QueryState
            query={bundles}
            loading={
              <Stack spacing={1} aria-busy="true" aria-label={t('myAccount.plan.buy.loading')}>
                {[0, 1, 2].map((row) => (
                  <Skeleton key={row} width="80%" />
                ))}
              </Stack>
            }
            errorMessage={t('myAccount.plan.buy.bundlesFailed')}
            errorVariant="row"
          >
            {({ bundles: list }) =>
              list.length === 0 ? (
                <Alert severity="info">{t('myAccount.plan.buy.noBundles')}</Alert>
              ) : (
                <FormControl error={bundleError} required>
                  <FormLabel id={`${titleId}-bundle`}>{t('myAccount.plan.buy.bundle')}</FormLabel>
                  <RadioGroup
                    aria-labelledby={`${titleId}-bundle`}
                    value={bundleId}
                    onChange={(event) => setBundleId(event.target.value)}
                  >
                    {list.map((bundle) => (
                      <FormControlLabel
                        key={bundle.id}
                        value={bundle.id}
                        control={<Radio />}
                        label={t('myAccount.plan.buy.bundleOption', {
                          credits: formatNumber(bundle.credits),
                          price: formatUsd(bundle.priceUsdCents),
                          unit: formatUsdPerCredit(bundle.unitPriceUsdCents),
                        })}
                      />
                    ))}
                  </RadioGroup>
                  {bundleError ? <FormHelperText>{t('myAccount.plan.buy.bundleRequired')}</FormHelperText> : null}
                </FormControl>
              )
            }
          </QueryState>

          <FormControl sx={{ mt: 2, display: 'flex' }} required>
            <FormLabel id={`${titleId}-method`}>{t('myAccount.plan.buy.method')}</FormLabel>
            {paymentMethods.length === 0 ? (
              <Alert severity="warning" sx={{ mt: 1 }}>
                {t('myAccount.plan.buy.noMethods')}
              </Alert>
            ) : (
              <RadioGroup
                row
                aria-labelledby={`${titleId}-method`}
                value={method}
                onChange={(event) => setMethod(event.target.value as TPaymentMethod)}
              >
                {paymentMethods.map((option) => (
                  <FormControlLabel
                    key={option}
                    value={option}
                    control={<Radio />}
                    label={t(`myAccount.plan.paymentMethods.${option}`)}
                  />
                ))}
              </RadioGroup>
            )}
          </FormControl>

          <FormControl error={termsError} component="fieldset" sx={{ mt: 2, display: 'flex' }}>
            <FormLabel component="legend">{t('myAccount.plan.buy.terms')}</FormLabel>
            {TERMS.map((term) => (
              <FormControlLabel
                key={term}
                control={
                  <Checkbox
                    checked={terms[term]}
                    onChange={(event) => setTerms((current) => ({ ...current, [term]: event.target.checked }))}
                  />
                }
                label={t(`myAccount.plan.buy.${term}`)}
              />
            ))}
            {termsError ? <FormHelperText>{t('myAccount.plan.buy.termsRequired')}</FormHelperText> : null}
          </FormControl>
          {order.isError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {problemMessage(order.error)}
            </Alert>
          ) : null}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} color="inherit" disabled={order.isPending}>
          {t('actions.cancel')}
        </Button>
        <SubmitButton loading={order.isPending} disabled={paymentMethods.length === 0}>
          {t('myAccount.plan.buy.submit')}
        </SubmitButton>
      </DialogActions>
    </Dialog>
  );
}
