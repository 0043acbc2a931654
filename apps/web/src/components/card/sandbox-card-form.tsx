import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SANDBOX_TEST_CARDS, type TCardIntent } from '@connect/shared';
import { paths } from '../../config/paths.ts';
import {
  cardDetailsSchema,
  cardOf,
  formatCardNumber,
  formatExpiry,
  type CardDetails,
} from '../../lib/payment/card-details.ts';
import { redirectTo } from '../../lib/payment/card-redirect.ts';
import { cardReturnUrl, isSameOrigin } from '../../lib/payment/card-return.ts';
import { confirmSandboxIntent, type SandboxConfirmation } from '../../lib/payment/card-sandbox.ts';
import { problemMessage } from '../../lib/problems.ts';
import { SubmitButton } from '../submit-button.tsx';
import { CardFailureAlert } from './card-failure-alert.tsx';
import { CardSandboxChip } from './card-sandbox-chip.tsx';

type Field = { name: keyof CardDetails; format?: (value: string) => string };

/** One of the form's text fields: its value formatted as typed, its error under it once left. */
function CardField({
  control,
  field: { name, format },
  ...props
}: {
  control: Control<CardDetails>;
  field: Field;
  label: string;
  autoComplete: string;
  placeholder?: string;
  maxLength: number;
  /**
   * While sending. The fieldset disables the inputs too, but only this tells MUI: a field focused
   * when the form was sent would otherwise keep its focus ring after the focus has moved on.
   */
  disabled: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          label={props.label}
          placeholder={props.placeholder}
          name={field.name}
          value={field.value}
          onChange={(event) => field.onChange(format ? format(event.target.value) : event.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          disabled={props.disabled}
          required
          fullWidth
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              autoComplete: props.autoComplete,
              maxLength: props.maxLength,
              spellCheck: false,
              sx: { fontVariantNumeric: 'tabular-nums' },
            },
          }}
        />
      )}
    />
  );
}

/**
 * What follows the sandbox's answer, as Stripe.js does it: authentication on the page the sandbox
 * names, the return URL once the payment succeeded or is processing, else a decline shown here.
 */
function nextStepOf(
  result: SandboxConfirmation,
  intent: TCardIntent,
  returnUrl: string,
): { redirect: string; declined?: undefined } | { redirect?: undefined; declined: { reason: string | null } } {
  const authentication = result.status === 'requires_action' ? authenticationPageOf(result.redirectUrl) : null;
  if (authentication) return { redirect: authentication };
  if (result.status === 'succeeded' || result.status === 'processing') {
    return { redirect: cardReturnUrl(returnUrl, intent, result.status) };
  }
  return { declined: { reason: result.lastError?.message ?? null } };
}

/**
 * The sandbox's authentication page on this portal. The sandbox names it under the server's public
 * URL, which is another origin where the SPA is served apart (a development server): the same page
 * is opened here. Any other address is not followed.
 */
function authenticationPageOf(url: string | null | undefined): string | null {
  if (!url) return null;
  if (isSameOrigin(url)) return url;
  const page = new URL(url);
  return page.pathname === paths.cardSandboxAuthenticate
    ? `${window.location.origin}${page.pathname}${page.search}`
    : null;
}

/** A future expiry for the test cards: any will do in the sandbox, as with Stripe's test cards. */
function testExpiry(now = new Date()) {
  return `12 / ${String((now.getFullYear() + 3) % 100).padStart(2, '0')}`;
}

/**
 * The sandbox's own card form (provider mode 'sandbox'), standing in for Stripe's Payment
 * Element: card number, expiry and security code, checked before anything is sent, and the test
 * cards. Confirming behaves as stripe.confirmPayment does: a payment that succeeds (or is
 * processing) goes to `returnUrl` with Stripe's query, one that needs authentication to the
 * sandbox's authentication page; a decline stays here with the reason, for another card.
 */
