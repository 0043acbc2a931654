import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import Button from '@mui/material/Button';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TCardConfirmation, TFetchPlansResponse, TOrder, TSubscription } from '@connect/shared';
import { OrderCardPayment } from '../../../components/card/order-card-payment.tsx';
import { ContactDialog } from '../../../components/contact-dialog.tsx';
import { FlowActions, FlowSteps, useStepFocus } from '../../../components/flow/flow-stepper.tsx';
import { LeaveGuard } from '../../../components/flow/leave-guard.tsx';
import { Page } from '../../../components/page.tsx';
import { combineQueries, QueryState } from '../../../components/query-state.tsx';
import { paths } from '../../../config/paths.ts';
import { readCardReturn, type CardReturn } from '../../../lib/payment/card-return.ts';
import { fetchPlansQuery, orderPlan, refreshPlanQueries, subscriptionQuery } from '../../../lib/plans/api.ts';
import { problemMessage } from '../../../lib/problems.ts';
import { isFree, methodForFreeOrder, offeredMethods, summaryOf, upfrontMonthsOf, type Selection } from '../checkout.ts';
import { CardReturnStep } from '../components/card-return.tsx';
import { OrderConfirmation } from '../components/order-confirmation.tsx';
import { PaymentStep, type PaymentChoice } from '../components/payment-step.tsx';
import { PendingOrderStep } from '../components/pending-order.tsx';
import { PlanOptions } from '../components/plan-options.tsx';
import { PlanSummary } from '../components/plan-summary.tsx';
import { PlansTable } from '../components/plans-table.tsx';

const STEPS = ['plan', 'summary', 'payment', 'confirmation'] as const;
/** The card form is part of Payment; the card payment's return (confirming, its outcome) is the Confirmation. */
type Step = (typeof STEPS)[number] | 'pending' | 'card' | 'cardReturn';
const LABEL_OF: Record<Step, (typeof STEPS)[number]> = {
  plan: 'plan',
  summary: 'summary',
  payment: 'payment',
  pending: 'payment',
  card: 'payment',
  confirmation: 'confirmation',
  cardReturn: 'confirmation',
};

/** Where a card payment comes back to (Stripe's return_url, or the sandbox's). */
const upgradeReturnUrl = () => `${window.location.origin}${paths.accountPlanUpgrade}`;

/** /account-plan/upgrade: the upgrade stepper of spec §2 (plan selection, summary, payment, confirmation). */
export function UpgradePage() {
  const { t } = useTranslation('accountPlan');
  const plans = useQuery(fetchPlansQuery());
  const subscription = useQuery(subscriptionQuery());
  // Read once: the query is taken out of the address (history only) once the payment is handled.
  const [searchParams] = useSearchParams();
  const [cardReturn] = useState(() => readCardReturn(searchParams));
  return (
    <Page title={t('title')} description={t('description')}>
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <QueryState
            query={combineQueries(plans, subscription)}
            loading={
              <Box aria-busy="true" aria-label={t('title')}>
                <Skeleton variant="rounded" height={56} sx={{ mb: 3 }} />
                <Skeleton variant="rounded" height={360} />
              </Box>
            }
          >
            {([catalogue, current]) => (
              <UpgradeFlow catalogue={catalogue} subscription={current} cardReturn={cardReturn} />
            )}
          </QueryState>
        </CardContent>
      </Card>
    </Page>
  );
}

