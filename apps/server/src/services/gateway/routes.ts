import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ACCESS_TOKEN_SECONDS, ZProblem, ZTokenResponse } from '@connect/shared';
import { ProblemError } from '../../lib/errors.ts';
import type { App, Deps } from '../../types.ts';
import { applicationChanges } from '../../lib/application-changes.ts';
import { hashSecret } from '../../lib/secret-hash.ts';
import { SharedAnswers } from './cache.ts';
import { gatewayFastPath, replayBody, type OpenRoute } from './fast-path.ts';
import { RpcForwarder, UpstreamError, type Upstream } from './forward.ts';
import { countCalls, MAX_BATCH, MAX_LOG_BLOCKS, NEEDS_HEAD, screenCalls, type Screening } from './methods.ts';
import { GatewayRoutes, NetworkRateLimiter, SecretValidity, USAGE_FLUSH_MS, UsageRecorder } from './state.ts';
import { loadTokenKey, PlatformTokens, type PlatformClaims } from './tokens.ts';

type OAuthError = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type';

/** RFC 6749 §5.2 error answer (not problem details: OAuth2 clients expect this shape). */
function oauthError(reply: FastifyReply, status: number, error: OAuthError, description: string) {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="platform-api", charset="UTF-8"');
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error, error_description: description });
}

/** RFC 6749 §2.3.1: HTTP Basic with the form-urlencoded client id and secret. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | 'malformed' | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return /^Basic\b/i.test(header) ? 'malformed' : null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const plus = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
    const credentials = { id: plus(decoded.slice(0, colon)), secret: plus(decoded.slice(colon + 1)) };
    // The input guard walks parsed bodies, not headers: a NUL decoded here would reach the
    // database (PostgreSQL text cannot hold it) and answer 500.
    if (credentials.id.includes('\u0000') || credentials.secret.includes('\u0000')) return 'malformed';
    return credentials;
  } catch {
    return 'malformed';
  }
}

function field(body: unknown, name: string): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The chain head call that bounds a log query ending at 'latest' (see chainHead). */
const HEAD_CALL = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
const HEAD_BODY = Buffer.from(JSON.stringify(HEAD_CALL));

const invalidToken = (detail: string) => new ProblemError(401, 'Unauthorized', detail);

/**
 * The platform API that registered applications call (issue 4 §5), served beside the
 * application-manager service: `POST /oauth2/token` (OAuth2 client credentials, RFC 6749 §4.4)
 * and `POST /api/gateway/{networkId}` (JSON-RPC forwarded to the network's RPC endpoint).
 */
