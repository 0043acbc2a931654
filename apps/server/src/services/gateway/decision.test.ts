import { describe, expect, it } from 'vitest';
import type { AccessTokenClaims } from './access-tokens.ts';
import { SharedAnswers } from './cache.ts';
import {
  capReached,
  GatewayDecider,
  rateLimited,
  rateLimitedBody,
  type Admission,
  type Admitted,
  type Decision,
} from './decision.ts';
import { NEEDS_HEAD } from './methods.ts';
import { NetworkRateLimiter } from './rate-limiter.ts';
import type { GatewayRoute, OpenRoute } from './route-cache.ts';

const CALLER: AccessTokenClaims = { applicationId: 'app-1', accountId: 'acc-1', secretId: 'sec-1', clientId: 'c' };
const OPEN: OpenRoute = {
  kind: 'ok',
  networkId: 'net-1',
  accountId: 'acc-1',
  rpcUrl: 'http://node',
  rateLimit: 2,
  rateLimitKey: 'acc-1|net-1',
};
const CHAIN_ID = { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] };
const BLOCK_NUMBER = { jsonrpc: '2.0', id: 8, method: 'eth_blockNumber', params: [] };
const body = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The decider over in-memory parts: `known` answers what this node "has in memory", the slow
 * calls (verify, isValid, resolve) what the database or the token check would say.
 */
function decider(
  options: {
    tokenKnown?: boolean;
    tokenValid?: boolean;
    secretKnown?: boolean;
    secretValid?: boolean;
    route?: GatewayRoute;
    routeKnown?: boolean;
    shared?: SharedAnswers;
    limiter?: NetworkRateLimiter;
  } = {},
) {
  const { tokenKnown = true, tokenValid = true, secretKnown = true, secretValid = true, routeKnown = true } = options;
  const route = options.route ?? OPEN;
  const counted: string[] = [];
  const made = new GatewayDecider({
    tokens: {
      known: (token) => (tokenKnown && token === 'good' ? CALLER : undefined),
      verify: async (token) => (tokenValid && token === 'good' ? CALLER : null),
    },
    credentials: {
      known: () => (secretKnown ? secretValid : undefined),
      isValid: async () => secretValid,
    },
    routes: { known: () => (routeKnown ? route : undefined), resolve: async () => route },
    limiter: options.limiter ?? new NetworkRateLimiter(),
    shared: options.shared,
    usage: { recordCalls: (_app, _net, calls) => void counted.push((calls as { method: string }).method) },
  });
  return { decider: made, counted };
}

const admitted = (made: GatewayDecider) => made.admit('Bearer good', 'net-1', false) as Admitted;
/** A refusal's code, detail and headers (what the route answers), or the decision itself. */
function refusalOf(decision: Admission | Decision | Promise<Admission | Decision> | undefined) {
  if (decision instanceof Promise) throw new Error('a synchronous decision was expected');
  return decision?.kind === 'refuse'
    ? { code: decision.code, detail: decision.detail, headers: decision.headers }
    : decision;
}

