import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ProblemCode } from '@connect/shared';
import type { Access } from './access.ts';
import { tidyComponents } from './openapi-components.ts';

/**
 * OpenAPI document generated from the zod route schemas, with Swagger UI at /api/docs and the
 * JSON document at /api/docs/json. Beyond what the route schemas say, the document gets, from the
 * rules below (so no route repeats them):
 * - security: a route that declares none gets `bearerAuth` unless its access is 'public' (then
 *   `[]`: no credentials);
 * - an `operationId` (operationIdOf);
 * - its errors as `application/problem+json` against the reusable `Problem` schema, plus the
 *   refusals every route of its kind can answer (DEFAULT_ERRORS);
 * - reusable schemas: every zod schema registered with `.meta({ id })` (packages/shared) is one
 *   entry of `components.schemas`, referenced wherever a route uses it (openapi-components.ts).
 */

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of a portal user signed in through the identity pool (`/idp` or Amazon Cognito).',
  },
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'An application’s client id and client secret (RFC 6749 §2.3.1, each form-urlencoded), for `POST /oauth2/token`.',
  },
  catalogueBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'The product catalogue’s configured user name and password (`/jsons`). The SPA is given them in `/runtime-config.json`: they keep crawlers out and protect nothing.',
  },
  oauth2ClientCredentials: {
    type: 'oauth2',
    description: 'An access token from `POST /oauth2/token` (client credentials grant), for the gateway.',
    flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } },
  },
} as const;

export type SecurityRequirement = Partial<Record<keyof typeof SECURITY_SCHEMES, string[]>>;

const DESCRIPTION = [
  'Every service is mounted at /api/{service}.',
  'Errors are RFC 9457 problem details (`application/problem+json`, the `Problem` schema) with a machine-readable `code`: decide what to do from `code`, never from the wording of `title` or `detail`;',
  'validation failures list `invalidParams: [{name, reason}]`.',
  'Send the identity pool access token as `Authorization: Bearer <token>`.',
  'Applications call the platform API: `POST /oauth2/token` with their client credentials, then `POST /api/gateway/{networkId}` with the access token it answers.',
].join(' ');

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };
const PROBLEM_JSON = 'application/problem+json';

/** Routes whose refusals are not problem details: the embedded user pool answers in Cognito's wire format. */
const NOT_PROBLEM_DETAILS = ['/idp'];

type DefaultError = { codes: ProblemCode[]; text: string; headers?: Record<string, object> };

/**
 * The refusals a route can answer whatever it does, added to its responses unless it declares
 * that status itself: 400 when it reads a request schema, 401 when it asks for credentials, 403
 * when it asks for a portal user, 429 when the per-address rate limit counts it, 500 always.
 */
const DEFAULT_ERRORS = {
  400: { codes: ['INVALID_REQUEST', 'MALFORMED_REQUEST'], text: 'The request is invalid or could not be read' },
  401: {
    codes: [
      'UNAUTHORIZED',
      'TOKEN_EXPIRED',
      'TOKEN_INVALID',
      'TOKEN_WRONG_ISSUER',
      'TOKEN_WRONG_USE',
      'SESSION_SIGNED_OUT',
      'UNKNOWN_USER',
    ],
    text: 'No valid credentials',
  },
  403: { codes: ['FORBIDDEN', 'USER_REMOVED'], text: 'The caller may not use this operation' },
  429: {
    codes: ['RATE_LIMITED'],
    text: 'Too many requests from this address; wait `Retry-After` seconds',
    headers: {
      'Retry-After': { type: 'integer', minimum: 0, description: 'Seconds to wait before sending the request again.' },
    },
  },
  500: {
    codes: ['INTERNAL_ERROR'],
    text: 'The server could not complete the request; quote `requestId` to support',
  },
} satisfies Record<number, DefaultError>;

