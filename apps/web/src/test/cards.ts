import type { TCardConfirmation, TCardIntent, TCardStatus, TOrder } from '@connect/shared';
import { ORDER, PAYG_ORDER } from './plans.ts';

/**
 * Card payments as the payment service answers them (packages/shared/src/cards.ts), in the
 * sandbox's mode unless a test says otherwise: ORDER paid by card, its PaymentIntent, a
 * SetupIntent, the confirmations of both, and the card status. Tests spread them with their case.
 */

/** ORDER (the annual standard plan with the 1,000-credit bundle, £6,880.00) placed to pay by card. */
export const CARD_ORDER: TOrder = {
  ...ORDER,
  id: '30000000-0000-4000-8000-000000000005',
  reference: 'CNX-CARD0001',
  paymentMethod: 'FIAT',
  bankTransfer: null,
};

export const SANDBOX_PROVIDER = { mode: 'sandbox', publishableKey: 'pk_sandbox_connect' } as const;

/** POST /card/order for CARD_ORDER: a PaymentIntent of £6,880.00 to confirm in the browser. */
export const PAYMENT_INTENT: TCardIntent = {
  kind: 'PAYMENT',
  intentId: 'pi_3Sandbox0001',
  clientSecret: 'pi_3Sandbox0001_secret_abc123',
  status: 'requires_payment_method',
  amountGbpMinor: 688_000,
  orderId: CARD_ORDER.id,
  provider: SANDBOX_PROVIDER,
};

/** POST /card/setup (or /card/order for pay as you go): a SetupIntent keeping a card. */
export const SETUP_INTENT: TCardIntent = {
  kind: 'SETUP',
  intentId: 'seti_1Sandbox0001',
  clientSecret: 'seti_1Sandbox0001_secret_def456',
  status: 'requires_payment_method',
  amountGbpMinor: 0,
  orderId: null,
  provider: SANDBOX_PROVIDER,
};

export const SAVED_CARD = { brand: 'visa', last4: '4242', expMonth: 4, expYear: 2028 };

/** POST /card/confirm for PAYMENT_INTENT once it succeeded: the order is paid. */
export const PAID: TCardConfirmation = {
  kind: 'PAYMENT',
  intentId: PAYMENT_INTENT.intentId,
  status: 'succeeded',
  orderId: CARD_ORDER.id,
  orderStatus: 'PAID',
  failure: null,
  card: SAVED_CARD,
};

/** POST /card/confirm for PAYMENT_INTENT declined: the order still waits for its payment. */
export const DECLINED: TCardConfirmation = {
  ...PAID,
  status: 'requires_payment_method',
  orderStatus: 'AWAITING_PAYMENT',
  failure: { code: 'card_declined', message: 'Your card was declined.' },
  card: null,
};

/** POST /card/confirm for SETUP_INTENT once the card is saved. */
export const CARD_SAVED: TCardConfirmation = {
  kind: 'SETUP',
  intentId: SETUP_INTENT.intentId,
  status: 'succeeded',
  orderId: null,
  orderStatus: null,
  failure: null,
  card: SAVED_CARD,
};

/** GET /card/status with the sandbox, a saved Visa and nothing failed. */
export const CARD_STATUS: TCardStatus = {
  available: true,
  provider: SANDBOX_PROVIDER,
  card: SAVED_CARD,
  failedCharge: null,
};

/** A month-end bill the saved card was declined for, tried twice, next on 05.12.2026. */
export const FAILED_CHARGE: NonNullable<TCardStatus['failedCharge']> = {
  orderId: '30000000-0000-4000-8000-000000000006',
  reference: 'CNX-USAGE001',
  amountGbpMinor: 4_250,
  attempts: 2,
  nextAttemptAt: '2026-12-05T09:00:00.000Z',
  message: 'Your card has insufficient funds.',
};

/** PAYG_ORDER (nothing to pay now) placed by card where cards are taken. */
export const PAYG_CARD_ORDER: TOrder = { ...PAYG_ORDER, paymentMethod: 'FIAT' };
