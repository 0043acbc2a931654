import { PROBLEMS, problemTitle, type ProblemCode, type TInvalidParam } from '@connect/shared';

type ProblemOptions = {
  /** A more specific message than the code's own (which network, how many credits). */
  detail?: string;
  invalidParams?: TInvalidParam[];
  /**
   * Extension members of the problem details (RFC 9457 §3.2), beside the standard ones, for what
   * a client can act on (a spending cap's `retryAt`); they never override a standard member.
   */
  extensions?: Readonly<Record<string, unknown>> | undefined;
};

/**
 * An error the API answers as RFC 9457 problem details. Its code (packages/shared
 * problem-codes.ts) fixes the status, the title and the default message, so a refusal is thrown
 * by naming what happened: `throw problem('TOKEN_QUOTA_REACHED')`. Anything else thrown by a
 * handler becomes a 500 whose body says nothing about internals.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly invalidParams?: TInvalidParam[];
  readonly extensions?: Readonly<Record<string, unknown>>;

  constructor(
    readonly code: ProblemCode,
    options: ProblemOptions = {},
  ) {
    const detail = options.detail ?? PROBLEMS[code].message;
    super(detail);
    this.name = 'ProblemError';
    this.status = PROBLEMS[code].status;
    this.title = problemTitle(code);
    this.detail = detail;
    if (options.invalidParams) this.invalidParams = options.invalidParams;
    if (options.extensions) this.extensions = options.extensions;
  }
}

export const problem = (code: ProblemCode, options?: ProblemOptions) => new ProblemError(code, options);

/**
 * A field-level refusal: the field and the code's message as its reason (the SPA shows the first
 * reason under the field). The code says which rule refused.
 */
export const fieldProblem = (code: ProblemCode, name: string, reason: string = PROBLEMS[code].message) =>
  new ProblemError(code, { detail: reason, invalidParams: [{ name, reason }] });

/** Validation failures of several fields at once (INVALID_REQUEST, detail = the first reason). */
export const badRequest = (invalidParams: TInvalidParam[], detail = invalidParams[0]?.reason) =>
  new ProblemError('INVALID_REQUEST', { invalidParams, ...(detail ? { detail } : {}) });
export const unauthorized = (code: ProblemCode = 'UNAUTHORIZED') => new ProblemError(code);
export const forbidden = (code: ProblemCode = 'FORBIDDEN') => new ProblemError(code);
export const notFound = (code: ProblemCode = 'NOT_FOUND', detail?: string) =>
  new ProblemError(code, detail ? { detail } : {});
