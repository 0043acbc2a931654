import { timingSafeEqual } from 'node:crypto';
import type { TCardIntentStatus } from '@connect/shared';
import { notFound, problem } from '../../../lib/errors.ts';
import { StripeApiError } from './errors.ts';
import type { SandboxContext } from './intents.ts';
import type { IntentJson, LastError } from './objects.ts';
import { SandboxOperations } from './operations.ts';
import type { CardSandboxRepository } from './repository.ts';

/*
 * What the sandbox's card form and test authentication page do in the browser, standing in for
 * Stripe.js with a publishable key: the intent's client secret is the credential. Refusals are
 * the API's problem details: an unknown intent or a wrong secret is 404 (neither tells the other
 * apart), a confirmation the intent's status does not allow is 400 with Stripe's reason.
 */

export type IntentObject = IntentJson['object'];
export type BrowserFailure = { code: string; declineCode: string | null; message: string };

export type BrowserIntent = {
  id: string;
  object: IntentObject;
  status: TCardIntentStatus;
  /** Pence; null for a SetupIntent (nothing is charged). */
  amount: number | null;
  currency: string | null;
  lastError: BrowserFailure | null;
  redirectUrl: string | null;
};

export type BrowserCard = { number: string; expMonth: number; expYear: number; cvc: string };
export type BrowserConfirmation = {
  status: TCardIntentStatus;
  lastError: BrowserFailure | null;
  redirectUrl: string | null;
};
export type BrowserAuthentication = { status: TCardIntentStatus; returnUrl: string | null };

const failureOf = (error: LastError | null): BrowserFailure | null =>
  error && { code: error.code, declineCode: error.decline_code ?? null, message: error.message };

function view(intent: IntentJson): BrowserIntent {
  const payment = intent.object === 'payment_intent' ? intent : null;
  return {
    id: intent.id,
    object: intent.object,
    status: intent.status,
    amount: payment?.amount ?? null,
    currency: payment?.currency ?? null,
    lastError: failureOf(
      payment
        ? payment.last_payment_error
        : (intent as Extract<IntentJson, { object: 'setup_intent' }>).last_setup_error,
    ),
    redirectUrl: intent.next_action?.redirect_to_url.url ?? null,
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The sandbox's own refusals as problem details (they are never shown as Stripe's JSON here). */
async function asProblem<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    if (error.status === 404) throw notFound();
    throw problem('INVALID_REQUEST', { detail: error.body.message });
  }
}

export class CardSandboxBrowser {
  constructor(
    private readonly repo: CardSandboxRepository,
    private readonly context: () => SandboxContext,
  ) {}

  /** The intent when `clientSecret` is its secret; 404 otherwise, as for an unknown id. */
  private async check(
    ops: SandboxOperations,
    object: IntentObject,
    id: string,
    clientSecret: string,
    forUpdate = false,
  ) {
    const intent = await asProblem(() => ops.intent(object, id, { forUpdate }));
    if (!sameSecret(clientSecret, intent.client_secret)) throw notFound();
    return intent;
  }

  async retrieve(object: IntentObject, id: string, clientSecret: string): Promise<BrowserIntent> {
    return view(await this.check(new SandboxOperations(this.repo, this.context()), object, id, clientSecret));
  }

  /** The card form's submit: Stripe.js's confirmCardPayment / confirmCardSetup. */
  async confirm(
    object: IntentObject,
    id: string,
    input: { clientSecret: string; card: BrowserCard; returnUrl: string },
  ): Promise<BrowserConfirmation> {
    const { intent } = await this.repo.transaction(async (tx) => {
      const ops = new SandboxOperations(tx, this.context());
      await this.check(ops, object, id, input.clientSecret, true);
      return asProblem(() =>
        ops.confirm(object, id, {
          card: {
            number: input.card.number,
            expMonth: input.card.expMonth,
            expYear: input.card.expYear,
            cvc: input.card.cvc,
          },
          returnUrl: input.returnUrl,
        }),
      );
    });
    const seen = view(intent);
    return { status: seen.status, lastError: seen.lastError, redirectUrl: seen.redirectUrl };
  }

  /** The test authentication page's buttons: "Complete" or "Fail" (Stripe's 3D Secure test page). */
  async authenticate(
    object: IntentObject,
    id: string,
    input: { clientSecret: string; outcome: 'complete' | 'fail' },
  ): Promise<BrowserAuthentication> {
    const { intent, returnUrl } = await this.repo.transaction(async (tx) => {
      const ops = new SandboxOperations(tx, this.context());
      await this.check(ops, object, id, input.clientSecret, true);
      return asProblem(() => ops.authenticate(object, id, input.outcome));
    });
    return { status: intent.status, returnUrl };
  }
}
