import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { PlanStatus, TOrder, TSubscription } from '@connect/shared';
import { ConfirmDialog } from '../../../../components/confirm-dialog.tsx';
import { BUY_CREDITS_PARAM } from '../../../../components/layouts/main-layout/low-credits-banner.tsx';
import { QueryState } from '../../../../components/query-state.tsx';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context.ts';
import { paths } from '../../../../config/paths.ts';
import { formatDate, formatNumber } from '../../../../lib/format.ts';
import { canWithdraw } from '../../../../lib/payment/qnt.ts';
import { subscriptionQuery, trackOrderQuery } from '../../../../lib/plans/api.ts';
import { formatGbp, formatUsdPerCredit } from '../../../../lib/plans/money.ts';
import { problemMessage } from '../../../../lib/problems.ts';
import { useCardStatus } from '../../api/card.ts';
import { useCancelOrder, useCancelPlan, useRatePlans, useResumePlan } from '../../api/plan.ts';
import { AccountSection, DetailRow } from '../account-section.tsx';
import { AccountCardReturn } from './account-card-return.tsx';
import { BuyCreditsDialog } from './buy-credits-dialog.tsx';
import { CardSetupDialog, PayOrderByCardDialog } from './card-dialogs.tsx';
import { ChangePlanDialog } from './change-plan-dialog.tsx';
import { OrderDetails, useOrderSubject } from './order-details.tsx';
import { PaymentCard } from './payment-card.tsx';
import { QntHolding } from './qnt-holding.tsx';
import { canChangeAtRenewal, creditPaymentMethods, currentRatePlan, reasonKey } from './plan-model.ts';
import { UsageList } from './usage-list.tsx';

/** Status colours of shared/UI.md: green active, amber pending, grey inactive, red disabled. */
const STATUS_COLOURS: Record<PlanStatus, ChipProps['color']> = {
  ACTIVE: 'success',
  PENDING: 'warning',
  INACTIVE: 'default',
  DISABLED: 'error',
};

/**
 * My account's plan (issue 14): the current plan with its status and reason in words, its dates,
 * usage against the allowances, credits, the order waiting for its payment, and what can be done —
 * upgrade, buy credits, change the plan at renewal, cancel or resume.
 */
export function PlanSection() {
  const { t } = useTranslation('account');
  const subscription = useQuery(subscriptionQuery());
  const isPending = subscription.data?.status === 'PENDING';
  return (
    <AccountSection
      id="plan-title"
      title={t('myAccount.plan.title')}
      description={t('myAccount.plan.description')}
      action={
        subscription.data ? (
          isPending ? (
            <Button variant="outlined" disabled sx={{ flexShrink: 0 }}>
              {t('myAccount.plan.upgradePending')}
            </Button>
          ) : (
            <Button variant="contained" component={RouterLink} to={paths.accountPlanUpgrade} sx={{ flexShrink: 0 }}>
              {t('myAccount.plan.upgrade')}
            </Button>
          )
        ) : null
      }
    >
      <QueryState
        query={subscription}
        loading={
          <Grid container spacing={4} aria-busy="true" aria-label={t('myAccount.plan.loading')}>
            <Grid size={{ xs: 12, md: 5 }}>
              <Skeleton width="60%" height={40} />
              <Skeleton width="80%" />
              <Skeleton width="70%" />
              <Skeleton width="50%" />
            </Grid>
            <Grid size={{ xs: 12, md: 7 }}>
              <Skeleton variant="rounded" height={160} />
            </Grid>
          </Grid>
        }
        errorMessage={t('myAccount.plan.loadFailed')}
        errorVariant="row"
      >
        {(loaded) => <PlanDetails subscription={loaded} />}
      </QueryState>
    </AccountSection>
  );
}

/** The card dialog open: saving (or replacing) the card, or paying an open order by card. */
type CardDialog = { kind: 'setup'; isReplacing: boolean } | { kind: 'order'; orderId: string };

