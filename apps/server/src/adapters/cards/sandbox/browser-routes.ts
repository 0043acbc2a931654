import { z } from 'zod';
import { CARD_INTENT_STATUSES, ZProblem } from '@connect/shared';
import type { App } from '../../../types.ts';
import type { CardSandboxBrowser, IntentObject } from './browser.ts';

/*
 * The card sandbox's browser-facing API, mounted at /api/card-sandbox on the main app (the
 * sandbox's Stripe API listens on 127.0.0.1 only, where no browser reaches it). Public, as
 * Stripe's publishable-key calls are: the intent's client secret is the credential. The SPA's
 * card form (confirm) and its test authentication page (authenticate) call these.
 */

const ZFailure = z
  .object({ code: z.string(), declineCode: z.string().nullable(), message: z.string() })
  .meta({ id: 'CardSandboxFailure' });

export const ZCardSandboxIntent = z
  .object({
    id: z.string(),
    object: z.enum(['payment_intent', 'setup_intent']),
    status: z.enum(CARD_INTENT_STATUSES),
    amount: z.number().int().nullable().describe('In pence; null for a SetupIntent.'),
    currency: z.string().nullable(),
    lastError: ZFailure.nullable(),
    redirectUrl: z.string().nullable().describe('The test authentication page, while the status is requires_action.'),
  })
  .meta({ id: 'CardSandboxIntent' });

const clientSecret = z.string().min(1).max(200);

export const ZCardSandboxConfirmRequest = z
  .object({
    clientSecret,
    card: z.object({
      // Loosely typed on purpose: a wrong number or expiry is the provider's answer (incorrect_number,
      // expired_card), as with Stripe, not a validation error.
      number: z.string().max(30),
      expMonth: z.number().int().min(1).max(12),
      expYear: z.number().int().min(0).max(9999),
      cvc: z.string().max(10),
    }),
    returnUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .describe('Where the test authentication page sends the customer back.'),
  })
  .meta({ id: 'CardSandboxConfirmRequest' });

export const ZCardSandboxConfirmation = z
  .object({ status: z.enum(CARD_INTENT_STATUSES), lastError: ZFailure.nullable(), redirectUrl: z.string().nullable() })
  .meta({ id: 'CardSandboxConfirmation' });

export const ZCardSandboxAuthenticateRequest = z
  .object({ clientSecret, outcome: z.enum(['complete', 'fail']) })
  .meta({ id: 'CardSandboxAuthenticateRequest' });

export const ZCardSandboxAuthentication = z
  .object({
    status: z.enum(CARD_INTENT_STATUSES),
    returnUrl: z
      .string()
      .nullable()
      .describe(
        'The return URL with payment_intent (or setup_intent), its client secret and redirect_status, as Stripe redirects.',
      ),
  })
  .meta({ id: 'CardSandboxAuthentication' });

const problems = { '4xx': ZProblem, '5xx': ZProblem };
const docs = { tags: ['card-sandbox'] };

const KINDS: { object: IntentObject; path: string; prefix: string; name: string }[] = [
  { object: 'payment_intent', path: 'payment_intents', prefix: 'pi', name: 'PaymentIntent' },
  { object: 'setup_intent', path: 'setup_intents', prefix: 'seti', name: 'SetupIntent' },
];

export async function cardSandboxBrowserRoutes(app: App, browser: CardSandboxBrowser) {
  for (const kind of KINDS) {
    const params = z.object({
      id: z
        .string()
        .max(100)
        .regex(new RegExp(`^${kind.prefix}_[A-Za-z0-9]+$`), `A ${kind.name} id (${kind.prefix}_…).`),
    });

    app.get(
      `/v1/${kind.path}/:id`,
      {
        config: { access: 'public' },
        schema: {
          ...docs,
          summary: `A sandbox ${kind.name} as its card form shows it`,
          description: 'The client secret is the credential; a wrong one answers 404, as an unknown id does.',
          params,
          querystring: z.object({ client_secret: clientSecret }),
          response: { 200: ZCardSandboxIntent, ...problems },
        },
      },
      async (request) => browser.retrieve(kind.object, request.params.id, request.query.client_secret),
    );

    app.post(
      `/v1/${kind.path}/:id/confirm`,
      {
        config: { access: 'public' },
        schema: {
          ...docs,
          summary: `Confirm a sandbox ${kind.name} with a card (the sandbox's Stripe.js)`,
          description:
            'Answers the outcome of Stripe’s test card: succeeded, requires_action (go to redirectUrl, the test authentication page) or requires_payment_method with lastError (declined; confirm again with another card). 400 when the intent can no longer be confirmed.',
          params,
          body: ZCardSandboxConfirmRequest,
          response: { 200: ZCardSandboxConfirmation, ...problems },
        },
      },
      async (request) => browser.confirm(kind.object, request.params.id, request.body),
    );

    app.post(
      `/v1/${kind.path}/:id/authenticate`,
      {
        config: { access: 'public' },
        schema: {
          ...docs,
          summary: `Complete or fail the test authentication of a sandbox ${kind.name}`,
          description:
            'The two buttons of Stripe’s test authentication page. 400 when the intent does not wait for authentication.',
          params,
          body: ZCardSandboxAuthenticateRequest,
          response: { 200: ZCardSandboxAuthentication, ...problems },
        },
      },
      async (request) => browser.authenticate(kind.object, request.params.id, request.body),
    );
  }
}
