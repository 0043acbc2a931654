import { PROBLEMS, type ProblemCode } from '@connect/shared';
import type { AccessTokenClaims, AccessTokenIssuer } from './access-tokens.ts';
import type { SharedAnswers, SharedCall } from './cache.ts';
import type { CredentialCache } from './credential-cache.ts';
import { countCalls, MAX_BATCH, screenCalls, type NEEDS_HEAD, type Screening } from './methods.ts';
import type { NetworkRateLimiter, RateDecision } from './rate-limiter.ts';
import type { GatewayRoute, OpenRoute, RouteCache } from './route-cache.ts';
import type { UsageRecorder } from './usage-recorder.ts';

/**
 * A request the gateway refuses: its problem code, the detail when more specific, headers to
 * answer, and extension members of the problem details (RFC 9457 §3.2) when the caller can act on
 * them (a spending cap's `retryAt`).
 */
export type Refusal = {
  kind: 'refuse';
  code: ProblemCode;
  detail?: string;
  headers?: Readonly<Record<string, string>>;
  extensions?: Readonly<Record<string, unknown>>;
};

/** The caller and the network it may call. */
export type Admitted = { kind: 'admitted'; caller: AccessTokenClaims; route: OpenRoute };
export type Admission = Admitted | Refusal;

/** A request to forward (after screening its calls, see GatewayService.relay). */
export type Forward = {
  kind: 'forward';
  caller: AccessTokenClaims;
  route: OpenRoute;
  body: Buffer;
  parsed: unknown;
  calls: number;
  /** null: every call goes as it came (methods.ts screenCalls). */
  screening: Screening | typeof NEEDS_HEAD | null;
  /** The shared answer this call may fill once the network has answered it. */
  sharedCall: SharedCall | null;
};

/** The shared answer to a single call, already counted in the caller's usage. */
export type Answer = { kind: 'answer'; answer: string };

export type Decision = Refusal | Answer | Forward;

export type DeciderParts = {
  tokens: Pick<AccessTokenIssuer, 'known' | 'verify'>;
  credentials: Pick<CredentialCache, 'known' | 'isValid'>;
  routes: Pick<RouteCache, 'known' | 'resolve'>;
  limiter: Pick<NetworkRateLimiter, 'take'>;
  /** Shared answers, when GATEWAY_CACHE is on. */
  shared: SharedAnswers | undefined;
  usage: Pick<UsageRecorder, 'recordCalls'>;
};

const BEARER = /^Bearer\s+(\S+)$/i;
const AUTHENTICATE = 'www-authenticate';

const TOKEN_REQUIRED: Refusal = {
  kind: 'refuse',
  code: 'GATEWAY_TOKEN_REQUIRED',
  headers: { [AUTHENTICATE]: 'Bearer realm="platform-api"' },
};
const INVALID_TOKEN_HEADERS = { [AUTHENTICATE]: 'Bearer realm="platform-api", error="invalid_token"' };
const TOKEN_INVALID: Refusal = { kind: 'refuse', code: 'GATEWAY_TOKEN_INVALID', headers: INVALID_TOKEN_HEADERS };
const SECRET_REVOKED: Refusal = { kind: 'refuse', code: 'GATEWAY_SECRET_REVOKED', headers: INVALID_TOKEN_HEADERS };
const NETWORK_UNKNOWN: Refusal = { kind: 'refuse', code: 'GATEWAY_NETWORK_UNKNOWN' };
const NETWORK_NOT_ASSOCIATED: Refusal = { kind: 'refuse', code: 'GATEWAY_NETWORK_NOT_ASSOCIATED' };
const NETWORK_INACTIVE: Refusal = { kind: 'refuse', code: 'GATEWAY_NETWORK_INACTIVE' };
const PLAN_INACTIVE: Refusal = {
  kind: 'refuse',
  code: 'PLAN_INACTIVE',
  detail: 'The plan of this application’s account is not active: renew or upgrade it to call the networks again.',
};
const INVALID_RPC: Refusal = {
  kind: 'refuse',
  code: 'GATEWAY_INVALID_RPC',
  detail: `The body must be a JSON-RPC 2.0 request or a batch of 1 to ${MAX_BATCH} requests.`,
};

/** What the route says about an application's calls to a network. */
function admission(caller: AccessTokenClaims, route: GatewayRoute): Admission {
  switch (route.kind) {
    case 'ok':
      return { kind: 'admitted', caller, route };
    case 'unknown-network':
      return NETWORK_UNKNOWN;
    case 'not-associated':
      return NETWORK_NOT_ASSOCIATED;
    case 'not-active':
      return NETWORK_INACTIVE;
    case 'plan-inactive':
      return PLAN_INACTIVE;
    case 'cap-reached':
      return capReached(route.capCredits, route.monthEndsMs, Date.now());
    case 'no-rpc':
      return {
        kind: 'refuse',
        code: 'GATEWAY_NO_RPC_ENDPOINT',
        detail: `${route.networkName} has no RPC endpoint configured.`,
      };
  }
}