function PlanDetails({ subscription }: { subscription: TSubscription }) {
  const { t, i18n } = useTranslation('account');
  const { plan } = subscription;
  const status = reasonKey(subscription, (key) => i18n.exists(`account:myAccount.plan.reason.${key}`));
  const [cardDialog, setCardDialog] = useState<CardDialog | null>(null);
  const hasCard = Boolean(useCardStatus().data?.card);
  const takesCards = subscription.availablePaymentMethods.includes('FIAT');
  const orders = awaitingPayment(subscription);
  const cardOrder = cardDialog?.kind === 'order' ? orders.find((order) => order.id === cardDialog.orderId) : undefined;
  return (
    <>
      <AccountCardReturn
        onTryAgain={({ orderId }) =>
          setCardDialog(orderId ? { kind: 'order', orderId } : { kind: 'setup', isReplacing: hasCard })
        }
      />
      <Grid container spacing={4}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h3" component="p" data-testid="plan-name">
              {plan.name}
            </Typography>
            <Chip
              size="small"
              color={STATUS_COLOURS[subscription.status]}
              label={t(`options.planStatus.${subscription.status}`)}
            />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 2 }} data-testid="plan-status-reason">
            {t(`myAccount.plan.reason.${status}`)}
          </Typography>
          <PlanDates subscription={subscription} />
          <PlanActions subscription={subscription} />
          <Divider sx={{ my: 3 }} />
          <Credits subscription={subscription} />
          <QntHolding qnt={subscription.qnt} />
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <UsageList subscription={subscription} />
          {orders.map((order) => (
            <PendingOrder
              key={order.id}
              order={order}
              onPayByCard={
                takesCards && order.paymentMethod === 'FIAT'
                  ? () => setCardDialog({ kind: 'order', orderId: order.id })
                  : undefined
              }
            />
          ))}
          <PaymentCard onChangeCard={(isReplacing) => setCardDialog({ kind: 'setup', isReplacing })} />
        </Grid>
      </Grid>
      {cardDialog?.kind === 'setup' ? (
        <CardSetupDialog isReplacing={cardDialog.isReplacing} onClose={() => setCardDialog(null)} />
      ) : null}
      {cardOrder ? <PayOrderByCardDialog order={cardOrder} onClose={() => setCardDialog(null)} /> : null}
    </>
  );
}

function PlanDates({ subscription }: { subscription: TSubscription }) {
  const { t } = useTranslation('account');
  const { plan } = subscription;
  return (
    <Box component="dl" sx={{ m: 0 }}>
      <DetailRow label={t('myAccount.plan.rows.billing')}>{t(`myAccount.plan.billing.${plan.billing}`)}</DetailRow>
      {plan.feeGbpMinor > 0 ? (
        <DetailRow label={t('myAccount.plan.rows.fee')}>
          {plan.billing === 'ANNUAL'
            ? t('myAccount.plan.feePerYear', { amount: formatGbp(plan.feeGbpMinor) })
            : t('myAccount.plan.feePerPeriod', { amount: formatGbp(plan.feeGbpMinor) })}
        </DetailRow>
      ) : null}
      {plan.creditPriceUsdCents !== null && plan.billing === 'MONTHLY' ? (
        <DetailRow label={t('myAccount.plan.rows.creditPrice')}>
          {t('myAccount.plan.creditPrice', { amount: formatUsdPerCredit(plan.creditPriceUsdCents) })}
        </DetailRow>
      ) : null}
      <DetailRow label={t('myAccount.plan.rows.started')}>{formatDate(subscription.startedAt)}</DetailRow>
      {plan.type === 'TRIAL' ? (
        <DetailRow label={t('myAccount.plan.rows.trialEnds')}>{formatDate(subscription.trialEndsAt)}</DetailRow>
      ) : subscription.periodEnd ? (
        <DetailRow
          label={t(subscription.cancelAtPeriodEnd ? 'myAccount.plan.rows.ends' : 'myAccount.plan.rows.renews')}
        >
          {formatDate(subscription.periodEnd)}
        </DetailRow>
      ) : null}
      {subscription.upfrontMonths ? (
        <DetailRow label={t('myAccount.plan.rows.upfront')}>
          {t('myAccount.plan.upfrontMonths', { count: subscription.upfrontMonths })}
        </DetailRow>
      ) : null}
      {subscription.nextPlan ? (
        <DetailRow label={t('myAccount.plan.rows.nextPlan', { date: formatDate(subscription.periodEnd) })}>
          {t('myAccount.plan.nextPlanText', { plan: subscription.nextPlan.name })}
        </DetailRow>
      ) : null}
    </Box>
  );
}

