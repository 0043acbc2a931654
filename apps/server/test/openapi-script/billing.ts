import { randomUUID } from 'node:crypto';
import { stripeSignature } from '../../src/adapters/cards/sandbox/index.ts';
import { creditsOrder, type Call, type State } from './calls.ts';

/** The money calls, as the user who signs out last: orders, QNT and card payments, staff alerts, the subscription, and the sign-out. */
export function billingCalls(): Call[] {
  return [
    // ── Orders (account-plan): a plan by bank transfer, staff's receipt, a credits top-up ──────
    // Sent as the user who signs out last: a trial account of its own, so the plan it buys
    // changes nothing for the calls above.
    {
      operation: 'GET /api/account-plan/rate-plan/{id}/credit-bundles',
      send: (s) => ({ url: `/api/account-plan/rate-plan/${s.annualPlan}/credit-bundles` }),
      status: 200,
      keep: (body: { bundles: { id: string }[] }, s) => {
        s.bundle = body.bundles[0]!.id;
      },
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/account-plan/order/plan',
      send: (s) => ({
        url: '/api/account-plan/order/plan',
        headers: { authorization: s.leaving! },
        body: {
          idempotencyKey: randomUUID(),
          ratePlanId: isKnown ? s.annualPlan : randomUUID(),
          creditBundleId: s.bundle,
          paymentMethod: 'BANK_TRANSFER',
          terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
        },
      }),
      status: isKnown ? 200 : 404,
      keep: (body: { id: string; totalGbpMinor: number }, s) => {
        s.order = body.id;
        s.orderTotal = String(body.totalGbpMinor);
      },
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/account-plan/order/track',
      send: (s) => ({
        url: '/api/account-plan/order/track',
        headers: { authorization: s.leaving! },
        body: { orderId: isKnown ? s.order : randomUUID() },
      }),
      status: isKnown ? 200 : 404,
    })),
    {
      operation: 'GET /api/account-plan/management/orders',
      send: () => ({ url: '/api/account-plan/management/orders?status=AWAITING_PAYMENT', as: 'admin' }),
      status: 200,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/account-plan/management/orders/{id}/receipts',
      send: (s) => ({
        url: `/api/account-plan/management/orders/${isKnown ? s.order : randomUUID()}/receipts`,
        as: 'admin',
        body: {
          receiptId: `BANK-${randomUUID()}`,
          amountGbpMinor: Number(s.orderTotal),
          receivedAt: new Date().toISOString(),
        },
      }),
      status: isKnown ? 200 : 404,
      keep: (body: { invoiceId?: string }, s) => {
        if (body.invoiceId) s.orderInvoice = body.invoiceId;
      },
    })),
    {
      // The orders screen finds the order just paid, with its account (issue 33 §5).
      operation: 'GET /api/account-plan/management/order-list',
      send: () => ({ url: '/api/account-plan/management/order-list?status=PAID&size=100', as: 'admin' }),
      status: 200,
      keep: (body: { orderList: { id: string; accountId: string }[] }, s) => {
        s.orderAccount = body.orderList.find((order) => order.id === s.order)!.accountId;
      },
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/payment/management/accounts/{accountId}/invoices/{invoiceId}/pdf',
      send: (s) => ({
        url: `/api/payment/management/accounts/${s.orderAccount}/invoices/${isKnown ? s.orderInvoice : randomUUID()}/pdf`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),
    creditsOrder('BANK_TRANSFER', 'creditsOrder'),
    ...[200, 409].map((status): Call => ({
      operation: 'POST /api/account-plan/order/{id}/cancel',
      send: (s) => ({
        url: `/api/account-plan/order/${s.creditsOrder}/cancel`,
        headers: { authorization: s.leaving! },
      }),
      status,
    })),

    // ── QNT payments (payment): a credits order paid in QNT, the wallet's report, staff's view ──
    creditsOrder('QNT', 'qntOrder'),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/confirm-payment',
      send: (s) => ({
        url: '/api/payment/confirm-payment',
        headers: { authorization: s.leaving! },
        // A hash the chain does not know yet: recorded with the payment, for the follower to confirm.
        body: { orderId: isKnown ? s.qntOrder : randomUUID(), txHash: `0x${'ab'.repeat(32)}` },
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/payment/management/account/{id}/eth-address',
      send: (s) => ({
        url: `/api/payment/management/account/${isKnown ? s.account : randomUUID()}/eth-address`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),
    {
      operation: 'GET /api/payment/management/eth-address-stats',
      send: () => ({ url: '/api/payment/management/eth-address-stats?page=0&size=1', as: 'admin' }),
      status: 200,
    },
    // ── Staff alerts (connect): one raised, listed, acknowledged; an unknown one ──
    {
      operation: 'GET /api/connect/management/alerts',
      send: async (s, h) => {
        s.staffAlert = await h.raiseStaffAlert();
        return { url: '/api/connect/management/alerts?status=all', as: 'admin' };
      },
      status: 200,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/connect/management/alerts/{id}/acknowledge',
      send: (s) => ({
        url: `/api/connect/management/alerts/${isKnown ? s.staffAlert : randomUUID()}/acknowledge`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),

    // ── Card payments (payment, card sandbox): credits paid by card with authentication, the card kept, Pay now, a refund ──
    ...['cardOrder', 'initiateOrder'].map((name): Call => creditsOrder('FIAT', name)),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/card/order',
      send: (s) => ({
        url: '/api/payment/card/order',
        headers: { authorization: s.leaving! },
        body: { orderId: isKnown ? s.cardOrder : randomUUID() },
      }),
      status: isKnown ? 200 : 404,
      keep: (body: { intentId: string; clientSecret: string }, s) => {
        s.paymentIntent = body.intentId;
        s.paymentSecret = body.clientSecret;
      },
    })),
    ...(['payment_intents', 'setup_intents'] as const).flatMap((kind): Call[] => {
      const id = (s: State) => (kind === 'payment_intents' ? s.paymentIntent! : s.setupIntent!);
      const secret = (s: State) => (kind === 'payment_intents' ? s.paymentSecret! : s.setupSecret!);
      const before: Call[] =
        kind === 'setup_intents'
          ? [
              {
                operation: 'POST /api/payment/card/setup',
                send: (s) => ({ url: '/api/payment/card/setup', headers: { authorization: s.leaving! } }),
                status: 200,
                keep: (body: { intentId: string; clientSecret: string }, s) => {
                  s.setupIntent = body.intentId;
                  s.setupSecret = body.clientSecret;
                },
              },
            ]
          : [];
      return [
        ...before,
        ...[true, false].map((isKnown): Call => ({
          operation: `GET /api/card-sandbox/v1/${kind}/{id}`,
          send: (s) => ({
            url: `/api/card-sandbox/v1/${kind}/${id(s)}?client_secret=${isKnown ? secret(s) : 'wrong_secret'}`,
            as: 'none',
          }),
          status: isKnown ? 200 : 404,
        })),
        {
          operation: `POST /api/card-sandbox/v1/${kind}/{id}/confirm`,
          send: (s) => ({
            url: `/api/card-sandbox/v1/${kind}/${id(s)}/confirm`,
            as: 'none',
            // Stripe's test card that asks for authentication first, then is kept for later charges.
            body: {
              clientSecret: secret(s),
              card: { number: '4000002500003155', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' },
              returnUrl: 'http://localhost/account-plan/upgrade',
            },
          }),
          status: 200,
        },
        {
          operation: `POST /api/card-sandbox/v1/${kind}/{id}/authenticate`,
          send: (s) => ({
            url: `/api/card-sandbox/v1/${kind}/${id(s)}/authenticate`,
            as: 'none',
            body: { clientSecret: secret(s), outcome: 'complete' },
          }),
          status: 200,
        },
        ...[true, false].map((isKnown): Call => ({
          operation: 'POST /api/payment/card/confirm',
          send: (s) => ({
            url: '/api/payment/card/confirm',
            headers: { authorization: s.leaving! },
            body:
              kind === 'payment_intents'
                ? { paymentIntent: isKnown ? id(s) : 'pi_Unknown' }
                : { setupIntent: isKnown ? id(s) : 'seti_Unknown' },
          }),
          status: isKnown ? 200 : 404,
        })),
      ];
    }),
    {
      operation: 'GET /api/payment/card/status',
      send: (s) => ({ url: '/api/payment/card/status', headers: { authorization: s.leaving! } }),
      status: 200,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/initiate/{id}',
      send: (s) => ({
        url: `/api/payment/initiate/${isKnown ? s.initiateOrder : randomUUID()}`,
        headers: { authorization: s.leaving! },
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/management/orders/{id}/refunds',
      send: (s) => ({
        url: `/api/payment/management/orders/${isKnown ? s.cardOrder : randomUUID()}/refunds`,
        as: 'admin',
        body: { idempotencyKey: randomUUID(), amountGbpMinor: 100, reason: 'Recorded refund' },
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[true, false].map((isSigned): Call => ({
      operation: 'POST /api/payment/card/webhook',
      send: async (_s, h) => {
        const text = JSON.stringify({
          id: `evt_${randomUUID().replaceAll('-', '')}`,
          object: 'event',
          type: 'customer.updated',
          created: 0,
          livemode: false,
          data: { object: { id: 'cus_Recorded', object: 'customer' } },
        });
        return {
          url: '/api/payment/card/webhook',
          as: 'none',
          raw: { type: 'application/json', text },
          headers: { 'stripe-signature': isSigned ? stripeSignature(text, await h.cardWebhookSecret()) : 't=1,v1=00' },
        };
      },
      status: isSigned ? 200 : 400,
    })),

    {
      operation: 'POST /api/dev/billing/run',
      send: () => ({ url: '/api/dev/billing/run', as: 'none', body: { at: new Date().toISOString() } }),
      status: 200,
    },
    {
      operation: 'POST /api/dev/billing/close-period',
      send: () => ({ url: '/api/dev/billing/close-period', as: 'none', body: { at: new Date().toISOString() } }),
      status: 200,
    },

    // ── The subscription (account-plan): the annual plan just paid, changed at renewal, cancelled, resumed ──
    {
      operation: 'GET /api/account-plan/subscription',
      send: (s) => ({ url: '/api/account-plan/subscription', headers: { authorization: s.leaving! } }),
      status: 200,
    },
    {
      operation: 'POST /api/account-plan/subscription/downgrade',
      send: (s) => ({
        url: '/api/account-plan/subscription/downgrade',
        headers: { authorization: s.leaving! },
        body: { ratePlanId: s.paygPlan },
      }),
      status: 200,
    },
    {
      operation: 'POST /api/account-plan/subscription/cancel',
      send: (s) => ({ url: '/api/account-plan/subscription/cancel', headers: { authorization: s.leaving! } }),
      status: 200,
    },
    ...[200, 409].map((status): Call => ({
      operation: 'POST /api/account-plan/subscription/resume',
      send: (s) => ({ url: '/api/account-plan/subscription/resume', headers: { authorization: s.leaving! } }),
      status,
    })),

    // Last: ends the session it is sent with (a user of its own).
    {
      operation: 'POST /api/connect/sign-out',
      send: (s) => ({ url: '/api/connect/sign-out', body: {}, headers: { authorization: s.leaving! } }),
      status: 204,
    },
  ];
}
