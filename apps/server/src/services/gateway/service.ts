import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { ACCESS_TOKEN_SECONDS, type ZTokenResponse } from '@connect/shared';
import { applicationChanges } from '../../lib/application-changes.ts';
import { problem } from '../../lib/errors.ts';
import { hashSecret } from '../../lib/secret-hash.ts';
import type { Deps } from '../../types.ts';
import { AccessTokenIssuer, loadAccessTokenKey } from './access-tokens.ts';
import { SharedAnswers } from './cache.ts';
import { CredentialCache } from './credential-cache.ts';
import { GatewayDecider, type Forward } from './decision.ts';
import { RpcForwarder, UpstreamError, type Upstream } from './forward.ts';
import { NEEDS_HEAD, screenCalls, type Screening } from './methods.ts';
import { NetworkRateLimiter } from './rate-limiter.ts';
import { GatewayRepository } from './repository.ts';
import { RouteCache, type OpenRoute } from './route-cache.ts';
import { USAGE_FLUSH_MS, UsageRecorder } from './usage-recorder.ts';

/**
 * What a token request with readable client credentials comes to. Both refusals get the same
 * OAuth2 answer (401 invalid_client): only the server's log says that the account is not active.
 */
export type TokenIssue =
  | { kind: 'issued'; token: z.infer<typeof ZTokenResponse> }
  | { kind: 'refused'; reason: 'credentials' }
  | { kind: 'refused'; reason: 'account-not-active'; applicationId: string; accountId: string };

/** The chain head call that bounds a log query ending at 'latest' (see chainHead). */
const HEAD_CALL = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
const HEAD_BODY = Buffer.from(JSON.stringify(HEAD_CALL));
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The platform API that registered applications call (issue 4 §5): access tokens for client
 * credentials, and JSON-RPC relayed to the networks. What a request may do is decided by
 * `decider` (decision.ts); this carries it out. One per app, built by `create`, closed on shutdown.
 */
export class GatewayService {
  readonly decider: GatewayDecider;
  private readonly credentials: CredentialCache;
  private readonly routes: RouteCache;
  private readonly limiter: NetworkRateLimiter;
  private readonly usage: UsageRecorder;
  private readonly forwarder = new RpcForwarder();
  private readonly stopListening: () => void;
  private readonly timer: NodeJS.Timeout;

  static async create(deps: Deps, onUsageError: (error: unknown) => void): Promise<GatewayService> {
    const repository = new GatewayRepository(deps.dbh);
    const key = await loadAccessTokenKey(repository, deps.box);
    let redis: Redis | undefined;
    if (deps.config.redisUrl) {
      const { Redis: RedisClient } = await import('ioredis');
      redis = new RedisClient(deps.config.redisUrl, {
        connectTimeout: 500,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      });
    }
    return new GatewayService(deps, repository, {
      tokens: new AccessTokenIssuer(key, `${deps.pool.installationUrl}/oauth2`),
      shared: deps.config.gatewayCache ? new SharedAnswers() : undefined,
      redis,
      onUsageError,
    });
  }

