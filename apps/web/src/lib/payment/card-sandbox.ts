import { z } from 'zod';
import { CARD_INTENT_STATUSES, LIMITS } from '@connect/shared';
import { ApiError } from '../api-client.ts';
import { intentKindOf } from './card-return.ts';

/*
 * The embedded card sandbox as the browser talks to it (provider mode 'sandbox'), standing in for
 * Stripe.js: read an intent, confirm it with a card, complete or fail its authentication. Under
 * /api/card-sandbox, without the session's token: the intent's client secret is the credential,
 * as it is with Stripe.
 */

const BASE = '/api/card-sandbox/v1';

const ZSandboxError = z.object({ code: z.string(), declineCode: z.string().nullish(), message: z.string() });
const ZStatus = z.enum(CARD_INTENT_STATUSES);

const ZSandboxIntent = z.object({
  id: z.string(),
  /** Pence; a SetupIntent has none. */
  amount: z.number().int().nullish(),
  currency: z.string().nullish(),
  status: ZStatus,
  lastError: ZSandboxError.nullish(),
});
export type SandboxIntent = z.infer<typeof ZSandboxIntent>;

const ZSandboxConfirmation = z.object({
  status: ZStatus,
  lastError: ZSandboxError.nullish(),
  /** The authentication page, when the status is requires_action. */
  redirectUrl: z.string().nullish(),
});
export type SandboxConfirmation = z.infer<typeof ZSandboxConfirmation>;

const ZSandboxAuthentication = z.object({ status: ZStatus, returnUrl: z.string().nullish() });
export type SandboxAuthentication = z.infer<typeof ZSandboxAuthentication>;

export type SandboxCard = { number: string; expMonth: number; expYear: number; cvc: string };

const pathOf = (intentId: string) =>
  `${BASE}/${intentKindOf(intentId) === 'SETUP' ? 'setup_intents' : 'payment_intents'}/${encodeURIComponent(intentId)}`;

async function request<T>(path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(LIMITS.requestTimeoutMs),
    });
  } catch {
    throw new ApiError(0, {});
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = { detail: text };
  }
  // The same errors as the API's (problem details): pages show them with problemMessage.
  if (!response.ok) throw new ApiError(response.status, parsed);
  return schema.parse(parsed);
}

/** GET …/{payment_intents|setup_intents}/:id: the intent as the sandbox holds it. */
export function getSandboxIntent(intentId: string, clientSecret: string): Promise<SandboxIntent> {
  return request(`${pathOf(intentId)}?client_secret=${encodeURIComponent(clientSecret)}`, ZSandboxIntent);
}

/** POST …/:id/confirm: the card typed into the sandbox's form, like stripe.confirmPayment. */
export function confirmSandboxIntent(
  intent: { intentId: string; clientSecret: string },
  card: SandboxCard,
  returnUrl: string,
): Promise<SandboxConfirmation> {
  return request(`${pathOf(intent.intentId)}/confirm`, ZSandboxConfirmation, {
    clientSecret: intent.clientSecret,
    card,
    returnUrl,
  });
}

/** POST …/:id/authenticate: the answer of the sandbox's authentication page (Stripe's test 3DS page). */
export function authenticateSandboxIntent(
  intentId: string,
  clientSecret: string,
  outcome: 'complete' | 'fail',
): Promise<SandboxAuthentication> {
  return request(`${pathOf(intentId)}/authenticate`, ZSandboxAuthentication, { clientSecret, outcome });
}
