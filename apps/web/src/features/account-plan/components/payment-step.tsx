import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { useId } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PAYMENT_METHODS, ZTermsAcceptance, type TPaymentMethod } from '@connect/shared';
import { FlowActions } from '../../../components/flow/flow-stepper.tsx';
import { useTermsVersion } from '../../../lib/user/get-terms-version.ts';
import { POLICY_URLS } from '../policies.ts';

const TERMS = ['termsAndConditions', 'acceptableUsePolicy', 'privacyPolicy'] as const;
type TermName = (typeof TERMS)[number];

/**
 * The fieldsets' legends read as headings in the text colour. MUI colours a legend primary while a
 * control inside has the focus (`.Mui-focused`, more specific than a plain `color`), so the
 * focused state is set too.
 */
const LEGEND_SX = { fontWeight: 600, color: 'text.primary', '&.Mui-focused': { color: 'text.primary' } } as const;

/**
 * The step's form: the method and the three policies, checked with the order's own terms schema,
 * and whether a card paying now is kept for later charges (sent with the card payment, not the
 * order; ticked at first, as a plan's checkout keeps the card unless told not to).
 */
const ZPaymentForm = z.object({
  paymentMethod: z.enum(PAYMENT_METHODS),
  terms: ZTermsAcceptance,
  saveCard: z.boolean(),
});
type PaymentForm = { paymentMethod: TPaymentMethod; terms: Record<TermName, boolean>; saveCard: boolean };
export type PaymentChoice = z.infer<typeof ZPaymentForm>;

/**
 * The payment step (spec §2, §5): the payment methods this plan can be paid with today, and the
 * terms and conditions, the acceptable use policy and the privacy policy, each required and linked.
 * An order that costs nothing asks for no method (it is placed with `freeMethod`).
 */
export function PaymentStep({
  methods,
  freeMethod,
  isFree,
  isPending,
  error,
  onBack,
  onSubmit,
}: {
  methods: TPaymentMethod[];
  freeMethod: TPaymentMethod | null;
  isFree: boolean;
  isPending: boolean;
  error: string | null;
  onBack: () => void;
  onSubmit: (choice: PaymentChoice) => void;
}) {
  const { t } = useTranslation('accountPlan');
  const methodId = useId();
  const termsVersion = useTermsVersion();
  const method = isFree ? freeMethod : (methods[0] ?? null);
  const form = useForm<PaymentForm>({
    // The checkboxes hold false until ticked; the schema's literal(true) turns that into its message.
    resolver: zodResolver(ZPaymentForm) as unknown as Resolver<PaymentForm>,
    defaultValues: {
      paymentMethod: method ?? 'BANK_TRANSFER',
      terms: { termsAndConditions: false, acceptableUsePolicy: false, privacyPolicy: false },
      saveCard: true,
    },
    mode: 'onTouched',
  });
  const chosen = form.watch('paymentMethod');
  const canPay = method !== null;
  const isCard = chosen === 'FIAT' && !isFree && canPay;
  // Nothing to pay now, but the card the month-end bills are charged to is asked for next.
  const isFreeByCard = isFree && chosen === 'FIAT' && methods.includes('FIAT');
  // The summary lists `methods`; the step offers exactly those, a free order for its month-end bills.
  const offersChoice = canPay && methods.length > 0;
  const urls: Record<TermName, string> = {
    ...POLICY_URLS,
    termsAndConditions: termsVersion.data?.url ?? POLICY_URLS.termsAndConditions,
  };

  return (
    <Box component="form" noValidate onSubmit={form.handleSubmit((values) => onSubmit(values as PaymentChoice))}>
      <Box component="fieldset" disabled={isPending} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Stack spacing={3}>
          {!canPay ? (
            <Alert severity="warning">{t('payment.noMethod')}</Alert>
          ) : !offersChoice ? null : (
            <Controller
              control={form.control}
              name="paymentMethod"
              render={({ field }) => (
                <FormControl component="fieldset">
                  <FormLabel component="legend" id={methodId} sx={LEGEND_SX}>
                    {t(isFree ? 'payment.billsLegend' : 'payment.methodLegend')}
                  </FormLabel>
                  <RadioGroup
                    aria-labelledby={methodId}
                    value={field.value}
                    onChange={field.onChange}
                    name={field.name}
                  >
                    {methods.map((option) => (
                      <FormControlLabel
                        key={option}
                        value={option}
                        control={<Radio />}
                        label={t(`methods.${option}`)}
                      />
                    ))}
                  </RadioGroup>
                </FormControl>
              )}
            />
          )}
          {isFree ? (
            <Alert severity="info">{t(isFreeByCard ? 'payment.freeCardNote' : 'payment.freeNote')}</Alert>
          ) : null}
          <FormControl component="fieldset">
            <FormLabel component="legend" sx={{ ...LEGEND_SX, mb: 0.5 }}>
              {t('payment.termsLegend')}
            </FormLabel>
            {TERMS.map((name) => (
              <Controller
                key={name}
                control={form.control}
                name={`terms.${name}`}
                render={({ field, fieldState }) => (
                  <Box>
                    <FormControlLabel
                      control={
                        <Checkbox
                          name={field.name}
                          checked={field.value}
                          onChange={(event) => field.onChange(event.target.checked)}
                          onBlur={field.onBlur}
                          slotProps={{
                            input: {
                              ref: field.ref,
                              'aria-invalid': Boolean(fieldState.error),
                              ...(fieldState.error ? { 'aria-describedby': `${field.name}-error` } : {}),
                            },
                          }}
                        />
                      }
                      label={
                        <Trans
                          t={t}
                          i18nKey={`payment.${name}`}
                          components={{ policy: <Link href={urls[name]} target="_blank" rel="noopener noreferrer" /> }}
                        />
                      }
                    />
                    {fieldState.error ? (
                      <FormHelperText id={`${field.name}-error`} error sx={{ mt: 0, mx: 4 }}>
                        {fieldState.error.message}
                      </FormHelperText>
                    ) : null}
                  </Box>
                )}
              />
            ))}
          </FormControl>
          {isCard ? (
            <Box>
              <Controller
                control={form.control}
                name="saveCard"
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Checkbox
                        name={field.name}
                        checked={field.value}
                        onChange={(event) => field.onChange(event.target.checked)}
                        slotProps={{ input: { ref: field.ref } }}
                      />
                    }
                    label={t('payment.saveCard')}
                  />
                )}
              />
              <Alert severity="info" sx={{ mt: 1 }}>
                {t('payment.cardNote')}
              </Alert>
            </Box>
          ) : null}
          {chosen === 'QNT' && !isFree && canPay ? <Alert severity="info">{t('payment.qntNote')}</Alert> : null}
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </Box>
      <FlowActions
        onBack={onBack}
        continueType="submit"
        continueLabel={
          chosen === 'QNT' && !isFree
            ? t('actions.continueToMetaMask')
            : isCard
              ? t('actions.continueToCard')
              : t('actions.placeOrder')
        }
        isPending={isPending}
        isContinueDisabled={!canPay}
      />
    </Box>
  );
}
