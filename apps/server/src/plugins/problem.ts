import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { TInvalidParam, TProblem } from '@connect/shared';
import { ProblemError } from '../lib/errors.ts';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: Omit<TProblem, 'type'>) {
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send({ type: 'about:blank', ...problem, instance: request.url.split('?')[0], requestId: request.id });
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
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  // Hooks never ran for this request, so the id header they add is set here.
  reply.header('x-request-id', request.id);
  return sendProblem(reply, request, {
    status,
    title: TITLES[status] ?? 'Bad Request',
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
        return sendProblem(reply, request, {
          status: error.status,
          title: error.title,
          ...(error.detail ? { detail: error.detail } : {}),
          ...(error.invalidParams ? { invalidParams: error.invalidParams } : {}),
        });
      }
      const invalidParams = invalidParamsOf(error);
      if (invalidParams) {
        return sendProblem(reply, request, {
          status: 400,
          title: 'Bad Request',
          detail: invalidParams[0]?.reason ?? 'The request is invalid.',
          invalidParams,
        });
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return sendProblem(reply, request, {
          status,
          title: TITLES[status] ?? 'Internal Server Error',
          detail: 'The server could not complete the request. Quote the request id when contacting support.',
        });
      }
      // Fastify's own 4xx (malformed JSON, wrong content type, body too large, rate limit).
      return sendProblem(reply, request, {
        status,
        title: TITLES[status] ?? 'Bad Request',
        detail: error.message,
      });
    });

    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, request, {
        status: 404,
        title: 'Not Found',
        detail: `No route ${request.method} ${request.url.split('?')[0]}.`,
      }),
    );
  },
  { name: 'problem' },
);