/**
 * 429 for an application at its monthly spending cap, said the way Infura says a spent quota: the
 * rate now allowed (0 calls per second) and when to try again — the next UTC month (Retry-After
 * and `backoffSeconds` in seconds, `retryAt` as a time); raising the cap lets the calls through
 * sooner.
 */
export function capReached(capCredits: number, monthEndsMs: number, nowMs: number): Refusal {
  const backoffSeconds = Math.max(1, Math.ceil((monthEndsMs - nowMs) / 1000));
  const retryAt = new Date(monthEndsMs).toISOString();
  return {
    kind: 'refuse',
    code: 'GATEWAY_SPENDING_CAP_REACHED',
    detail: `This application used its monthly spending cap of ${capCredits} credits: raise the cap, or wait for the month to turn (${retryAt}).`,
    headers: { 'retry-after': String(backoffSeconds) },
    extensions: { allowedRps: 0, backoffSeconds, retryAt },
  };
}

/**
 * 429 for calls over the plan's rate: what it allows and when these calls will be there (a
 * Retry-After that succeeds, as the token bucket promises); none with a rate of 0 (nothing ever
 * will be). A batch never exceeds the bucket: it holds at least MAX_BATCH calls (burstOf in rate-limiter.ts).
 */
export function rateLimited(rate: number, retryAfterSeconds: number | null): Refusal {
  const scope = `Your plan allows ${rate} requests a second per network, shared by your account’s applications`;
  if (retryAfterSeconds === null)
    return {
      kind: 'refuse',
      code: 'GATEWAY_RATE_LIMITED',
      detail: `${scope}: upgrade it to call this network.`,
      extensions: { allowedRps: rate },
    };
  return {
    kind: 'refuse',
    code: 'GATEWAY_RATE_LIMITED',
    detail: `${scope}: retry in ${retryAfterSeconds} s.`,
    headers: { 'retry-after': String(retryAfterSeconds) },
    extensions: { allowedRps: rate, backoffSeconds: retryAfterSeconds },
  };
}

/** JSON-RPC's error code for a limit exceeded (EIP-1474), as hosted providers answer a 429. */
export const LIMIT_EXCEEDED = -32005;

type RpcId = string | number | null;
const isId = (id: unknown): id is RpcId => id === null || typeof id === 'string' || typeof id === 'number';

/**
 * The body of a 429 on the JSON-RPC endpoint (a rate limit or a spending cap): a JSON-RPC error
 * (code -32005, the refusal's detail as message, its code and extensions as data), so a client
 * such as web3.js shows the reason — one per call with an id for a batch, in the batch's order;
 * a body without any id (notifications only, or unreadable) gets one error with id null.
 */
export function rateLimitedBody(refusal: Refusal, body: Buffer | undefined): Buffer {
  const error = {
    code: LIMIT_EXCEEDED,
    message: refusal.detail ?? PROBLEMS[refusal.code].message,
    data: { code: refusal.code, ...refusal.extensions },
  };
  let parsed: unknown;
  try {
    parsed = body?.length ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    parsed = undefined;
  }
  const idOf = (call: unknown): RpcId | undefined => {
    const id = call && typeof call === 'object' ? (call as { id?: unknown }).id : undefined;
    return isId(id) ? id : undefined;
  };
  const ids = (Array.isArray(parsed) ? parsed.map(idOf) : [idOf(parsed)]).filter((id) => id !== undefined);
  const answers = (ids.length ? ids : [null]).map((id) => ({ jsonrpc: '2.0', id, error }));
  return Buffer.from(JSON.stringify(Array.isArray(parsed) && ids.length ? answers : answers[0]));
}

function invalidBody(parsed: unknown): Refusal {
  if (!Array.isArray(parsed) || parsed.length <= MAX_BATCH) return INVALID_RPC;
  return {
    kind: 'refuse',
    code: 'GATEWAY_BATCH_TOO_LARGE',
    detail: `A batch may carry at most ${MAX_BATCH} calls; this one carries ${parsed.length}. Send it in parts.`,
  };
}

/**
 * What the gateway does with `POST /api/gateway/{network}`: the one place that decides, called by
 * the Fastify route and by the fast path (fast-path.ts) alike. In this order:
 *
 * 1. admit: the access token (a Bearer token this server issued, not expired), its client secret
 *    (neither revoked nor expired, its application's account ACTIVE: CredentialCache), the network (known; associated with the application; active
 *    for its account, whose plan is in service; the application under its monthly spending cap;
 *    with an RPC endpoint) — 401, 404, 403, 429, 503;
 * 2. decide, on the body: a JSON-RPC 2.0 request or batch (400); a single `eth_chainId` or
 *    `net_version` the gateway answers from its copy of the chain's constants (cache.ts) costs no
 *    allowance; every other call takes from the account's calls per second on the network — the
 *    plan's, a token bucket holding at least the largest batch (rate-limiter.ts) — (429 with a
 *    Retry-After that succeeds, answered as JSON-RPC errors, see `rateLimitedBody`), then its
 *    calls are screened by the method allow-list (methods.ts) and, for a single shareable call,
 *    the shared answer (cache.ts).
 *
 * Both steps answer synchronously when everything they need is in this node's memory (the usual
 * request) and a promise only when they must wait for the database, a token check or Redis: the
 * fast path relies on it, and the route awaits only what is a promise. A refusal is a plain
 * object (the route throws it as problem details); no check here is written twice.
 */
