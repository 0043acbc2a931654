import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCESS_TOKEN_SECONDS, ZProblem, ZTokenResponse } from '@connect/shared';
import { MAX_BATCH, MAX_LOG_BLOCKS } from './methods.ts';

/**
 * What the OpenAPI document says about the two calls applications make (issue 12 §2). The
 * request bodies are declared for the document only: both handlers read their bodies themselves
 * (the token endpoint answers RFC 6749 errors, not a schema's 400; the gateway forwards the bytes
 * as they came), so `bodyDocumentedOnly` validates every other part of the request and not the body.
 */
export const bodyDocumentedOnly: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body'
    ? (data) => ({ value: data })
    : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

/** A route's security requirements (the scheme names are plugins/openapi.ts's); `{}` is "no credentials". */
type Security = Record<string, string[]>[];

// ── POST /oauth2/token ──────────────────────────────────────────────────────────────────────────

const ZTokenRequest = z
  .object({
    grant_type: z.literal('client_credentials'),
    client_id: z.string().max(100).optional().describe('With `client_secret`, instead of HTTP Basic.'),
    client_secret: z.string().max(200).optional().describe('With `client_id`, instead of HTTP Basic.'),
  })
  .meta({ id: 'TokenRequest' });

/** RFC 6749 §5.2 error answer (OAuth2 clients expect this shape, not problem details). */
export const ZOAuthError = z
  .object({
    error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type']),
    error_description: z.string(),
  })
  .meta({ id: 'OAuthError' });
export type OAuthError = z.infer<typeof ZOAuthError>['error'];

/** A response header, as JSON Schema (the OpenAPI plugin carries it to the document). */
type Header = { type: 'string' | 'integer'; minimum?: number; description: string };

const BASIC_CHALLENGE: Header = { type: 'string', description: '`Basic realm="platform-api", charset="UTF-8"`' };
const RETRY_AFTER: Header = {
  type: 'integer',
  minimum: 1,
  description:
    'Seconds until the refused calls are back in the allowance (they then pass), or (spending cap) until the next UTC month.',
};
const BEARER_CHALLENGE: Header = {
  type: 'string',
  description: '`Bearer realm="platform-api"`, with `error="invalid_token"` for a bad token.',
};

const problemJson = (description: string, headers?: Record<string, Header>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: ZProblem } },
});

export const TOKEN_SCHEMA = {
  tags: ['platform-api'],
  summary: 'Exchange an application’s client credentials for an access token',
  description: `OAuth2 client credentials grant (RFC 6749 §4.4). Authenticate with HTTP Basic (client id and secret) or with \`client_id\` and \`client_secret\` in the body, and send \`grant_type=client_credentials\` form-encoded or as JSON. The access token is valid ${ACCESS_TOKEN_SECONDS} seconds and only while its client secret is neither revoked nor expired and the application’s account is active (when staff remove the account’s last active user, its applications get no token and their tokens are refused until a user is restored). Errors follow RFC 6749 §5.2 (\`invalid_client\` answers 401 with WWW-Authenticate).`,
  // Basic, or the credentials in the body (then no security scheme applies).
  security: [{ clientBasic: [] }, {}] as Security,
  consumes: ['application/x-www-form-urlencoded', 'application/json'],
  body: ZTokenRequest,
  response: {
    200: ZTokenResponse,
    // Credential errors in RFC 6749's shape; a body that cannot be read (malformed JSON, another
    // media type, too large) fails before the handler, as problem details like every other route.
    400: z
      .union([ZOAuthError, ZProblem])
      .describe('`invalid_request` or `unsupported_grant_type`, or a body that could not be read (problem details)'),
    401: {
      description: '`invalid_client`: no credentials, or a client id or secret that is wrong, revoked or expired',
      headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
      content: { 'application/json': { schema: ZOAuthError } },
    },
    '4xx': ZProblem,
  },
};

// ── POST /api/gateway/{networkId} ───────────────────────────────────────────────────────────────

const ZJsonRpcId = z.union([z.string(), z.number(), z.null()]);

const ZJsonRpcRequest = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: ZJsonRpcId.optional().describe('Absent for a notification, which gets no answer.'),
    method: z.string().describe('`eth_blockNumber`, `eth_call` … (the allow-list is in the description).'),
    params: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  })
  .meta({ id: 'JsonRpcRequest' });

const ZJsonRpcResponse = z
  .union([
    z.object({ jsonrpc: z.literal('2.0'), id: ZJsonRpcId, result: z.unknown() }),
    z.object({
      jsonrpc: z.literal('2.0'),
      id: ZJsonRpcId,
      error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
    }),
  ])
  .meta({ id: 'JsonRpcResponse' });

