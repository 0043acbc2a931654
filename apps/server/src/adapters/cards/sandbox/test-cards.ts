/*
 * Stripe's documented test cards (https://docs.stripe.com/testing) and what each does, as the
 * sandbox answers them. Only the outcome is kept with a payment method, never the number: the
 * sandbox holds what Stripe would let a platform see (brand, last four digits, expiry).
 */

/** How a card behaves when it is saved (a SetupIntent) and when it is charged. */
export type CardBehaviour =
  | 'succeeds'
  /** 4000002500003155: authentication on session; once set up, off-session charges go through. */
  | 'authenticates_once'
  /** 4000002760003184: authentication every time; off session it is declined (authentication_required). */
  | 'always_authenticates'
  | 'declined'
  | 'insufficient_funds'
  /** 4000000000000341: saved without trouble, every charge declined. */
  | 'charge_declined';

const TEST_CARDS: Record<string, CardBehaviour> = {
  '4242424242424242': 'succeeds',
  '4000002500003155': 'authenticates_once',
  '4000002760003184': 'always_authenticates',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000000341': 'charge_declined',
};

/** Stripe's reason for a failed attempt (the `last_payment_error` / card error it answers). */
export type CardFailure = { type: 'card_error'; code: string; decline_code?: string; message: string; param?: string };

const declined = (declineCode: string, message: string): CardFailure => ({
  type: 'card_error',
  code: 'card_declined',
  decline_code: declineCode,
  message,
});

export const FAILURES = {
  generic: declined('generic_decline', 'Your card was declined.'),
  insufficientFunds: declined('insufficient_funds', 'Your card has insufficient funds.'),
  authenticationRequired: {
    type: 'card_error',
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
  incorrectNumber: {
    type: 'card_error',
    code: 'incorrect_number',
    message: 'Your card number is incorrect.',
    param: 'number',
  },
  expired: {
    type: 'card_error',
    code: 'expired_card',
    decline_code: 'expired_card',
    message: 'Your card has expired.',
  },
  incorrectCvc: {
    type: 'card_error',
    code: 'incorrect_cvc',
    decline_code: 'incorrect_cvc',
    message: 'Your card’s security code is incorrect.',
    param: 'cvc',
  },
} satisfies Record<string, CardFailure>;

export type CardInput = { number: string; expMonth: number; expYear: number; cvc?: string };
export type CheckedCard = { behaviour: CardBehaviour; brand: string; last4: string; expMonth: number; expYear: number };

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65)/.test(digits)) return 'discover';
  if (/^35/.test(digits)) return 'jcb';
  if (/^3(0|6|8)/.test(digits)) return 'diners';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

/** Whether a card with this expiry has expired at `now` (it is valid to the end of its month). */
export function hasExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = now.getUTCFullYear();
  return expYear < year || (expYear === year && expMonth < now.getUTCMonth() + 1);
}

/**
 * Reads the card the customer typed, as Stripe does when it tokenises it: a number that fails the
 * Luhn check is incorrect_number, a past expiry expired_card, a CVC that is not 3–4 digits
 * incorrect_cvc. Any other valid number behaves like 4242… (Stripe's brand test cards all succeed).
 */
export function checkCard(input: CardInput, now: Date): { card: CheckedCard } | { failure: CardFailure } {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) return { failure: FAILURES.incorrectNumber };
  const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12) {
    return {
      failure: {
        type: 'card_error',
        code: 'invalid_expiry_month',
        message: 'Your card’s expiration month is invalid.',
        param: 'exp_month',
      },
    };
  }
  if (hasExpired(input.expMonth, expYear, now)) return { failure: FAILURES.expired };
  if (input.cvc !== undefined && !/^\d{3,4}$/.test(input.cvc)) return { failure: FAILURES.incorrectCvc };
  return {
    card: {
      behaviour: TEST_CARDS[digits] ?? 'succeeds',
      brand: brandOf(digits),
      last4: digits.slice(-4),
      expMonth: input.expMonth,
      expYear,
    },
  };
}

export type Attempt = 'payment' | 'setup';
export type Outcome = { kind: 'succeed' } | { kind: 'authenticate' } | { kind: 'fail'; failure: CardFailure };

/**
 * What an attempt with a card does. `offSession`: the customer is away (a saved card charged
 * later); `setUp`: the card was saved for such charges (a SetupIntent or a payment with
 * setup_future_usage succeeded with it), which is what lets 4000002500003155 through off session.
 */
export function outcomeOf(
  behaviour: CardBehaviour,
  attempt: Attempt,
  context: { offSession: boolean; setUp: boolean },
): Outcome {
  switch (behaviour) {
    case 'succeeds':
      return { kind: 'succeed' };
    case 'authenticates_once':
      if (!context.offSession) return { kind: 'authenticate' };
      return context.setUp ? { kind: 'succeed' } : { kind: 'fail', failure: FAILURES.authenticationRequired };
    case 'always_authenticates':
      return context.offSession ? { kind: 'fail', failure: FAILURES.authenticationRequired } : { kind: 'authenticate' };
    case 'declined':
      return { kind: 'fail', failure: FAILURES.generic };
    case 'insufficient_funds':
      return { kind: 'fail', failure: FAILURES.insufficientFunds };
    case 'charge_declined':
      return attempt === 'setup' ? { kind: 'succeed' } : { kind: 'fail', failure: FAILURES.generic };
  }
}