function PlanActions({ subscription }: { subscription: TSubscription }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const cancel = useCancelPlan();
  const resume = useResumePlan();
  const [isConfirming, setIsConfirming] = useState(false);
  const [isChanging, setIsChanging] = useState(false);
  const endDate = formatDate(subscription.periodEnd);

  const handleCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setIsConfirming(false);
        snackbar.show({ type: 'success', title: t('myAccount.plan.cancel.done', { date: endDate }) });
      },
    });
  const handleResume = () =>
    resume.mutate(undefined, {
      onSuccess: () => snackbar.show({ type: 'success', title: t('myAccount.plan.resume.done', { date: endDate }) }),
      onError: (error) => snackbar.show({ type: 'error', title: problemMessage(error) }),
    });

  if (subscription.cancelAtPeriodEnd) {
    return (
      <Alert severity="warning" sx={{ mt: 2 }}>
        {t('myAccount.plan.cancelling', { date: endDate })}
        <Box sx={{ mt: 1 }}>
          <Button variant="outlined" color="inherit" size="small" onClick={handleResume} loading={resume.isPending}>
            {t('myAccount.plan.resume.action')}
          </Button>
        </Box>
      </Alert>
    );
  }
  if (!canChangeAtRenewal(subscription)) return null;
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="outlined" onClick={() => setIsChanging(true)}>
          {t('myAccount.plan.change.action')}
        </Button>
        <Button variant="outlined" color="error" onClick={() => setIsConfirming(true)}>
          {t('myAccount.plan.cancel.action')}
        </Button>
      </Stack>
      {isChanging ? <ChangePlanDialog subscription={subscription} onClose={() => setIsChanging(false)} /> : null}
      <ConfirmDialog
        open={isConfirming}
        title={t('myAccount.plan.cancel.title', { plan: subscription.plan.name })}
        confirmLabel={t('myAccount.plan.cancel.confirm')}
        isDestructive
        isPending={cancel.isPending}
        error={cancel.isError ? problemMessage(cancel.error) : null}
        onConfirm={handleCancel}
        onClose={() => {
          setIsConfirming(false);
          cancel.reset();
        }}
      >
        {t('myAccount.plan.cancel.text', { date: endDate })}
      </ConfirmDialog>
    </>
  );
}

function Credits({ subscription }: { subscription: TSubscription }) {
  const { t } = useTranslation('account');
  const plans = useRatePlans();
  const [searchParams, setSearchParams] = useSearchParams();
  const ratePlan = currentRatePlan(subscription, plans.data);
  const sellsCredits = Boolean(ratePlan?.hasCreditBundles);
  const isBuying = sellsCredits && searchParams.has(BUY_CREDITS_PARAM);
  const { credits } = subscription;

  // The dialog's state is in the address, so the dashboard and the banner can link to it.
  const setBuying = (open: boolean) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (open) next.set(BUY_CREDITS_PARAM, '');
        else next.delete(BUY_CREDITS_PARAM);
        return next;
      },
      { replace: true },
    );

  return (
    <Box component="section" aria-labelledby="plan-credits-title">
      <Typography id="plan-credits-title" variant="h4" component="h3" sx={{ mb: 1.5 }}>
        {t('myAccount.plan.credits.title')}
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        <DetailRow label={t('myAccount.plan.credits.available')}>
          <Box component="span" sx={{ fontWeight: 600 }} data-testid="credits-available">
            {t('myAccount.plan.credits.availableValue', {
              count: credits.available,
              formatted: formatNumber(credits.available),
            })}
          </Box>
        </DetailRow>
        {credits.floor < 0 ? (
          <>
            <DetailRow label={t('myAccount.plan.credits.creditLimit')}>
              <span data-testid="credit-limit">
                {t('myAccount.plan.credits.creditLimitValue', { formatted: formatNumber(-credits.floor) })}
              </span>
            </DetailRow>
            <DetailRow label={t('myAccount.plan.credits.balance')}>{formatNumber(credits.balance)}</DetailRow>
          </>
        ) : null}
      </Box>
      {subscription.lowCredits ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t('myAccount.plan.credits.low')}
        </Alert>
      ) : null}
      {sellsCredits ? (
        <Button variant="outlined" sx={{ mt: 2 }} onClick={() => setBuying(true)}>
          {t('myAccount.plan.credits.buy')}
        </Button>
      ) : plans.data ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('myAccount.plan.sellsNoCredits')}
        </Typography>
      ) : null}
      {isBuying && ratePlan ? (
        <BuyCreditsDialog
          ratePlanId={ratePlan.id}
          paymentMethods={creditPaymentMethods(subscription, ratePlan)}
          onClose={() => setBuying(false)}
        />
      ) : null}
    </Box>
  );
}