export class GatewayDecider {
  constructor(private readonly parts: DeciderParts) {}

  /**
   * Step 1. With `canWait` false (the fast path) it answers only from what this node already
   * knows of the token, and undefined where it would have to wait or the token is not a cached
   * one (a missing or unknown token is the route's to refuse).
   */
  admit(authorization: string | undefined, network: string): Admission | Promise<Admission>;
  admit(authorization: string | undefined, network: string, canWait: false): Admission | undefined;
  admit(authorization: string | undefined, network: string, canWait = true) {
    // The usual header, looked up without a regular expression: a token this node verified has no spaces.
    const known = authorization?.startsWith('Bearer ') ? this.parts.tokens.known(authorization.slice(7)) : undefined;
    if (known) return this.admitCaller(known, network, canWait);
    if (!canWait) return undefined;
    const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
    if (!token) return TOKEN_REQUIRED;
    return this.parts.tokens
      .verify(token)
      .then((caller) => (caller ? this.admitCaller(caller, network, true) : TOKEN_INVALID));
  }

  private admitCaller(caller: AccessTokenClaims, network: string, canWait: boolean) {
    const isValid = this.parts.credentials.known(caller.secretId, caller.applicationId);
    if (isValid !== undefined) return this.admitValid(isValid, caller, network, canWait);
    if (!canWait) return undefined;
    return this.parts.credentials
      .isValid(caller.secretId, caller.applicationId)
      .then((valid) => this.admitValid(valid, caller, network, true));
  }

  private admitValid(isValid: boolean, caller: AccessTokenClaims, network: string, canWait: boolean) {
    if (!isValid) return SECRET_REVOKED;
    const route = this.parts.routes.known(caller.applicationId, network);
    if (route) return admission(caller, route);
    if (!canWait) return undefined;
    return this.parts.routes.resolve(caller.applicationId, network).then((resolved) => admission(caller, resolved));
  }

  /** Step 2: the body of an admitted request. A promise only when the rate limit is counted in Redis. */
  decide(admitted: Admitted, body: Buffer | undefined): Decision | Promise<Decision> {
    let parsed: unknown;
    try {
      parsed = body?.length ? JSON.parse(body.toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    const calls = countCalls(parsed);
    if (calls === null) return invalidBody(parsed);
    const { route } = admitted;
    const free = calls === 1 ? this.constantAnswer(admitted, parsed) : null;
    if (free) return free;
    const taken = this.parts.limiter.take(route.rateLimitKey, route.rateLimit, calls);
    return taken instanceof Promise
      ? taken.then((decision) => this.afterLimit(decision, admitted, body!, parsed, calls))
      : this.afterLimit(taken, admitted, body!, parsed, calls);
  }

  /**
   * The gateway's own copy of a chain constant (`eth_chainId`, `net_version`: ethers asks before
   * nearly every call), answered without taking from the rate limit, as hosted providers do; still
   * counted in usage.
   */
  private constantAnswer(admitted: Admitted, parsed: unknown): Answer | null {
    const shared = this.parts.shared;
    const method = (parsed as { method?: unknown }).method;
    if (!shared || (method !== 'eth_chainId' && method !== 'net_version')) return null;
    const { route } = admitted;
    const sharedCall = shared.sharedCall(route.networkId, route.rpcUrl, parsed);
    const answer = sharedCall && shared.answer(sharedCall);
    if (!answer) return null;
    this.parts.usage.recordCalls(admitted.caller.applicationId, route.networkId, parsed);
    return { kind: 'answer', answer };
  }

  private afterLimit(taken: RateDecision, admitted: Admitted, body: Buffer, parsed: unknown, calls: number): Decision {
    const { caller, route } = admitted;
    if (!taken.allowed) return rateLimited(route.rateLimit, taken.retryAfterSeconds);
    const screening = screenCalls(parsed);
    const shared = this.parts.shared;
    const sharedCall =
      shared && screening === null && calls === 1 ? shared.sharedCall(route.networkId, route.rpcUrl, parsed) : null;
    const answer = sharedCall && shared!.answer(sharedCall);
    if (answer) {
      // Counted here, where it is decided, so neither caller forgets it.
      this.parts.usage.recordCalls(caller.applicationId, route.networkId, parsed);
      return { kind: 'answer', answer };
    }
    return { kind: 'forward', caller, route, body, parsed, calls, screening, sharedCall };
  }
}