export async function platformApiRoutes(app: App, deps: Deps) {
  const tokens = new PlatformTokens(await loadTokenKey(deps.db, deps.box), `${deps.config.publicUrl}/oauth2`);
  const secrets = new SecretValidity(deps.dbh);
  const routes = new GatewayRoutes(deps.dbh);
  const forwarder = new RpcForwarder();
  const shared = deps.config.gatewayCache ? new SharedAnswers() : undefined;
  const usage = new UsageRecorder(deps.dbh, (error) => app.log.warn({ err: error }, 'gateway usage not recorded'));
  let redis: Redis | undefined;
  if (deps.config.redisUrl) {
    const { Redis: RedisClient } = await import('ioredis');
    redis = new RedisClient(deps.config.redisUrl, {
      connectTimeout: 500,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
  }
  const limiter = new NetworkRateLimiter(redis);

  const stopListening = applicationChanges(deps).on((applicationId) => {
    secrets.forgetApplication(applicationId);
    routes.forgetApplication(applicationId);
  });
  const timer = setInterval(() => void usage.flush(), USAGE_FLUSH_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    stopListening();
    await usage.flush();
    forwarder.close();
    redis?.disconnect();
  });

  await app.register(async (plain) => {
    const scope = plain as App;
    // OAuth2 clients send the token request form-encoded (RFC 6749 §4.4.2); JSON is accepted too.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    scope.post(
      '/oauth2/token',
      {
        config: { access: 'public' },
        schema: {
          tags: ['platform-api'],
          summary: 'Exchange an application’s client credentials for an access token',
          description: `OAuth2 client credentials grant (RFC 6749 §4.4). Authenticate with HTTP Basic (client id and secret) or with \`client_id\` and \`client_secret\` in the body, and send \`grant_type=client_credentials\` form-encoded or as JSON. The access token is valid ${ACCESS_TOKEN_SECONDS} seconds and only while its client secret is neither revoked nor expired. Errors follow RFC 6749 §5.2 (\`invalid_client\` answers 401 with WWW-Authenticate).`,
          response: {
            200: ZTokenResponse,
            // Credential errors in RFC 6749's shape; a body that cannot be read (malformed JSON, another
            // media type, too large) fails before the handler, as problem details like every other route.
            '4xx': z.union([z.object({ error: z.string(), error_description: z.string().optional() }), ZProblem]),
          },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const basic = basicCredentials(request.headers.authorization);
        if (basic === 'malformed') {
          return oauthError(reply, 401, 'invalid_client', 'The Basic authorization header is malformed.');
        }
        if (basic && field(body, 'client_secret')) {
          return oauthError(reply, 400, 'invalid_request', 'Use one client authentication method, not two.');
        }
        const grantType = field(body, 'grant_type');
        if (!grantType) return oauthError(reply, 400, 'invalid_request', 'grant_type is required.');
        if (grantType !== 'client_credentials') {
          return oauthError(reply, 400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
        }
        const clientId = basic?.id ?? field(body, 'client_id');
        const clientSecret = basic?.secret ?? field(body, 'client_secret');
        if (!clientId || !clientSecret) {
          return oauthError(reply, 401, 'invalid_client', 'Client authentication is required.');
        }
        if (clientId.length > 100 || clientSecret.length > 200) {
          return oauthError(reply, 401, 'invalid_client', 'The client id or secret is wrong.');
        }
        const hash = hashSecret(clientSecret);
        const { rows } = await deps.dbh.query(
          `select s.id as "secretId", s.secret_hash as "hash", a.id as "applicationId", a.account_id as "accountId"
           from applications a join application_secrets s on s.application_id = a.id
           where a.client_id = $1 and s.secret_hash = $2 and s.revoked_at is null
             and (s.expires_at is null or s.expires_at > now())`,
          [clientId, hash],
          { name: 'oauth_client_secret' },
        );
        const row = rows[0] as { secretId: string; hash: string; applicationId: string; accountId: string } | undefined;
        // The index found the row by hash; compare again in constant time all the same.
        if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) {
          return oauthError(reply, 401, 'invalid_client', 'The client id or secret is wrong, revoked or expired.');
        }
        const claims: PlatformClaims = {
          applicationId: row.applicationId,
          accountId: row.accountId,
          secretId: row.secretId,
          clientId,
        };
        return reply
          .header('cache-control', 'no-store')
          .header('pragma', 'no-cache')
          .send({
            access_token: await tokens.sign(claims),
            token_type: 'Bearer' as const,
            expires_in: ACCESS_TOKEN_SECONDS,
          });
      },
    );
  });

  await app.register(async (plain) => {
    const scope = plain as App;
    // The body is forwarded as it came; it is parsed here only to check it and count its calls.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_r, body, done) =>
      done(null, body),
    );

    /** The caller's claims when this node already knows the token and its secret are good (no await). */
    function knownClaims(header: string | undefined): PlatformClaims | undefined {
      if (!header?.startsWith('Bearer ')) return undefined;
      const claims = tokens.known(header.slice(7));
      return claims && secrets.known(claims.secretId, claims.applicationId) === true ? claims : undefined;
    }

    /**
     * The shared answer to a request's body: a single JSON-RPC call the gateway forwards (the
     * allow-list's decision, so the fast path serves only what the route would forward) whose
     * answer is shared and fresh.
     */
    function sharedAnswer(route: OpenRoute, parsed: unknown): Buffer | null {
      const call =
        shared && countCalls(parsed) === 1 && screenCalls(parsed) === null
          ? shared.sharedCall(route.networkId, route.rpcUrl, parsed)
          : null;
      return call ? shared!.answer(call) : null;
    }

    /** The network's answer to a body, or the 502 problem when it gives none. */
    async function forward(route: OpenRoute, body: Buffer): Promise<Upstream> {
      try {
        return await forwarder.post(route.rpcUrl, body);
      } catch (error) {
        const kind = error instanceof UpstreamError ? error.kind : 'UNREACHABLE';
        const detail =
          kind === 'TIMEOUT'
            ? 'The network’s RPC endpoint did not answer in time.'
            : kind === 'TOO_LARGE'
              ? 'The network’s answer is too large to pass through the gateway; ask for less at once.'
              : 'The network’s RPC endpoint could not be reached.';
        throw new ProblemError(502, 'Bad Gateway', detail);
      }
    }

    /** The chain's current block number, to bound a log query that ends at 'latest': shared when fresh. */
    async function chainHead(route: OpenRoute): Promise<bigint> {
      const call = shared?.sharedCall(route.networkId, route.rpcUrl, HEAD_CALL) ?? null;
      let answer = call && shared!.answer(call);
      if (!answer) {
        const upstream = await forward(route, HEAD_BODY);
        if (call) shared!.remember(call, upstream);
        answer = upstream.body;
      }
      try {
        const { result } = JSON.parse(answer.toString('utf8')) as { result?: unknown };
        if (typeof result === 'string' && /^0x[0-9a-f]{1,16}$/i.test(result)) return BigInt(result);
      } catch {
        // Not JSON: the node's answer is no block number either.
      }
      throw new ProblemError(502, 'Bad Gateway', 'The network’s RPC endpoint did not tell its latest block.');
    }

    /**
     * Answers a request with refused calls: the gateway's errors for those, the network's answers
     * to the others (forwarded as one batch). A batch's answers may come in any order (JSON-RPC
     * 2.0 §6): the network's first, then the refusals. Nothing to answer (only refused
     * notifications) is a 204, as the nodes answer notifications.
     */
    async function answerScreened(
      reply: FastifyReply,
      claims: PlatformClaims,
      route: OpenRoute,
      screening: Screening,
      isBatch: boolean,
    ) {
      let answers: unknown[] = screening.refusals;
      if (screening.forward.length > 0) {
        const upstream = await forward(route, Buffer.from(JSON.stringify(screening.forward)));
        usage.record(claims.applicationId, route.networkId, screening.forward.length);
        let forwarded: unknown;
        try {
          // 204: the forwarded calls were all notifications.
          if (upstream.status === 204) forwarded = [];
          else if (upstream.status === 200) forwarded = JSON.parse(upstream.body.toString('utf8'));
        } catch {
          forwarded = undefined;
        }
        // The node refused the batch as a whole (or answered nothing readable): its answer stands.
        if (!Array.isArray(forwarded)) {
          return reply.code(upstream.status).type(upstream.contentType).send(upstream.body);
        }
        answers = [...forwarded, ...screening.refusals];
      }
      if (answers.length === 0) return reply.code(204).send();
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(isBatch ? answers : answers[0]));
    }

    // Shared answers from memory, before Fastify's pipeline (fast-path.ts): only with the cache on
    // and the rate limit counted in this node (a Redis count would make it wait).
    if (shared && !redis) {
      deps.rawHandlers.push(
        gatewayFastPath({
          application: (authorization) => knownClaims(authorization)?.applicationId,
          route: (applicationId, network) => {
            const route = routes.known(applicationId, network);
            return route?.kind === 'ok' ? route : undefined;
          },
          answer: (route, body) => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(body.toString('utf8'));
            } catch {
              return null;
            }
            return sharedAnswer(route, parsed);
          },
          take: (route) => {
            const decision = limiter.take(`${route.accountId}|${route.networkId}`, route.rateLimit, 1);
            return !(decision instanceof Promise) && decision.allowed;
          },
          record: (applicationId, route) => usage.record(applicationId, route.networkId, 1),
        }),
      );
    }

    async function authorise(request: FastifyRequest, reply: FastifyReply): Promise<PlatformClaims> {
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match) {
        reply.header('www-authenticate', 'Bearer realm="platform-api"');
        throw invalidToken('An access token from POST /oauth2/token is required.');
      }
      const claims = await tokens.verify(match[1]!);
      if (!claims || !(await secrets.isValid(claims.secretId, claims.applicationId))) {
        reply.header('www-authenticate', 'Bearer realm="platform-api", error="invalid_token"');
        throw invalidToken(
          claims
            ? 'The client secret this token was issued for has been revoked or has expired.'
            : 'The access token is invalid or has expired.',
        );
      }
      return claims;
    }

    scope.post(
      '/api/gateway/:networkId',
      {
        // Limited per account and network below, not by the portal's per-address limit.
        config: { access: 'public', rateLimit: false },
        // Machine-to-machine JSON: the browser security headers (CSP and friends) protect nothing here.
        helmet: false,
        // A body the fast path already read comes from there.
        preParsing: (request, _reply, payload, done) => done(null, replayBody(request.raw, payload)),
        schema: {
          tags: ['platform-api'],
          summary: 'Send JSON-RPC to a network',
          description: `Forwards a JSON-RPC 2.0 request (or a batch of up to ${MAX_BATCH}) to the network’s RPC endpoint and answers what it answered. Only the standard read methods (\`eth_\`, \`net_\`, \`web3_\`), \`eth_call\`, \`eth_estimateGas\`, \`eth_createAccessList\`, \`eth_sendRawTransaction\`, \`eth_getLogs\` and the log and block filters are forwarded; any other method (\`eth_sendTransaction\`, \`eth_sign*\`, \`personal_*\`, \`debug_*\`, \`anvil_*\` …) is answered with JSON-RPC error -32601, also inside a batch, whose other calls are answered as usual. \`eth_getLogs\` and \`eth_newFilter\` may span at most ${MAX_LOG_BLOCKS} blocks (-32005 otherwise). A single \`eth_chainId\` or \`net_version\` call may be answered from the gateway’s copy (kept 60 s) and \`eth_blockNumber\` from one at most 250 ms old, marked \`x-gateway-cache: hit\`. Needs a Bearer token from POST /oauth2/token. The network (id or code) must be associated with the application and active for its account (403 otherwise, 404 when unknown). Each account may send \`networkRateLimit\` calls per second per network (429 with Retry-After). Calls are counted in the application’s daily usage.`,
          // No response schema: the RPC endpoint's answer (any status) is passed through as it is.
          params: z.object({ networkId: z.string().min(1).max(100) }),
        },
      },
      async (request, reply) => {
        // The usual request finds everything in this node's caches and does not wait until the forward.
        const claims = knownClaims(request.headers.authorization) ?? (await authorise(request, reply));
        const network = request.params.networkId;
        const route =
          routes.known(claims.applicationId, network) ?? (await routes.resolve(claims.applicationId, network));
        switch (route.kind) {
          case 'unknown-network':
            throw new ProblemError(404, 'Not Found', 'There is no such network.');
          case 'not-associated':
            throw new ProblemError(403, 'Forbidden', 'This network is not associated with the application.');
          case 'not-active':
            throw new ProblemError(403, 'Forbidden', 'This network is not active for the application’s account.');
          case 'no-rpc':
            throw new ProblemError(503, 'Service Unavailable', `${route.networkName} has no RPC endpoint configured.`);
        }
        const raw = request.body as Buffer | undefined;
        let parsed: unknown;
        try {
          parsed = raw && raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
        } catch {
          parsed = undefined;
        }
        const calls = countCalls(parsed);
        if (calls === null) {
          throw new ProblemError(
            400,
            'Bad Request',
            Array.isArray(parsed) && parsed.length > MAX_BATCH
              ? `A batch may carry at most ${MAX_BATCH} calls; this one carries ${parsed.length}. Send it in parts.`
              : `The body must be a JSON-RPC 2.0 request or a batch of 1 to ${MAX_BATCH} requests.`,
          );
        }
        const taken = limiter.take(`${route.accountId}|${route.networkId}`, route.rateLimit, calls);
        const decision = taken instanceof Promise ? await taken : taken;
        if (!decision.allowed) {
          reply.header('retry-after', String(decision.retryAfterSeconds));
          throw new ProblemError(
            429,
            'Too Many Requests',
            `This network allows ${route.rateLimit} requests per second per account.`,
          );
        }
        const screened = screenCalls(parsed);
        const screening = screened === NEEDS_HEAD ? screenCalls(parsed, await chainHead(route)) : screened;
        if (screening) return answerScreened(reply, claims, route, screening, Array.isArray(parsed));
        const call = shared && calls === 1 ? shared.sharedCall(route.networkId, route.rpcUrl, parsed) : null;
        const answer = call ? sharedAnswer(route, parsed) : null;
        if (answer) {
          usage.record(claims.applicationId, route.networkId, calls);
          return reply.header('x-gateway-cache', 'hit').type('application/json; charset=utf-8').send(answer);
        }
        const upstream = await forward(route, raw!);
        if (call) shared!.remember(call, upstream);
        usage.record(claims.applicationId, route.networkId, calls);
        return reply.code(upstream.status).type(upstream.contentType).send(upstream.body);
      },
    );
  });
}
