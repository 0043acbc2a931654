import { PLAN_TERMS } from '@connect/shared';
import type { DomainEvents } from '../../events/catalogue.ts';
import { formatQnt } from '../../lib/formats.ts';

/*
 * The account notices' texts: what a plan change, a reversed QNT transfer, a trial reminder, low
 * or used-up credits and a crossed spending cap tell the account's members. Pure functions of the
 * event; account-notice-subscribers.ts writes them to the bell and the mail.
 */

/** What a user is told of an event. */
export type Notice = { title: string; body: string; link: string | null };
/** What the account's members are told: the notice, its kind (the bell's icon), and whether it is also emailed. */
export type AccountNotice = Notice & { kind: string; email: boolean };

/** The portal's pages for the plan (apps/web/src/config/paths.ts). */
const PLAN_PAGE = '/my-account';
const UPGRADE_PAGE = '/account-plan/upgrade';
/** The usage page: use by application and method, and the applications' caps. */
const USAGE_PAGE = '/usage';

const DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
/** Spec §9: en-GB dates with dots, read in the UK's time zone (where the invoices are). */
export const formatNoticeDate = (date: Date | string) => DATE.format(new Date(date)).replaceAll('/', '.');

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/** What a change of the plan tells the customer; null when it tells nothing (another email does, or nothing changed for them). */
export function planChangedNotice(change: DomainEvents['plan.changed']): AccountNotice | null {
  const until = change.periodEnd ? formatNoticeDate(change.periodEnd) : null;
  const notice = (title: string, body: string, link: string, email = true): AccountNotice => ({
    kind: 'plan.changed',
    title,
    body,
    link,
    email,
  });
  switch (change.cause) {
    case 'ORDER_PLACED':
      return null; // the order's own email (account-plan order-mails.ts) says what to pay
    case 'ORDER_CANCELLED':
      return notice(
        'Your order was cancelled',
        change.status === 'ACTIVE'
          ? `The order awaiting payment was cancelled. You stay on ${change.planName}.`
          : `The order awaiting payment was cancelled. Your plan ${change.planName} is inactive: choose a plan to continue.`,
        change.status === 'ACTIVE' ? PLAN_PAGE : UPGRADE_PAGE,
      );
    case 'PLAN_PAID':
      // In the bell only: the order's paid email confirms it by mail.
      return notice(
        'Your plan is active',
        until ? `${change.planName} is active. It renews on ${until}.` : `${change.planName} is active.`,
        PLAN_PAGE,
        false,
      );
    case 'PERIOD_ENDED':
      if (change.status === 'INACTIVE') {
        return notice(
          'Your plan has ended',
          `${change.previousPlanName} ended as you asked. Your applications, tokens and networks stay, but nothing new can be created and your applications' calls are refused until you choose a plan.`,
          UPGRADE_PAGE,
        );
      }
      if (change.statusReason === 'RENEWAL_DUE' && change.planType === 'PAY_AS_YOU_GO') {
        // Pay as you go rolled on with the month's bill (its period end is the next month's).
        return notice(
          'Your monthly bill is due',
          `${change.planName}: the credits used last month are billed. We charge your saved card or email how to pay; please pay within ${days(PLAN_TERMS.renewalGraceDays)} to keep your plan active.`,
          PLAN_PAGE,
        );
      }
      if (change.statusReason === 'RENEWAL_DUE' && change.periodEnd) {
        const grace = formatNoticeDate(
          new Date(Date.parse(change.periodEnd) + PLAN_TERMS.renewalGraceDays * 86_400_000),
        );
        return notice(
          'Your renewal is due',
          `The period of ${change.planName} ended on ${until}. Please pay the renewal invoice by ${grace} to keep your plan active; we have emailed how to pay it.`,
          PLAN_PAGE,
        );
      }
      return null; // pay as you go rolls on into its next month: the month's invoice tells
    case 'BILL_PAID':
      return null; // the order's paid email tells
    case 'RENEWAL_FAILED':
      return notice(
        'Your renewal payment is overdue',
        `The renewal of ${change.planName} was not paid within ${days(PLAN_TERMS.renewalGraceDays)}, so your plan is inactive. Pay the renewal invoice, or choose a plan, to make it active again.`,
        UPGRADE_PAGE,
      );
    case 'TRIAL_ENDED':
      return notice(
        'Your trial has ended',
        "Your trial has ended. Your applications, tokens and networks stay, but nothing new can be created and your applications' calls are refused until you choose a plan.",
        UPGRADE_PAGE,
      );
    case 'TRIAL_EXTENDED':
      return notice(
        'Your trial is extended',
        'Your trial was extended: your plan page shows its new end date.',
        PLAN_PAGE,
      );
    case 'CANCEL_REQUESTED':
      return notice(
        until ? `Your plan ends on ${until}` : 'Your plan is cancelled',
        `${change.planName} is cancelled and will not renew. It stays active${until ? ` until ${until}` : ''}; you can resume it on your plan page until then.`,
        PLAN_PAGE,
      );
    case 'CANCEL_WITHDRAWN':
      return notice(
        'Your plan will renew',
        until
          ? `${change.planName} is no longer cancelled: it renews on ${until}.`
          : `${change.planName} is no longer cancelled.`,
        PLAN_PAGE,
      );
    case 'DOWNGRADE_CHOSEN':
      return notice(
        'Your next plan is set',
        `Your choice of plan for your next period is saved. ${change.planName} stays${until ? ` until ${until}` : ''}.`,
        PLAN_PAGE,
      );
    case 'DISABLED_BY_STAFF':
      return notice(
        'Your plan is disabled',
        'Our staff disabled your plan: nothing new can be created and your applications’ calls are refused. Please contact support.',
        '/support',
      );
    case 'ENABLED_BY_STAFF':
      return notice('Your plan is active again', `${change.planName} is active again.`, PLAN_PAGE);
    case 'PAYMENT_REVERSED':
      // The QNT notice (qntReversedNotice) says why; this one says what it means for the plan.
      return notice(
        'Your order is awaiting payment again',
        change.status === 'PENDING'
          ? `The payment of ${change.planName} was taken back, so it is not active until its order is paid. Please pay the order again.`
          : `The payment of your ${change.planName} renewal or bill was taken back: please pay it again to keep your plan active.`,
        UPGRADE_PAGE,
      );
  }
}