describe('the gateway’s decision', () => {
  it('admits a known caller to a known route synchronously, and waits only for what it does not know', async () => {
    const { decider: made } = decider();
    const admission = made.admit('Bearer good', 'net-1');
    expect(admission).not.toBeInstanceOf(Promise);
    expect(admission).toEqual({ kind: 'admitted', caller: CALLER, route: OPEN });
    expect(made.decide(admitted(made), body(CHAIN_ID))).not.toBeInstanceOf(Promise);

    for (const unknown of [{ tokenKnown: false }, { secretKnown: false }, { routeKnown: false }]) {
      const slow = decider(unknown).decider;
      const pending = slow.admit('Bearer good', 'net-1');
      expect(pending, JSON.stringify(unknown)).toBeInstanceOf(Promise);
      expect(await pending).toEqual({ kind: 'admitted', caller: CALLER, route: OPEN });
      // Without waiting (the fast path) it does not know yet.
      expect(slow.admit('Bearer good', 'net-1', false)).toBeUndefined();
    }
    // A header other than the usual one is read with the regular expression, then verified.
    expect(await decider({ tokenKnown: false }).decider.admit('bearer   good', 'net-1')).toMatchObject({
      kind: 'admitted',
    });
  });

  it('refuses a missing, invalid or revoked credential with 401 and its challenge', async () => {
    const { decider: made } = decider();
    for (const header of [undefined, 'Basic abc', 'Bearer']) {
      expect(refusalOf(await made.admit(header, 'net-1')), String(header)).toEqual({
        code: 'GATEWAY_TOKEN_REQUIRED',
        detail: undefined,
        headers: { 'www-authenticate': 'Bearer realm="platform-api"' },
      });
    }
    const invalid = { 'www-authenticate': 'Bearer realm="platform-api", error="invalid_token"' };
    expect(refusalOf(await decider({ tokenKnown: false, tokenValid: false }).decider.admit('Bearer x', 'n'))).toEqual({
      code: 'GATEWAY_TOKEN_INVALID',
      detail: undefined,
      headers: invalid,
    });
    // Known revoked: refused at once, also without waiting.
    const revoked = decider({ secretValid: false }).decider;
    expect(refusalOf(revoked.admit('Bearer good', 'net-1', false))).toMatchObject({
      code: 'GATEWAY_SECRET_REVOKED',
      headers: invalid,
    });
    expect(
      refusalOf(await decider({ secretKnown: false, secretValid: false }).decider.admit('Bearer good', 'n')),
    ).toMatchObject({ code: 'GATEWAY_SECRET_REVOKED' });
  });

  it('refuses networks the application may not use: 404, 403, 403, 403 (plan), 503', async () => {
    const cases: [GatewayRoute, string, string | undefined][] = [
      [{ kind: 'unknown-network' }, 'GATEWAY_NETWORK_UNKNOWN', undefined],
      [{ kind: 'not-associated' }, 'GATEWAY_NETWORK_NOT_ASSOCIATED', undefined],
      [{ kind: 'not-active' }, 'GATEWAY_NETWORK_INACTIVE', undefined],
      [
        { kind: 'plan-inactive' },
        'PLAN_INACTIVE',
        'The plan of this application’s account is not active: renew or upgrade it to call the networks again.',
      ],
      [
        { kind: 'no-rpc', networkName: 'Chain X' },
        'GATEWAY_NO_RPC_ENDPOINT',
        'Chain X has no RPC endpoint configured.',
      ],
    ];
    for (const [route, code, detail] of cases) {
      for (const routeKnown of [true, false]) {
        const { decider: made } = decider({ route, routeKnown });
        expect(refusalOf(await made.admit('Bearer good', 'net-1')), code).toEqual({ code, detail, headers: undefined });
      }
    }
  });

  it('refuses bodies that are not JSON-RPC, and batches over 100 calls with their own code', () => {
    const { decider: made } = decider();
    for (const bad of ['{not json', '', {}, [], { method: 3 }, [CHAIN_ID, 5]]) {
      expect(refusalOf(made.decide(admitted(made), body(bad))), JSON.stringify(bad)).toMatchObject({
        code: 'GATEWAY_INVALID_RPC',
        detail: 'The body must be a JSON-RPC 2.0 request or a batch of 1 to 100 requests.',
      });
    }
    expect(refusalOf(made.decide(admitted(made), undefined))).toMatchObject({ code: 'GATEWAY_INVALID_RPC' });
    const batch = Array.from({ length: 101 }, () => CHAIN_ID);
    expect(refusalOf(made.decide(admitted(made), body(batch)))).toEqual({
      code: 'GATEWAY_BATCH_TOO_LARGE',
      detail: 'A batch may carry at most 100 calls; this one carries 101. Send it in parts.',
      headers: undefined,
    });
  });

  it('takes each call from the plan’s allowance and refuses with 429 and a Retry-After that succeeds when it is used up', async () => {
    const { decider: made } = decider();
    // The bucket holds the largest batch even at 2 a second.
    const full = Array.from({ length: 100 }, (_, id) => ({ ...BLOCK_NUMBER, id }));
    expect(made.decide(admitted(made), body(full))).toMatchObject({ kind: 'forward', calls: 100 });
    const refused = made.decide(admitted(made), body([BLOCK_NUMBER, BLOCK_NUMBER])) as Decision;
    expect(refusalOf(refused)).toEqual({
      code: 'GATEWAY_RATE_LIMITED',
      detail: 'Your plan allows 2 requests a second per network, shared by your account’s applications: retry in 1 s.',
      headers: { 'retry-after': '1' },
    });
    expect(refused).toMatchObject({ extensions: { allowedRps: 2, backoffSeconds: 1 } });
    // A plan without the gateway (0 a second) promises no retry.
    const none = decider({ route: { ...OPEN, rateLimit: 0 } }).decider;
    expect(refusalOf(none.decide(admitted(none), body(BLOCK_NUMBER)))).toEqual({
      code: 'GATEWAY_RATE_LIMITED',
      detail:
        'Your plan allows 0 requests a second per network, shared by your account’s applications: upgrade it to call this network.',
      headers: undefined,
    });
    // A Redis count is a promise, and so is the decision.
    const shared = new NetworkRateLimiter();
    const viaRedis = {
      take: (...args: Parameters<NetworkRateLimiter['take']>) => Promise.resolve(shared.take(...args)),
    };
    const redisDecider = decider({ limiter: viaRedis as unknown as NetworkRateLimiter }).decider;
    const pending = redisDecider.decide(admitted(redisDecider), body(CHAIN_ID));
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toMatchObject({ kind: 'forward' });
  });

  it('answers a fresh shared answer itself and counts it; forwards the rest with what relaying needs', () => {
    const shared = new SharedAnswers();
    const { decider: made, counted } = decider({ shared, limiter: new NetworkRateLimiter() });
    const first = made.decide(admitted(made), body(CHAIN_ID)) as Decision;
    expect(first).toMatchObject({ kind: 'forward', calls: 1, screening: null, sharedCall: { id: '7' } });
    if (first.kind !== 'forward') throw new Error('forward expected');
    shared.remember(first.sharedCall!, {
      status: 200,
      contentType: 'application/json',
      body: body({ jsonrpc: '2.0', id: 7, result: '0x7a69' }),
    });
    const hit = made.decide(admitted(made), body({ ...CHAIN_ID, id: 'x' })) as Decision;
    expect(hit.kind).toBe('answer');
    expect(JSON.parse((hit as { answer: string }).answer)).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      result: '0x7a69',
    });
    expect(counted).toEqual(['eth_chainId']);

    const { decider: fresh } = decider({ shared, limiter: new NetworkRateLimiter() });
    const refused = { jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [] };
    expect(fresh.decide(admitted(fresh), body(refused))).toMatchObject({
      kind: 'forward',
      screening: { forward: [], refusals: [{ id: 1, error: { code: -32601 } }] },
      sharedCall: null,
    });
    const logs = { jsonrpc: '2.0', id: 2, method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: 'latest' }] };
    expect(fresh.decide(admitted(fresh), body(logs))).toMatchObject({ kind: 'forward', screening: NEEDS_HEAD });
  });

  it('refuses an application at its spending cap with 429, Retry-After and when to try again, until the month turns', () => {
    const monthEndsMs = Date.parse('2026-12-01T00:00:00Z');
    const { decider: made } = decider({ route: { kind: 'cap-reached', capCredits: 12.5, monthEndsMs } });
    const refusal = made.admit('Bearer good', 'net-1', false);
    expect(refusal).toMatchObject({
      kind: 'refuse',
      code: 'GATEWAY_SPENDING_CAP_REACHED',
      extensions: { allowedRps: 0, retryAt: '2026-12-01T00:00:00.000Z' },
    });
    const nowMs = Date.parse('2026-11-30T23:00:00.500Z');
    expect(capReached(12.5, monthEndsMs, nowMs)).toEqual({
      kind: 'refuse',
      code: 'GATEWAY_SPENDING_CAP_REACHED',
      detail:
        'This application used its monthly spending cap of 12.5 credits: raise the cap, or wait for the month to turn (2026-12-01T00:00:00.000Z).',
      headers: { 'retry-after': '3600' },
      extensions: { allowedRps: 0, backoffSeconds: 3600, retryAt: '2026-12-01T00:00:00.000Z' },
    });
  });
  it('answers a 429 as JSON-RPC errors: one per call with an id, in order, or one with id null', () => {
    const refusal = rateLimited(25, 3);
    const error = {
      code: -32005,
      message:
        'Your plan allows 25 requests a second per network, shared by your account’s applications: retry in 3 s.',
      data: { code: 'GATEWAY_RATE_LIMITED', allowedRps: 25, backoffSeconds: 3 },
    };
    const parse = (value: Buffer) => JSON.parse(value.toString()) as unknown;
    expect(parse(rateLimitedBody(refusal, body({ ...BLOCK_NUMBER, id: 'a' })))).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error,
    });
    const notification = { jsonrpc: '2.0', method: 'eth_blockNumber' };
    expect(
      parse(rateLimitedBody(refusal, body([{ ...BLOCK_NUMBER, id: 2 }, notification, { ...BLOCK_NUMBER, id: null }]))),
    ).toEqual([
      { jsonrpc: '2.0', id: 2, error },
      { jsonrpc: '2.0', id: null, error },
    ]);
    expect(parse(rateLimitedBody(refusal, body([notification])))).toEqual({ jsonrpc: '2.0', id: null, error });
    expect(parse(rateLimitedBody(refusal, body('not json')))).toEqual({ jsonrpc: '2.0', id: null, error });
    // The spending cap's refusal carries its extensions as data.
    expect(parse(rateLimitedBody(capReached(1, 10_000, 0), body(BLOCK_NUMBER)))).toMatchObject({
      id: 8,
      error: { code: -32005, data: { code: 'GATEWAY_SPENDING_CAP_REACHED', allowedRps: 0, backoffSeconds: 10 } },
    });
  });

  it('answers eth_chainId and net_version from its copy without taking from the allowance; eth_blockNumber takes', () => {
    const shared = new SharedAnswers();
    const limiter = new NetworkRateLimiter();
    const { decider: made, counted } = decider({ shared, limiter });
    const full = Array.from({ length: 100 }, (_, id) => ({ ...BLOCK_NUMBER, id }));
    for (const method of ['eth_chainId', 'net_version', 'eth_blockNumber']) {
      const call = { jsonrpc: '2.0', id: 1, method, params: [] };
      const first = made.decide(admitted(made), body(call)) as Decision;
      if (first.kind !== 'forward') throw new Error('forward expected');
      shared.remember(first.sharedCall!, {
        status: 200,
        contentType: 'application/json',
        body: body({ ...call, result: '0x1' }),
      });
    }
    expect(made.decide(admitted(made), body(full.slice(3)))).toMatchObject({ kind: 'forward' });
    expect(made.decide(admitted(made), body({ ...CHAIN_ID, method: 'net_version' }))).toMatchObject({ kind: 'answer' });
    expect(made.decide(admitted(made), body(CHAIN_ID))).toMatchObject({ kind: 'answer' });
    expect(made.decide(admitted(made), body(BLOCK_NUMBER))).toMatchObject({ code: 'GATEWAY_RATE_LIMITED' });
    expect(counted.slice(-2)).toEqual(['net_version', 'eth_chainId']);
  });
});