function UpgradeFlow({
  catalogue,
  subscription,
  cardReturn,
}: {
  catalogue: TFetchPlansResponse;
  subscription: TSubscription;
  cardReturn: CardReturn | null;
}) {
  const { t } = useTranslation('accountPlan');
  const queryClient = useQueryClient();
  // An order awaiting its payment (opened again, e.g. a QNT payment under way) resumes at its confirmation.
  const [resumed] = useState(() => (subscription.status === 'PENDING' ? subscription.pendingOrder : null));
  // …and one placed by card but never paid, unless it is back from the card provider: the order with
  // Resume payment (the card form, while cards are taken) and Cancel order.
  const takesCards = subscription.availablePaymentMethods.includes('FIAT');
  const isResumedByCard = resumed?.paymentMethod === 'FIAT' && !cardReturn;
  const [step, setStep] = useState<Step>(
    cardReturn ? 'cardReturn' : isResumedByCard ? 'pending' : resumed ? 'confirmation' : 'plan',
  );
  // The order being paid by card, and whether the card is kept for later charges (the customer's
  // choice on the payment step; otherwise the server's default, or the open intent's own).
  const [cardOrder, setCardOrder] = useState<{ orderId: string; saveCard?: boolean } | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [order, setOrder] = useState<TOrder | null>(resumed);
  // Placed with QNT from the payment step ("Continue to MetaMask"): the wallet opens at once.
  const [isPayingFromWallet, setPayingFromWallet] = useState(false);
  // One key per checkout: a retry or a second click answers the same order; a new choice is a new checkout.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const [isNothingChosen, setNothingChosen] = useState(false);
  const [contact, setContact] = useState<{ planName: string | null } | null>(null);
  const [today] = useState(() => new Date());
  const headingRef = useStepFocus(step);

  const methods = selection ? offeredMethods(selection.plan, subscription) : [];
  const place = useMutation({
    mutationFn: (choice: PaymentChoice) => {
      if (!selection) throw new Error('No plan chosen');
      return orderPlan({
        idempotencyKey,
        ratePlanId: selection.plan.id,
        upfrontMonths: upfrontMonthsOf(selection),
        creditBundleId: selection.bundle?.id ?? null,
        paymentMethod: choice.paymentMethod,
        terms: choice.terms,
      });
    },
    onSuccess: (placed, choice) => {
      setOrder(placed);
      // Cards taken here: the card form next — a payment, or (nothing to pay now) the card kept for the month-end bills.
      if (placed.paymentMethod === 'FIAT' && placed.status !== 'CANCELLED' && methods.includes('FIAT')) {
        // The choice is asked only where something is paid now (pay as you go's card is always kept).
        setCardOrder(
          placed.status === 'AWAITING_PAYMENT'
            ? { orderId: placed.id, saveCard: choice.saveCard }
            : { orderId: placed.id },
        );
        setStep('card');
      } else {
        setPayingFromWallet(placed.paymentMethod === 'QNT' && placed.status === 'AWAITING_PAYMENT');
        setStep('confirmation');
      }
      // The top bar's PENDING label (or the new plan of a paid order) shows at once.
      void refreshPlanQueries(queryClient);
    },
  });

  const choose = (next: Selection | null) => {
    setSelection(next);
    setNothingChosen(false);
    setIdempotencyKey(crypto.randomUUID());
    place.reset();
  };
  const goTo = (next: Step) => {
    place.reset();
    setStep(next);
  };
  const restart = () => {
    choose(null);
    setOrder(null);
    setCardOrder(null);
    setPayingFromWallet(false);
    setStep('plan');
  };
  // The plan a card payment was for: the order placed here, else the one the plan waits for, else
  // the plan itself (already the new one when the payment went through before the page read it).
  const paidPlanName = (confirmation: TCardConfirmation) =>
    (order?.id === confirmation.orderId ? order.ratePlan?.name : undefined) ??
    (subscription.pendingOrder?.id === confirmation.orderId ? subscription.pendingOrder.ratePlan?.name : undefined) ??
    subscription.plan.name;
  const heading = (text: string) => (
    <Typography ref={headingRef} tabIndex={-1} variant="h3" component="h2" sx={{ mb: 2, outline: 'none' }}>
      {text}
    </Typography>
  );

  // The summary lists the methods the payment step will offer, not every one the plan accepts.
  const summary = selection ? summaryOf(selection, today, methods) : null;
  const hasPlans = catalogue.groups.some((group) => group.tiers.length > 0);

  return (
    <>
      <LeaveGuard
        when={(step === 'plan' || step === 'summary' || step === 'payment') && selection !== null}
        texts={{ title: t('leave.title'), body: t('leave.body'), stay: t('actions.stay'), leave: t('actions.leave') }}
      />
      <FlowSteps labels={STEPS.map((s) => t(`steps.${s}`))} active={STEPS.indexOf(LABEL_OF[step])} />

      {step === 'plan' ? (
        <>
          {heading(t('plans.heading'))}
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('plans.yourPlan', { plan: subscription.plan.name })}
          </Typography>
          {hasPlans ? (
            <PlansTable
              groups={catalogue.groups.filter((group) => group.tiers.length > 0)}
              subscription={subscription}
              selectedId={selection?.plan.id ?? null}
              onSelect={(plan, group) => choose({ plan, groupName: group.name, isUpfront: false, bundle: null })}
              onContactUs={(plan) => setContact({ planName: plan.name })}
            />
          ) : (
            <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', py: 6 }}>
              <Inventory2OutlinedIcon color="disabled" sx={{ fontSize: 48 }} aria-hidden />
              <Typography sx={{ fontWeight: 600 }}>{t('plans.empty')}</Typography>
              <Typography color="text.secondary">{t('plans.emptyHint')}</Typography>
              <Button variant="outlined" onClick={() => setContact({ planName: null })}>
                {t('actions.contactUs')}
              </Button>
            </Stack>
          )}
          {selection ? (
            <PlanOptions
              plan={selection.plan}
              isUpfront={selection.isUpfront}
              bundle={selection.bundle}
              onUpfrontChange={(isUpfront) => choose({ ...selection, isUpfront })}
              onBundleChange={(bundle) => choose({ ...selection, bundle })}
            />
          ) : null}
          {isNothingChosen ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {t('plans.selectPlan')}
            </Alert>
          ) : null}
          {hasPlans ? (
            <FlowActions
              continueLabel={t('actions.continueToSummary')}
              onContinue={() => (selection ? goTo('summary') : setNothingChosen(true))}
            />
          ) : null}
        </>
      ) : null}

      {step === 'summary' && summary ? (
        <>
          {heading(t('summary.heading'))}
          <PlanSummary summary={summary} onEdit={() => goTo('plan')} />
          <FlowActions
            onBack={() => goTo('plan')}
            continueLabel={t('actions.continueToPayment')}
            onContinue={() => goTo('payment')}
          />
        </>
      ) : null}

      {step === 'payment' && selection && summary ? (
        <>
          {heading(t('payment.heading'))}
          <PaymentStep
            methods={methods}
            freeMethod={methodForFreeOrder(selection.plan, methods)}
            isFree={isFree(summary)}
            isPending={place.isPending}
            error={place.isError ? problemMessage(place.error) : null}
            onBack={() => goTo('summary')}
            onSubmit={(choice) => place.mutate(choice)}
          />
        </>
      ) : null}

      {step === 'pending' && resumed ? (
        <PendingOrderStep
          order={resumed}
          headingRef={headingRef}
          onResume={
            takesCards
              ? () => {
                  setCardOrder({ orderId: resumed.id });
                  setStep('card');
                }
              : undefined
          }
          onCancelled={(cancelled) => {
            setOrder(cancelled);
            setStep('confirmation');
          }}
        />
      ) : null}

      {step === 'card' && cardOrder ? (
        <>
          {heading(t('card.heading'))}
          <OrderCardPayment
            orderId={cardOrder.orderId}
            saveCard={cardOrder.saveCard}
            returnUrl={upgradeReturnUrl()}
            setupIntro={t('card.setupIntro')}
          />
        </>
      ) : null}

      {step === 'cardReturn' && cardReturn ? (
        <CardReturnStep
          cardReturn={cardReturn}
          planName={paidPlanName}
          headingRef={headingRef}
          onTryAgain={(orderId) => {
            setCardOrder({ orderId });
            setStep('card');
          }}
          onRestart={restart}
        />
      ) : null}

      {step === 'confirmation' && order ? (
        <OrderConfirmation
          order={order}
          planName={order.ratePlan?.name ?? selection?.plan.name ?? ''}
          autoPay={isPayingFromWallet}
          headingRef={headingRef}
          onRestart={restart}
        />
      ) : null}

      <ContactDialog
        kind="plan"
        open={contact !== null}
        title={t('contact.title')}
        description={t('contact.intro')}
        planName={contact?.planName ?? null}
        currentPlan={subscription.plan.name}
        onClose={() => setContact(null)}
      />
    </>
  );
}