// The network's answers pass through as they are (any status); these are the usual ones and the
// gateway's own. Typed loosely: the handler sends the network's bytes, which no schema types.
const GATEWAY_RESPONSES: Record<string, unknown> = {
  200: {
    description:
      'The network’s answer: one JSON-RPC response, or an array for a batch (header `x-gateway-cache: hit` when shared)',
    content: { 'application/json': { schema: z.union([ZJsonRpcResponse, z.array(ZJsonRpcResponse)]) } },
  },
  204: z.null().describe('Only notifications, all refused by the gateway: nothing to answer'),
  400: problemJson(
    'Not a JSON-RPC 2.0 request or batch (`GATEWAY_INVALID_RPC`), or a batch too long (`GATEWAY_BATCH_TOO_LARGE`)',
  ),
  401: problemJson(
    'No access token (`GATEWAY_TOKEN_REQUIRED`), an invalid or expired one (`GATEWAY_TOKEN_INVALID`), or one whose client secret was revoked or has expired or whose account is no longer active (`GATEWAY_SECRET_REVOKED`)',
    { 'WWW-Authenticate': BEARER_CHALLENGE },
  ),
  403: problemJson(
    'The network is not associated with the application (`GATEWAY_NETWORK_NOT_ASSOCIATED`) or not active for its account (`GATEWAY_NETWORK_INACTIVE`)',
  ),
  404: problemJson('There is no such network (`GATEWAY_NETWORK_UNKNOWN`)'),
  429: {
    description:
      'The account’s calls per second on this network are used up (`GATEWAY_RATE_LIMITED`), or the application reached its monthly spending cap (`GATEWAY_SPENDING_CAP_REACHED`, until the cap is raised or the UTC month turns), answered as JSON-RPC errors so that clients show the reason: code -32005, the reason as `message`, and `data` with `code`, `allowedRps`, `backoffSeconds` (and `retryAt` for the cap); one error per call with an id for a batch',
    headers: { 'Retry-After': RETRY_AFTER },
    content: { 'application/json': { schema: z.union([ZJsonRpcResponse, z.array(ZJsonRpcResponse)]) } },
  },
  502: problemJson(
    'The network’s RPC endpoint did not answer usably (`UPSTREAM_TIMEOUT`, `UPSTREAM_TOO_LARGE`, `UPSTREAM_UNREACHABLE`, `UPSTREAM_NO_BLOCK_NUMBER`)',
  ),
  503: problemJson('The network has no RPC endpoint configured (`GATEWAY_NO_RPC_ENDPOINT`)'),
  '4xx': problemJson('Another refusal: a body over 1 MB (`PAYLOAD_TOO_LARGE`) or not JSON (`UNSUPPORTED_MEDIA_TYPE`)'),
};

export const GATEWAY_SCHEMA = {
  tags: ['platform-api'],
  summary: 'Send JSON-RPC to a network',
  description: `Forwards a JSON-RPC 2.0 request (or a batch of up to ${MAX_BATCH}) to the network’s RPC endpoint and answers what it answered. Only the standard read methods (\`eth_\`, \`net_\`, \`web3_\`), \`eth_call\`, \`eth_estimateGas\`, \`eth_createAccessList\`, \`eth_sendRawTransaction\`, \`eth_getLogs\` and the log and block filters are forwarded; any other method (\`eth_sendTransaction\`, \`eth_sign*\`, \`personal_*\`, \`debug_*\`, \`anvil_*\` …) is answered with JSON-RPC error -32601, also inside a batch, whose other calls are answered as usual. \`eth_getLogs\` and \`eth_newFilter\` may span at most ${MAX_LOG_BLOCKS} blocks (-32005 otherwise). A single \`eth_chainId\` or \`net_version\` call may be answered from the gateway’s copy (kept 60 s) and \`eth_blockNumber\` from one at most 250 ms old, marked \`x-gateway-cache: hit\`. Needs a Bearer token from POST /oauth2/token. The network (id or code) must be associated with the application and active for its account (403 otherwise, 404 when unknown). Each account may send its plan’s \`rateLimit\` calls per second on each network, shared by its applications, from a bucket that holds at least a batch of ${MAX_BATCH} calls; a single \`eth_chainId\` or \`net_version\` answered from the gateway’s copy takes nothing from it (429 with a Retry-After after which the calls pass). Calls are counted per application, network, method and hour, and priced by method class; an application at its monthly spending cap is refused (429 \`GATEWAY_SPENDING_CAP_REACHED\`) until the cap is raised or the UTC month turns.`,
  security: [{ oauth2ClientCredentials: [] }] as Security,
  params: z.object({ networkId: z.string().min(1).max(100).describe('The network’s id or code.') }),
  body: z.union([ZJsonRpcRequest, z.array(ZJsonRpcRequest).min(1).max(MAX_BATCH)]),
  response: GATEWAY_RESPONSES,
};
