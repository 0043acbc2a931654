import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { PROBLEMS, problemTitle, type ProblemCode, type TInvalidParam, type TProblem } from '@connect/shared';
import { ProblemError } from '../lib/errors.ts';

/**
 * The code of a refusal that Fastify or a plugin made itself (bad JSON, body too large, rate
 * limit …), from its status. A status the catalogue has no code for is answered with the code's
 * status (a 4xx as 400, a 5xx as 500), so status and code never disagree.
 */
const FRAMEWORK_CODES: Record<number, ProblemCode> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};
function frameworkCode(error: FastifyError): ProblemCode {
  const status = error.statusCode ?? 500;
  return FRAMEWORK_CODES[status] ?? (status >= 400 && status < 500 ? 'MALFORMED_REQUEST' : 'INTERNAL_ERROR');
}

/** Sends problem details; `extensions` are members of the refusal's own (RFC 9457 §3.2), never overriding a standard one. */
export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  problem: Omit<TProblem, 'type'>,
  extensions?: Readonly<Record<string, unknown>>,
) {
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send({
      ...extensions,
      type: 'about:blank',
      ...problem,
      instance: request.url.split('?')[0],
      requestId: request.id,
    });
}

/** What the router's own refusals say: the path is already the problem's `instance`. */
const ROUTER_DETAILS: Record<string, string> = {
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is longer than the server accepts.',
  FST_ERR_BAD_URL: 'A path parameter is not valid percent-encoding.',
};

/**
 * Fastify's `frameworkErrors` option: the refusals its router makes before a request reaches any
 * route, hook or error handler (a path parameter over `maxParamLength`, 414; one that is not valid
 * percent-encoding, 400), which Fastify otherwise answers in its own plain JSON. It must be given
 * to Fastify() itself, so app.ts passes it; the answer is the same problem details as elsewhere.
 */
export function routerProblem(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const code = frameworkCode(error);
  const { status } = PROBLEMS[code];
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  // Hooks never ran for this request, so the id header they add is set here.
  reply.header('x-request-id', request.id);
  return sendProblem(reply, request, {
    status,
    code,
    title: problemTitle(code),
    detail: (error.code && ROUTER_DETAILS[error.code]) ?? 'The server could not route the request.',
  });
}

/** `/firstName` or `firstName` from a validation issue's path; the request part when there is none. */
function paramName(instancePath: string, context: string | undefined): string {
  const name = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return name || context || 'body';
}

function invalidParamsOf(error: FastifyError): TInvalidParam[] | undefined {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.map((issue) => ({
      name: paramName(issue.instancePath, error.validationContext),
      reason: issue.message ?? 'Invalid value.',
    }));
  }
  if (error.validation) {
    return error.validation.map((issue) => ({
      name: paramName(issue.instancePath, error.validationContext),
      reason: issue.message ?? 'Invalid value.',
    }));
  }
  return undefined;
}

/**
 * RFC 9457 problem details for every API error. Validation failures list each field in
 * `invalidParams`; 5xx bodies carry the request id and nothing about internals.
 */
export const problemPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof ProblemError) {
        return sendProblem(
          reply,
          request,
          {
            status: error.status,
            code: error.code,
            title: error.title,
            detail: error.detail,
            ...(error.invalidParams ? { invalidParams: error.invalidParams } : {}),
          },
          error.extensions,
        );
      }
      const invalidParams = invalidParamsOf(error);
      if (invalidParams) {
        return sendProblem(reply, request, {
          status: 400,
          code: 'INVALID_REQUEST',
          title: 'Bad Request',
          detail: invalidParams[0]?.reason ?? PROBLEMS.INVALID_REQUEST.message,
          invalidParams,
        });
      }
      const code = frameworkCode(error);
      const { status } = PROBLEMS[code];
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      return sendProblem(reply, request, {
        status,
        code,
        title: problemTitle(code),
        // A 5xx says nothing about internals; Fastify's own 4xx messages say what was wrong.
        detail: status >= 500 ? PROBLEMS[code].message : error.message,
      });
    });

    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, request, {
        status: 404,
        code: 'ROUTE_NOT_FOUND',
        title: 'Not Found',
        detail: `No route ${request.method} ${request.url.split('?')[0]}.`,
      }),
    );
  },
  { name: 'problem' },
);