/** The plan's own order first, then the other orders waiting for their payment (credit top-ups). */
function awaitingPayment(subscription: TSubscription): TOrder[] {
  const { pendingOrder, openOrders } = subscription;
  const others = openOrders.filter((order) => order.id !== pendingOrder?.id);
  return pendingOrder ? [pendingOrder, ...others] : others;
}

function PendingOrder({ order, onPayByCard }: { order: TOrder; onPayByCard?: (() => void) | undefined }) {
  const { t } = useTranslation('account');
  const snackbar = useSnackbar();
  const subject = useOrderSubject();
  const cancel = useCancelOrder();
  const [isConfirming, setIsConfirming] = useState(false);
  // A QNT payment is tracked live (the payment panel shares this query); a bank transfer is not.
  const isQnt = order.paymentMethod === 'QNT' && Boolean(order.qnt);
  const live = useQuery({ ...trackOrderQuery(order), enabled: isQnt }).data;
  // A month's bill is for credits already used: it is paid, never withdrawn (the server refuses).
  const canCancel = order.kind !== 'USAGE' && (!isQnt || !live.qnt || canWithdraw(live.qnt));

  const handleCancel = () =>
    cancel.mutate(order.id, {
      onSuccess: () => {
        setIsConfirming(false);
        snackbar.show({ type: 'success', title: t('myAccount.plan.order.cancelled') });
      },
    });

  return (
    <Box
      component="section"
      aria-labelledby={`plan-order-title-${order.id}`}
      sx={{ mt: 3, p: 2, border: 1, borderColor: 'warning.main', borderRadius: 1 }}
    >
      <Typography id={`plan-order-title-${order.id}`} variant="h4" component="h3" sx={{ mb: 1.5 }}>
        {t('myAccount.plan.order.title')}
      </Typography>
      <OrderDetails order={order} />
      <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
        {onPayByCard ? (
          <Button variant="contained" onClick={onPayByCard}>
            {t('myAccount.plan.order.payByCard')}
          </Button>
        ) : null}
        {canCancel ? (
          <Button variant="outlined" color="error" onClick={() => setIsConfirming(true)}>
            {t('myAccount.plan.order.cancel')}
          </Button>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={isConfirming}
        title={t('myAccount.plan.order.cancelTitle', { reference: order.reference })}
        confirmLabel={t('myAccount.plan.order.cancelConfirm')}
        isDestructive
        isPending={cancel.isPending}
        error={cancel.isError ? problemMessage(cancel.error) : null}
        onConfirm={handleCancel}
        onClose={() => {
          setIsConfirming(false);
          cancel.reset();
        }}
      >
        {t(isQnt ? 'myAccount.plan.order.cancelTextQnt' : 'myAccount.plan.order.cancelText', {
          what: subject(order),
        })}
      </ConfirmDialog>
    </Box>
  );
}
