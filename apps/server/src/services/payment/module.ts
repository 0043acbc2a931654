import { sealedPlatformKey } from '../../lib/sealed-places.ts';
import type { ServiceModule } from '../../modules.ts';
import { cardChargesJob } from './card-charges-job.ts';
import { EMBEDDED_SEED_KEY } from './deposit-keys.ts';
import { subscribeCardPayments } from './index.ts';
import { invoiceCloseJob } from './invoices/close-job.ts';
import type { InvoicesRuntime } from './invoices/close.ts';
import { paymentService } from './routes.ts';
import type { PaymentRuntime } from './sweep.ts';
import { qntSweepJob } from './sweep-job.ts';

declare module '../../types.ts' {
  interface Runtime {
    /** QNT deposits swept to the treasury (sweep-job.ts); `sweeps` false where the operator sweeps. */
    payment?: PaymentRuntime;
    /** Monthly charges of saved cards and card intents read again (card-charges-job.ts), where cards are taken. */
    cards?: {
      chargeDue(now: Date): Promise<{ charged: number; failed: number }>;
      reconcile(now: Date): Promise<number>;
    };
    /** The month's close of pay-as-you-go use into invoices (invoices/close-job.ts, the dev billing routes). */
    invoices?: InvoicesRuntime;
  }
}

/**
 * The payment service (spec §7): QNT and card payments, billing and invoices. Its runtime faces
 * (payment, cards, invoices) are published by its routes (routes.ts, card-routes.ts).
 */
export const paymentModule: ServiceModule = {
  name: 'payment',
  service: 'payment',
  routes: paymentService,
  subscribe: ({ deps, log }) => subscribeCardPayments(deps, deps.events, deps.mailer, log),
  jobs: [qntSweepJob, cardChargesJob, invoiceCloseJob],
  sealed: [
    {
      what: `the QNT deposit seed (platform_keys ${EMBEDDED_SEED_KEY})`,
      ifLost:
        'there is no way round it: the QNT on the deposit addresses derived from it moves only with it, so find the key',
      read: sealedPlatformKey(EMBEDDED_SEED_KEY),
    },
  ],
  codes: [
    'INVOICE_NOT_PAYABLE',
    'QNT_PAYMENTS_UNAVAILABLE',
    'QNT_PAYMENT_INVALID',
    'CARD_PAYMENTS_UNAVAILABLE',
    'CARD_PROVIDER_ERROR',
    'CARD_INTENT_NOT_FOUND',
    'CARD_NOT_SAVED',
    'REFUND_TOO_LARGE',
    'ORDER_HAS_NO_CARD_PAYMENT',
    'ORDER_NOT_PAID',
    'CARD_WEBHOOK_INVALID',
  ],
};