  private constructor(
    deps: Deps,
    private readonly repository: GatewayRepository,
    private readonly options: {
      tokens: AccessTokenIssuer;
      shared: SharedAnswers | undefined;
      redis: Redis | undefined;
      onUsageError: (error: unknown) => void;
    },
  ) {
    this.credentials = new CredentialCache(repository);
    this.routes = new RouteCache(repository);
    this.limiter = new NetworkRateLimiter(options.redis);
    // An application a flush took to its cap is read again on its next call: refused from then on.
    this.usage = new UsageRecorder(repository, deps.events, options.onUsageError, (applicationIds) => {
      for (const applicationId of applicationIds) this.routes.forgetApplication(applicationId);
    });
    this.decider = new GatewayDecider({
      tokens: options.tokens,
      credentials: this.credentials,
      routes: this.routes,
      limiter: this.limiter,
      shared: options.shared,
      usage: this.usage,
    });
    const changes = applicationChanges(deps);
    const stopApplications = changes.on((applicationId) => {
      this.credentials.forgetApplication(applicationId);
      this.routes.forgetApplication(applicationId);
    });
    // An account changes rarely (staff closing it, or overriding its rate limit): forget all.
    const stopAccounts = changes.onAccount(() => {
      this.credentials.forgetAll();
      this.routes.forgetAll();
    });
    this.stopListening = () => {
      stopApplications();
      stopAccounts();
    };
    this.timer = setInterval(() => void this.usage.flush(), USAGE_FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Whether requests may be answered before Fastify (fast-path.ts): only with the rate limit
   * counted in this node (a Redis count would make every decision wait).
   */
  get hasFastPath(): boolean {
    return this.limiter.isLocal;
  }

  /**
   * An access token for a live client secret of an application whose account is ACTIVE (RFC 6749
   * §4.4); refused when the id or secret is wrong, revoked or expired, or the account is not
   * ACTIVE (staff removed its last active user; restoring a user lets the same secret in again).
   */
  async issueAccessToken(clientId: string, clientSecret: string): Promise<TokenIssue> {
    const hash = hashSecret(clientSecret);
    const secret = await this.repository.findLiveClientSecret(clientId, hash);
    // The index found the row by hash; compare again in constant time all the same.
    if (!secret || !timingSafeEqual(Buffer.from(secret.hash), Buffer.from(hash))) {
      return { kind: 'refused', reason: 'credentials' };
    }
    if (!secret.isAccountActive) {
      return {
        kind: 'refused',
        reason: 'account-not-active',
        applicationId: secret.applicationId,
        accountId: secret.accountId,
      };
    }
    const accessToken = await this.options.tokens.issue({
      applicationId: secret.applicationId,
      accountId: secret.accountId,
      secretId: secret.secretId,
      clientId,
    });
    return {
      kind: 'issued',
      token: { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS },
    };
  }

  /**
   * Carries out a forward decision: the network's answer, or the gateway's own answers to refused
   * calls beside the network's to the others; null when there is nothing to answer (204).
   */
  async relay(decision: Forward): Promise<Upstream | null> {
    const { caller, route, body, parsed, sharedCall } = decision;
    const screening =
      decision.screening === NEEDS_HEAD ? screenCalls(parsed, await this.chainHead(route)) : decision.screening;
    if (screening) return this.relayScreened(caller.applicationId, route, screening, Array.isArray(parsed));
    const upstream = await this.forward(route, body);
    if (sharedCall) this.options.shared!.remember(sharedCall, upstream);
    this.usage.recordCalls(caller.applicationId, route.networkId, parsed);
    return upstream;
  }

  /**
   * A request with refused calls: the gateway's errors for those, the network's answers to the
   * others (forwarded as one batch). A batch's answers may come in any order (JSON-RPC 2.0 §6):
   * the network's first, then the refusals. Nothing to answer (only refused notifications) is
   * null, a 204, as the nodes answer notifications.
   */
  private async relayScreened(
    applicationId: string,
    route: OpenRoute,
    screening: Screening,
    isBatch: boolean,
  ): Promise<Upstream | null> {
    let answers: unknown[] = screening.refusals;
    if (screening.forward.length > 0) {
      const upstream = await this.forward(route, Buffer.from(JSON.stringify(screening.forward)));
      this.usage.recordCalls(applicationId, route.networkId, screening.forward);
      let forwarded: unknown;
      try {
        // 204: the forwarded calls were all notifications.
        if (upstream.status === 204) forwarded = [];
        else if (upstream.status === 200) forwarded = JSON.parse(upstream.body.toString('utf8'));
      } catch {
        forwarded = undefined;
      }
      // The node refused the batch as a whole (or answered nothing readable): its answer stands.
      if (!Array.isArray(forwarded)) return upstream;
      answers = [...forwarded, ...screening.refusals];
    }
    if (answers.length === 0) return null;
    return { status: 200, contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(isBatch ? answers : answers[0])) };
  }

  /** The network's answer to a body, or the 502 problem when it gives none. */
  private async forward(route: OpenRoute, body: Buffer): Promise<Upstream> {
    try {
      return await this.forwarder.post(route.rpcUrl, body);
    } catch (error) {
      const kind = error instanceof UpstreamError ? error.kind : 'UNREACHABLE';
      throw problem(
        kind === 'TIMEOUT' ? 'UPSTREAM_TIMEOUT' : kind === 'TOO_LARGE' ? 'UPSTREAM_TOO_LARGE' : 'UPSTREAM_UNREACHABLE',
      );
    }
  }

  /** The chain's current block number, to bound a log query that ends at 'latest': shared when fresh. */
  private async chainHead(route: OpenRoute): Promise<bigint> {
    const shared = this.options.shared;
    const call = shared?.sharedCall(route.networkId, route.rpcUrl, HEAD_CALL) ?? null;
    let answer: string | Buffer | null = call && shared!.answer(call);
    if (!answer) {
      const upstream = await this.forward(route, HEAD_BODY);
      if (call) shared!.remember(call, upstream);
      answer = upstream.body;
    }
    try {
      const { result } = JSON.parse(answer.toString('utf8')) as { result?: unknown };
      if (typeof result === 'string' && /^0x[0-9a-f]{1,16}$/i.test(result)) return BigInt(result);
    } catch {
      // Not JSON: the node's answer is no block number either.
    }
    throw problem('UPSTREAM_NO_BLOCK_NUMBER');
  }

  /** Stops listening and writes the usage counted so far. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.stopListening();
    await this.usage.flush();
    this.forwarder.close();
    this.options.redis?.disconnect();
  }
}