const describeError = ({ codes, text }: DefaultError) => `${text}: ${codes.map((code) => `\`${code}\``).join(', ')}.`;

/**
 * `GET /api/connect/user/:id` → `getConnectUserById`: the method, then every path segment in
 * camel case without the leading `/api`, a parameter as `By<Name>`. A route may declare its own
 * `operationId` instead. Readable, and derived from what a caller already sees, so it changes
 * only when the route's method or path does.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((segment, index) => segment && !(index === 1 && segment === 'api'))
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : [segment]))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean));
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

type JsonSchema = Record<string, unknown>;
type ContentResponse = { description?: string; content: Record<string, { schema: JsonSchema }>; headers?: object };
type Response = JsonSchema | ContentResponse;

const isProblemRef = (schema: unknown) => (schema as JsonSchema | undefined)?.$ref === PROBLEM_REF.$ref;
const isContent = (response: Response): response is ContentResponse =>
  typeof response.content === 'object' && response.content !== null;

/** `[a, Problem, b]` → `{ 'application/json': a | b, 'application/problem+json': Problem }`, by the branch's media type. */
function errorContent(schema: JsonSchema): ContentResponse['content'] {
  if (isProblemRef(schema)) return { [PROBLEM_JSON]: { schema: PROBLEM_REF } };
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!branches?.some(isProblemRef)) return { 'application/json': { schema } };
  const others = branches.filter((branch) => !isProblemRef(branch));
  return {
    'application/json': { schema: others.length === 1 ? others[0]! : { anyOf: others } },
    [PROBLEM_JSON]: { schema: PROBLEM_REF },
  };
}

/** A declared error response with its media types (problem details as `application/problem+json`) and headers. */
function errorResponse(status: string, response: Response, declared: unknown): Response {
  const headers = headersOf(declared);
  const content = isContent(response)
    ? Object.fromEntries(
        Object.entries(response.content).flatMap(([type, media]) =>
          type === 'application/json' ? Object.entries(errorContent(media.schema)) : [[type, media]],
        ),
      )
    : errorContent(response);
  const description = (response.description as string | undefined) ?? reasonOf(status);
  return { description, content, ...(headers ? { headers } : {}) };
}

/** Response headers a route declares (zod or JSON Schema, by name); fastify-type-provider-zod drops them. */
function headersOf(declared: unknown): Record<string, object> | undefined {
  const headers = (declared as { headers?: Record<string, unknown> } | undefined)?.headers;
  if (!headers || typeof headers !== 'object') return undefined;
  const jsonOf = (schema: unknown): object => {
    if (!(schema instanceof z.ZodType)) return schema as object;
    const json: JsonSchema = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
    delete json.$schema; // the document says which dialect its schemas are in
    return json;
  };
  return Object.fromEntries(Object.entries(headers).map(([name, schema]) => [name, jsonOf(schema)]));
}

/** `404` → `Not Found`; a range (`4XX`) → what a caller of problem details does with it. */
const reasonOf = (status: string) =>
  STATUS_CODES[status] ?? (/^[45]XX$/i.test(status) ? 'Refused: the problem’s `code` says why.' : 'Answered.');

/** Fastify-swagger's placeholder for a response without a description becomes the status's reason phrase. */
function describeResponses<T extends { paths?: object }>(document: T): T {
  for (const operations of Object.values(document.paths ?? {}) as Record<string, { responses?: object }>[]) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {}) as [
        string,
        { description?: string },
      ][]) {
        if (response.description === 'Default Response') response.description = reasonOf(status);
      }
    }
  }
  return document;
}

const isErrorStatus = (status: string) => /^[45]/.test(status);

/**
 * Parameters are listed one by one, so their schema must be inline: a copy of a registered schema
 * (a query schema with an id) is the same schema without the id. Its fields may still be components.
 */
function withInlineParameters(schema: FastifySchema): FastifySchema {
  // With its own definition (not as a derived schema, which zod would write as a reference to its parent).
  const inline = (part: unknown) => (part instanceof z.ZodType ? part.clone(part._zod.def) : part);
  return {
    ...schema,
    ...(schema.querystring ? { querystring: inline(schema.querystring) } : {}),
    ...(schema.params ? { params: inline(schema.params) } : {}),
    ...(schema.headers ? { headers: inline(schema.headers) } : {}),
  };
}

function transform(input: Parameters<typeof jsonSchemaTransform>[0]): { schema: FastifySchema; url: string } {
  const { schema, url } = jsonSchemaTransform({ ...input, schema: withInlineParameters(input.schema) }) as {
    schema: FastifySchema & JsonSchema;
    url: string;
  };
  if (schema.hide) return { schema, url };
  const route = input.route as RouteOptions;
  const access = route.config?.access as Access | undefined;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const declared = (input.schema.response ?? {}) as Record<string, unknown>;
  const security =
    (schema.security as SecurityRequirement[] | undefined) ?? (access === 'public' ? [] : [{ bearerAuth: [] }]);

  const responses: Record<string, Response> = {};
  for (const [status, response] of Object.entries((schema.response ?? {}) as Record<string, Response>)) {
    responses[status.toUpperCase()] = isErrorStatus(status)
      ? errorResponse(status, response, declared[status])
      : response;
  }
  if (!NOT_PROBLEM_DETAILS.some((prefix) => url === prefix || url.startsWith(`${prefix}/`))) {
    const readsInput = ['body', 'querystring', 'params', 'headers'].some((part) => part in input.schema);
    const applies: Record<keyof typeof DEFAULT_ERRORS, boolean> = {
      400: readsInput,
      401: security.length > 0,
      403: access !== undefined && access !== 'public',
      429: route.config?.rateLimit !== false,
      500: true,
    };
    for (const [status, error] of Object.entries(DEFAULT_ERRORS) as [
      `${keyof typeof DEFAULT_ERRORS}`,
      DefaultError,
    ][]) {
      if (!applies[status] || status in responses) continue;
      responses[status] = {
        description: describeError(error),
        content: { [PROBLEM_JSON]: { schema: PROBLEM_REF } },
        ...(error.headers ? { headers: error.headers } : {}),
      };
    }
  }
  return {
    schema: {
      ...schema,
      operationId: (schema.operationId as string | undefined) ?? operationIdOf(methods[0]!, route.url),
      security,
      // A route that documents no answer at all keeps fastify-swagger's placeholder (200, no body).
      ...(Object.keys(responses).length ? { response: responses } : {}),
    },
    url,
  };
}

export const openapiPlugin = fp<{ productName: string; version: string }>(
  async (app, options) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: `${options.productName} API`, version: options.version, description: DESCRIPTION },
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      transform,
      transformObject: (document) => describeResponses(tidyComponents(jsonSchemaTransformObject(document))),
    });
    // Swagger UI's own routes are registered in this scope and declared public here, in one place.
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'public' };
        route.schema = { ...route.schema, hide: true };
      });
      // No CSP of Swagger UI's own: the site's (plugins/security.ts) covers these pages too. Swagger
      // UI's default forbade the style attributes its React views set as they render, so every
      // visit logged violations; the site's CSP allows inline styles (as MUI needs) and nothing
      // else beyond its own origin. No validator badge either: it would send the document's address
      // to validator.swagger.io (and the CSP would refuse its image).
      await docs.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });
    });
  },
  { name: 'openapi' },
);