/**
 * What the customer is told when the chain lost the block of a QNT transfer already credited and
 * the transfer is not on the chain now (issue 27 §4): the QNT taken back, what the account holds
 * or owes now, and that the orders it paid wait for their payment again.
 */
export function qntReversedNotice(reversed: DomainEvents['qnt.transfer_reversed']): AccountNotice {
  const balance = BigInt(reversed.balanceAfter);
  const standing =
    balance < 0n
      ? `You now owe ${formatQnt(-balance)}: it was already used, and is taken from the next QNT you send.`
      : `You now hold ${formatQnt(balance)}.`;
  return {
    kind: 'qnt.reversed',
    title: 'A QNT payment was taken back',
    body: `The blockchain lost the block of your QNT transfer ${reversed.txHash} after it had been confirmed, and the transfer is not on the chain now, so its ${formatQnt(reversed.amount)} were taken back. ${standing} Any order it paid is awaiting payment again: please send the transfer again, or contact support.`,
    link: PLAN_PAGE,
    email: true,
  };
}

/** The reminder before a trial ends, `days` (7 or 1) before it; `left` counts the whole days still to come. */
export function trialReminderNotice(trialEndsAt: Date, now: Date): AccountNotice {
  const left = Math.max(1, Math.ceil((trialEndsAt.getTime() - now.getTime()) / 86_400_000));
  return {
    kind: 'plan.trial_reminder',
    title: `Your trial ends in ${days(left)}`,
    body: `Your trial ends on ${formatNoticeDate(trialEndsAt)}. Choose a plan before then to keep creating applications, tokens and networks, and to keep your applications' calls running.`,
    link: UPGRADE_PAGE,
    email: true,
  };
}

/** The warning when a deployment takes the available credits to PLAN_TERMS.lowCreditsThreshold or below. */
export function lowCreditsNotice(available: number): AccountNotice {
  return {
    kind: 'credits.low',
    title: 'Your credits are running low',
    body: `You have ${available} credits left. Add credits, or choose a plan with more, so that your next deployments are not left unpaid.`,
    link: UPGRADE_PAGE,
    email: true,
  };
}

const CREDITS = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const SMALL_CREDITS = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4 });
/**
 * Credits as people read them (spec §9), as the usage page shows them: four decimals below 10
 * credits (a read call is 0.0001), two above; thousands separated.
 */
const credits = (value: number) => (Math.abs(value) < 10 ? SMALL_CREDITS : CREDITS).format(value);
const MONTH_DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long' });

/**
 * What a crossed spending cap tells (issue 17 §3): at 85 % that the cap is near, at 100 % that the
 * application's calls are refused until the cap is raised or the UTC month turns (its first day named).
 */
export function capCrossedNotice(crossed: DomainEvents['usage.cap_crossed']): AccountNotice {
  const name = crossed.applicationName;
  const used = `${credits(crossed.usedCredits)} of its ${credits(crossed.capCredits)} credits`;
  if (crossed.threshold === 100) {
    const start = new Date(`${crossed.month}T00:00:00.000Z`);
    const turn = MONTH_DAY.format(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)));
    return {
      kind: 'usage.cap',
      title: `${name} reached its monthly cap`,
      body: `${name} reached its monthly cap: its calls are refused until you raise the cap or the month turns (${turn}). It has used ${used} this month.`,
      link: USAGE_PAGE,
      email: true,
    };
  }
  return {
    kind: 'usage.cap',
    title: `${name} has used ${crossed.threshold} % of its monthly cap`,
    body: `${name} has used ${crossed.threshold} % of its monthly cap: ${used} this month. At 100 % its calls are refused until you raise the cap or the month turns.`,
    link: USAGE_PAGE,
    email: true,
  };
}

/** The warning when metered use takes a prepaid account's credits to nothing or below. */
export function creditsUsedUpNotice(): AccountNotice {
  return {
    kind: 'credits.low',
    title: 'Your credits are used up',
    body: "Your applications' calls have used up your credits. Their calls are still served: metered use beyond your balance is taken from the next credits you buy. Add credits, or choose a plan with more.",
    link: UPGRADE_PAGE,
    email: true,
  };
}