export function SandboxCardForm({
  intent,
  returnUrl,
  submitLabel,
}: {
  intent: TCardIntent;
  returnUrl: string;
  submitLabel: string;
}) {
  const { t } = useTranslation('accountPlan');
  const testCardsId = useId();
  const testCardsToggleRef = useRef<HTMLButtonElement>(null);
  const [isShowingTestCards, setShowingTestCards] = useState(false);
  const [isLeaving, setLeaving] = useState(false);
  const failureRef = useRef<HTMLDivElement>(null);
  const schema = useMemo(
    () =>
      cardDetailsSchema({
        numberRequired: t('card.errors.numberRequired'),
        numberIncomplete: t('card.errors.numberIncomplete'),
        numberInvalid: t('card.errors.numberInvalid'),
        expiryRequired: t('card.errors.expiryRequired'),
        expiryIncomplete: t('card.errors.expiryIncomplete'),
        expiryMonthInvalid: t('card.errors.expiryMonthInvalid'),
        expiryPast: t('card.errors.expiryPast'),
        cvcRequired: t('card.errors.cvcRequired'),
        cvcIncomplete: t('card.errors.cvcIncomplete'),
      }),
    [t],
  );
  const form = useForm<CardDetails>({
    resolver: zodResolver(schema),
    defaultValues: { number: '', expiry: '', cvc: '' },
    mode: 'onTouched',
  });

  const confirm = useMutation({
    mutationFn: (values: CardDetails) => confirmSandboxIntent(intent, cardOf(values), returnUrl),
    onSuccess: (result) => {
      const next = nextStepOf(result, intent, returnUrl);
      if (next.redirect) {
        setLeaving(true);
        redirectTo(next.redirect);
      }
      // Declined: the form stays, with the reason, for the same card corrected or another one.
    },
  });
  // A second click before React re-renders the disabled form must not confirm twice.
  const isSending = useRef(false);
  const handleSubmit = form.handleSubmit((values) => {
    if (isSending.current) return;
    isSending.current = true;
    confirm.mutate(values, {
      onSettled: () => {
        isSending.current = false;
      },
    });
  });
  const declined = confirm.data ? nextStepOf(confirm.data, intent, returnUrl).declined : null;
  const isBusy = confirm.isPending || isLeaving;
  // The decline takes the focus once it is on the page (each time): onSuccess runs before the
  // mutation's answer is rendered, so focusing from there would race the render.
  const declinedAt = declined ? confirm.submittedAt : null;
  useEffect(() => {
    if (declinedAt !== null) failureRef.current?.focus();
  }, [declinedAt]);

  const fillTestCard = (number: string) => {
    const options = { shouldValidate: true, shouldTouch: true } as const;
    form.setValue('number', formatCardNumber(number), options);
    form.setValue('expiry', testExpiry(), options);
    form.setValue('cvc', '123', options);
    confirm.reset();
    // The card is filled in: the list folds away so the submit button is in view (in a dialog too),
    // and the focus goes back to the list's toggle rather than into the hidden list.
    setShowingTestCards(false);
    testCardsToggleRef.current?.focus();
  };

  return (
    <Box component="form" noValidate onSubmit={handleSubmit}>
      <Stack spacing={2.5}>
        <Alert severity="info" variant="outlined" action={<CardSandboxChip />} sx={{ alignItems: 'center' }}>
          {t('card.sandboxIntro')}
        </Alert>
        <Box component="fieldset" disabled={isBusy} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
          <Stack spacing={2}>
            <CardField
              control={form.control}
              field={{ name: 'number', format: formatCardNumber }}
              label={t('card.number')}
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              maxLength={23}
              disabled={isBusy}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <CardField
                control={form.control}
                field={{ name: 'expiry', format: formatExpiry }}
                label={t('card.expiry')}
                autoComplete="cc-exp"
                placeholder={t('card.expiryPlaceholder')}
                maxLength={7}
                disabled={isBusy}
              />
              <CardField
                control={form.control}
                field={{ name: 'cvc', format: (value) => value.replace(/\D/g, '').slice(0, 4) }}
                label={t('card.cvc')}
                autoComplete="cc-csc"
                maxLength={4}
                disabled={isBusy}
              />
            </Stack>
          </Stack>
        </Box>

        {declined ? <CardFailureAlert ref={failureRef} reason={declined.reason} /> : null}
        {confirm.isError ? <Alert severity="error">{problemMessage(confirm.error)}</Alert> : null}

        <Box>
          <Button
            ref={testCardsToggleRef}
            size="small"
            onClick={() => setShowingTestCards((shown) => !shown)}
            aria-expanded={isShowingTestCards}
            aria-controls={testCardsId}
            endIcon={isShowingTestCards ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          >
            {t('card.testCards')}
          </Button>
          <Collapse in={isShowingTestCards} id={testCardsId}>
            <Box sx={{ mt: 1, p: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {t('card.testCardsHint')}
              </Typography>
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {SANDBOX_TEST_CARDS.map((card) => (
                  <Box
                    component="li"
                    key={card.number}
                    sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 0.5, flexWrap: 'wrap' }}
                  >
                    <Box component="span" sx={{ fontFamily: 'monospace', minWidth: 180 }}>
                      {formatCardNumber(card.number)}
                    </Box>
                    <Typography variant="body2" sx={{ flex: 1, minWidth: 160 }}>
                      {card.outcome}
                    </Typography>
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={isBusy}
                      onClick={() => fillTestCard(card.number)}
                      aria-label={t('card.useTestCard', { number: formatCardNumber(card.number) })}
                    >
                      {t('card.use')}
                    </Button>
                  </Box>
                ))}
              </Box>
            </Box>
          </Collapse>
        </Box>

        <Stack direction="row" sx={{ justifyContent: 'flex-end', alignItems: 'center', gap: 2 }}>
          {isLeaving ? (
            <Typography variant="body2" color="text.secondary" role="status">
              {t('card.redirecting')}
            </Typography>
          ) : null}
          <SubmitButton loading={isBusy}>{submitLabel}</SubmitButton>
        </Stack>
      </Stack>
    </Box>
  );
}
