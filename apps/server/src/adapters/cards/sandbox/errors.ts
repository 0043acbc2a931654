/**
 * An answer in Stripe's error shape (`{ error: { type, code, message, … } }`) with its HTTP
 * status, so the stripe SDK raises the same error class it raises against Stripe: 400/404
 * StripeInvalidRequestError, 401 StripeAuthenticationError, 402 StripeCardError.
 */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string } & Record<string, unknown>,
  ) {
    super(body.message);
    this.name = 'StripeApiError';
  }
}

const docUrl = (code: string) => `https://docs.stripe.com/error-codes/${code.replaceAll('_', '-')}`;

export const invalidRequest = (message: string, options: { code?: string; param?: string; status?: number } = {}) =>
  new StripeApiError(options.status ?? 400, {
    type: 'invalid_request_error',
    message,
    ...(options.code ? { code: options.code, doc_url: docUrl(options.code) } : {}),
    ...(options.param ? { param: options.param } : {}),
  });

/**
 * Stripe's answer for an id it does not hold: 404 for the id in the path, 400 for one given as a
 * parameter (`param`), as Stripe answers them.
 */
export const resourceMissing = (kind: string, id: string, param?: string) =>
  invalidRequest(`No such ${kind}: '${id}'`, {
    code: 'resource_missing',
    param: param ?? 'id',
    status: param ? 400 : 404,
  });

export const parameterMissing = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });

/** The intent cannot do this in its status (confirm a succeeded intent, authenticate one that needs none). */
export const unexpectedState = (object: 'payment_intent' | 'setup_intent', message: string) =>
  invalidRequest(message, { code: `${object}_unexpected_state` });

export const invalidApiKey = () =>
  new StripeApiError(401, {
    type: 'invalid_request_error',
    code: 'api_key_invalid',
    message: 'Invalid API Key provided. This is the card sandbox: use the secret key the server was configured with.',
  });
