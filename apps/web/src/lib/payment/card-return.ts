import type { TCardConfirmRequest, TCardIntent } from '@connect/shared';

/*
 * The query a card payment comes back with, as Stripe writes it on the return_url:
 * `payment_intent`, `payment_intent_client_secret` and `redirect_status` (or `setup_intent`,
 * `setup_intent_client_secret`). The sandbox's form and authentication page write the same, so
 * the pages that receive a card payment do not know which provider sent it.
 */

export type CardIntentKind = TCardIntent['kind'];

const PARAMS = {
  PAYMENT: { id: 'payment_intent', secret: 'payment_intent_client_secret' },
  SETUP: { id: 'setup_intent', secret: 'setup_intent_client_secret' },
} as const satisfies Record<CardIntentKind, { id: string; secret: string }>;
const STATUS_PARAM = 'redirect_status';

/** The shapes of the provider's ids (the contract's ZCardConfirmRequest checks the same). */
const INTENT_IDS: Record<CardIntentKind, RegExp> = { PAYMENT: /^pi_[A-Za-z0-9]+$/, SETUP: /^seti_[A-Za-z0-9]+$/ };

/** What kind of intent an id names: seti_… is a SetupIntent, anything else a PaymentIntent. */
export function intentKindOf(intentId: string): CardIntentKind {
  return intentId.startsWith('seti_') ? 'SETUP' : 'PAYMENT';
}

export type CardReturn = {
  kind: CardIntentKind;
  intentId: string;
  /** Stripe's `redirect_status` (succeeded, processing, failed…); the server's answer decides. */
  redirectStatus: string | null;
};

/** The card payment a page was opened with, or null (none, or an id that is not one). */
export function readCardReturn(search: URLSearchParams): CardReturn | null {
  for (const kind of ['PAYMENT', 'SETUP'] as const) {
    const intentId = search.get(PARAMS[kind].id);
    if (intentId && INTENT_IDS[kind].test(intentId)) {
      return { kind, intentId, redirectStatus: search.get(STATUS_PARAM) };
    }
  }
  return null;
}

/** The body of POST /card/confirm for a returned intent. */
export function confirmRequestOf(cardReturn: Pick<CardReturn, 'kind' | 'intentId'>): TCardConfirmRequest {
  return cardReturn.kind === 'SETUP' ? { setupIntent: cardReturn.intentId } : { paymentIntent: cardReturn.intentId };
}

/** `returnUrl` with the intent and its outcome in the query, as Stripe redirects to it. */
export function cardReturnUrl(
  returnUrl: string,
  intent: { intentId: string; clientSecret: string },
  redirectStatus: string,
): string {
  const url = new URL(returnUrl, window.location.origin);
  const names = PARAMS[intentKindOf(intent.intentId)];
  url.searchParams.set(names.id, intent.intentId);
  url.searchParams.set(names.secret, intent.clientSecret);
  url.searchParams.set(STATUS_PARAM, redirectStatus);
  return url.toString();
}

/** Every parameter a card payment returns with. */
const RETURN_NAMES = [...Object.values(PARAMS).flatMap((kind) => [kind.id, kind.secret]), STATUS_PARAM];

/** `search` without the card payment's parameters (for a page that replaces its own query). */
export function withoutCardReturn(search: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of RETURN_NAMES) next.delete(name);
  return next;
}

/**
 * Takes the card payment's parameters out of the address bar once the page has handled them, so
 * a reload does not confirm the payment again. `history.replaceState`, not a router navigation:
 * the route's guard would run again, and a plan still PENDING without these parameters is sent
 * to the dashboard (spec §2), away from the failure the page is showing.
 */
export function clearCardReturn(): void {
  const url = new URL(window.location.href);
  if (!RETURN_NAMES.some((name) => url.searchParams.has(name))) return;
  for (const name of RETURN_NAMES) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * Whether a URL handed over by the provider (a return or authentication page) stays on this
 * portal: the sandbox echoes addresses it was given, and a page must never send the customer,
 * with a client secret in the query, to another site.
 */
export function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.origin).origin === window.location.origin;
  } catch {
    return false;
  }
}
