import { MESSAGES, PROBLEMS, problemCodeOf as codeOfBody, type ProblemCode } from '@connect/shared/light';
import { ApiError } from './api-client.ts';

/*
 * What the SPA shows and does for a refusal of the API, decided from the problem's `code`
 * (packages/shared problem-codes.ts) in this one module. No other file compares a problem's
 * `detail` or message text, or decides by status where a code says what happened; identity
 * (Cognito) errors have their own module, identity-errors.ts.
 */

export type { ProblemCode };

type InvalidParam = { name: string; reason: string };

/** The code of a failed request (an ApiError) or of a problem body; null when there is none. */
export function problemCodeOf(error: unknown): ProblemCode | null {
  if (error instanceof ApiError) return error.code;
  return codeOfBody(error);
}

/** Whether the error is a refusal with one of these codes. */
export function isProblem(error: unknown, ...codes: ProblemCode[]): boolean {
  const code = problemCodeOf(error);
  return code !== null && codes.includes(code);
}

/** The catalogue's message for a code (the spec's wording where the spec gives one). */
export function messageForCode(code: ProblemCode): string {
  return PROBLEMS[code].message;
}

/**
 * The message to show for an error (spec §8): the first invalid-parameter reason, else the
 * problem's detail (or message), else the generic message. A failure that is not an answer of the
 * API (a network error, a bug) shows the generic message too.
 */
export function problemMessage(error: unknown): string {
  // ApiError's own message is spec §8's rule applied to its body (api-client.ts).
  return error instanceof ApiError ? error.message : MESSAGES.generic;
}

/** The field errors of a refusal (`invalidParams`), for forms that put them under their fields. */
export function invalidParamsOf(error: unknown): InvalidParam[] {
  const body = error instanceof ApiError ? error.body : error;
  const params = (body as { invalidParams?: unknown } | null | undefined)?.invalidParams;
  if (!Array.isArray(params)) return [];
  return params.filter(
    (param): param is InvalidParam =>
      typeof (param as Partial<InvalidParam>)?.name === 'string' &&
      typeof (param as Partial<InvalidParam>)?.reason === 'string',
  );
}

/**
 * Refusals the SPA answers by sending the user somewhere instead of showing a message (spec §5):
 * no networks configured → My networks; no token quota left → Token Flow; a mainnet without a
 * verified identity (required or still pending) → identity verification.
 */
export type ProblemRedirect = 'configureNetworks' | 'quotaReached' | 'verifyIdentity';

const REDIRECTS: Partial<Record<ProblemCode, ProblemRedirect>> = {
  NETWORKS_NOT_CONFIGURED: 'configureNetworks',
  TOKEN_QUOTA_REACHED: 'quotaReached',
  IDENTITY_VERIFICATION_REQUIRED: 'verifyIdentity',
  IDENTITY_VERIFICATION_PENDING: 'verifyIdentity',
};

/** Where a refusal sends the user, when it is one of those; null otherwise. */
export function problemRedirectOf(error: unknown): ProblemRedirect | null {
  const code = problemCodeOf(error);
  return code ? (REDIRECTS[code] ?? null) : null;
}

/**
 * The application name is taken (on creation, or by the name check and renaming): the forms put
 * the reason under the name field instead of showing it above the buttons.
 */
export const isApplicationNameTaken = (error: unknown) =>
  isProblem(error, 'APPLICATION_EXISTS', 'APPLICATION_NAME_EXISTS');

/**
 * The token asked for does not exist for this user: an unknown id (TOKEN_NOT_FOUND) or one that
 * is not an id at all (INVALID_REQUEST). Coin details says so instead of offering a retry.
 */
export const isUnknownToken = (error: unknown) => isProblem(error, 'TOKEN_NOT_FOUND', 'INVALID_REQUEST');
