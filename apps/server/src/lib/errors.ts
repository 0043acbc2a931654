import type { TInvalidParam } from '@connect/shared';

/**
 * An error the API answers as RFC 9457 problem details. Anything else thrown by a handler
 * becomes a 500 whose body says nothing about internals.
 */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly invalidParams?: TInvalidParam[],
  ) {
    super(detail ?? title);
    this.name = 'ProblemError';
  }
}

export const badRequest = (invalidParams: TInvalidParam[], detail = invalidParams[0]?.reason) =>
  new ProblemError(400, 'Bad Request', detail, invalidParams);
export const unauthorized = (detail = 'A valid access token is required.') =>
  new ProblemError(401, 'Unauthorized', detail);
export const forbidden = (detail = 'You do not have access to this resource.') =>
  new ProblemError(403, 'Forbidden', detail);
export const notFound = (detail = 'The resource was not found.') => new ProblemError(404, 'Not Found', detail);
export const conflict = (detail: string, invalidParams?: TInvalidParam[]) =>
  new ProblemError(409, 'Conflict', detail, invalidParams);
