import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountNetworks, gatewayUsageHourly } from '@connect/db';
import { ZProblem, ZTokenResponse } from '@connect/shared';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { setAllowances } from '../../../test/plans.ts';
import { applicationChanges } from '../../lib/application-changes.ts';
import type { RawHandler } from '../../types.ts';
import {
  activate,
  addNetwork,
  liftPlanLimits,
  createApplication,
  newAppUser,
  rotateSecret,
  type TestUser,
} from '../application-manager/testing.ts';

const BLOCK_NUMBER = { jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] };
/** A shared answer kept 60 s (the head is kept 250 ms: too short to count on in a loaded test run). */
const CHAIN_ID = { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] };
const ADDRESS_ONE = '0x0000000000000000000000000000000000000001';

/**
 * The gateway's fast path (fast-path.ts) over real sockets: `app.inject()` never reaches it, so
 * these requests go through the listening server, and the handler is wrapped to count what it
 * took and what it handed on to Fastify.
 */
describe('platform API: the gateway fast path', () => {
  let t: TestContext;
  let chain: TestChain;
  let owner: TestUser;
  let base: string;
  let network: { id: string; code: string };
  const counts = { answered: 0, handedOn: 0 };

  beforeAll(async () => {
    [t, chain] = await Promise.all([createTestApp({ GATEWAY_CACHE: 'on' }), startTestChain()]);
    owner = await newAppUser(t);
    await liftPlanLimits(t, owner.accountId);
    network = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, rateLimit: 1000 });
    await activate(t, owner.accountId, network.id);

    const handlers = t.app.deps.rawHandlers;
    expect(handlers).toHaveLength(1);
    const fast = handlers[0]!;
    const counting: RawHandler = (req, res, next) => {
      let handedOn = false;
      const taken = fast(req, res, (request, response) => {
        handedOn = true;
        counts.handedOn++;
        next(request, response);
      });
      if (taken) res.once('finish', () => handedOn || counts.answered++);
      return taken;
    };
    handlers[0] = counting;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  /**
   * A new application and its access token: on the suite's network or another one; with a rate,
   * of a new account whose plan allows that many calls a second.
   */
  async function newApplication(on: number | { id: string; code: string } = network) {
    const target = typeof on === 'number' ? network : on;
    let user = owner;
    if (typeof on === 'number') {
      user = await newAppUser(t);
      await setAllowances(t.db.db, user.accountId, { rateLimit: on });
      await activate(t, user.accountId, target.id);
    }
    const created = await createApplication(t, user, [target.id]);
    const token = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${created.clientId}:${created.clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    return { created, network: target, token: ZTokenResponse.parse(await token.json()).access_token };
  }

  /** The calls counted for an application so far (the recorder writes every second). */
  const countedCalls = async (applicationId: string) => {
    const rows = await t.db.db
      .select()
      .from(gatewayUsageHourly)
      .where(eq(gatewayUsageHourly.applicationId, applicationId));
    return rows.reduce((sum, row) => sum + row.calls, 0);
  };

  const rpc = (token: string, networkRef: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/gateway/${networkRef}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers a shared answer itself, as the route does, and counts the call', async () => {
    const { created, token } = await newApplication();
    const first = await rpc(token, network.code, CHAIN_ID);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-gateway-cache')).toBeNull(); // forwarded by the route, then shared
    const head = ((await first.json()) as { result: string }).result;
    const before = { ...counts };

    const hit = await rpc(token, network.code, { ...CHAIN_ID, id: 'abc' }, { 'x-request-id': 'req-42' });
    expect(counts.answered - before.answered).toBe(1);
    expect(hit.status).toBe(200);
    expect(await hit.json()).toEqual({ jsonrpc: '2.0', id: 'abc', result: head });
    expect(hit.headers.get('x-gateway-cache')).toBe('hit');
    expect(hit.headers.get('x-request-id')).toBe('req-42');
    expect(hit.headers.get('content-type')).toBe('application/json; charset=utf-8');

    // The same hit through Fastify (inject never reaches the fast path) answers the same way.
    const routed = await t.app.inject({
      method: 'POST',
      url: `/api/gateway/${network.code}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify({ ...CHAIN_ID, id: 'abc' }),
    });
    expect(routed.statusCode).toBe(200);
    expect(routed.json()).toEqual({ jsonrpc: '2.0', id: 'abc', result: head });
    expect(routed.headers['x-gateway-cache']).toBe('hit');
    expect(routed.headers['content-type']).toBe('application/json; charset=utf-8');

    // Two forwarded or routed, one answered here: all counted (the recorder writes every few seconds).
    await expect
      .poll(
        async () => {
          const rows = await t.db.db
            .select()
            .from(gatewayUsageHourly)
            .where(eq(gatewayUsageHourly.applicationId, created.id));
          return rows.reduce((sum, row) => sum + row.calls, 0);
        },
        { timeout: 10_000, interval: 250 },
      )
      .toBe(3);
  });

  it('forwards a call it decided itself, answering as the route does, and counts it', async () => {
    const { created, token } = await newApplication();
    await rpc(token, network.code, CHAIN_ID); // the route and secret are known from here on
    const before = { ...counts };
    // Another method: forwarded here, not by the route.
    const body = { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [ADDRESS_ONE, 'latest'] };
    const balance = await rpc(token, network.code, body, { 'x-request-id': 'req-43' });
    expect(counts).toEqual({ answered: before.answered + 1, handedOn: before.handedOn });
    expect(balance.status).toBe(200);
    expect(balance.headers.get('x-request-id')).toBe('req-43');
    expect(balance.headers.get('x-gateway-cache')).toBeNull();
    const answer = await balance.json();
    expect(answer).toMatchObject({ id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    // A batch too (never shared, every call allowed).
    const batch = await rpc(token, network.code, [BLOCK_NUMBER, { ...BLOCK_NUMBER, id: 8 }]);
    expect(batch.status).toBe(200);
    expect(((await batch.json()) as unknown[]).length).toBe(2);
    expect(counts).toEqual({ answered: before.answered + 2, handedOn: before.handedOn });

    // The same forward through Fastify alone answers the same way.
    const routed = await t.app.inject({
      method: 'POST',
      url: `/api/gateway/${network.code}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify(body),
    });
    expect(routed.statusCode).toBe(balance.status);
    expect(routed.json()).toEqual(answer);
    expect(routed.headers['content-type']).toBe(balance.headers.get('content-type'));
    expect(routed.headers['x-gateway-cache']).toBeUndefined();

    // The chain id (1), the balance and both calls of the batch here, the balance through Fastify: 5.
    await expect.poll(() => countedCalls(created.id), { timeout: 10_000, interval: 250 }).toBe(5);
  });

  it('hands everything else to the route, with the body it read', async () => {
    const { token } = await newApplication();
    await rpc(token, network.code, BLOCK_NUMBER); // the route and secret are known from here on
    const before = { ...counts };
    // A body that is not JSON-RPC: the route's 400, with the body replayed.
    const bad = await rpc(token, network.code, '{"not":"rpc"}');
    expect(bad.status).toBe(400);
    expect(ZProblem.parse(await bad.json()).detail).toMatch(/JSON-RPC 2.0 request/);
    expect(counts.handedOn - before.handedOn).toBe(1);
    // A log query ending at 'latest': bounded with the chain head by the route.
    const logs = await rpc(token, network.code, {
      jsonrpc: '2.0',
      id: 3,
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', toBlock: 'latest' }],
    });
    expect(logs.status).toBe(200);
    expect(await logs.json()).toMatchObject({ id: 3, result: [] });
    expect(counts.handedOn - before.handedOn).toBe(2);
    expect(counts.answered).toBe(before.answered);
  });

  it('hands a forward the network does not answer to the route: its 502, as through the route alone', async () => {
    const dead = await addNetwork(t, { rpcUrl: 'http://127.0.0.1:1/', chainId: chain.chainId });
    await activate(t, owner.accountId, dead.id);
    const { token } = await newApplication(dead);
    await rpc(token, dead.code, BLOCK_NUMBER); // the route and secret are known from here on
    const before = { ...counts };
    const { viaFastPath, viaRoute } = await both(token, dead.code, BLOCK_NUMBER);
    expect(viaFastPath).toEqual(viaRoute);
    expect(viaFastPath).toMatchObject({ status: 502, problem: { code: 'UPSTREAM_UNREACHABLE' } });
    expect(counts).toEqual({ answered: before.answered, handedOn: before.handedOn + 1 });
  });

  it('hands a method outside the allow-list to the route, which refuses it with -32601', async () => {
    const { token } = await newApplication();
    await rpc(token, network.code, CHAIN_ID); // the route and secret are known from here on
    const before = { ...counts };
    const refused = await rpc(token, network.code, { jsonrpc: '2.0', id: 9, method: 'anvil_setBalance', params: [] });
    expect(counts.handedOn - before.handedOn).toBe(1);
    expect(counts.answered).toBe(before.answered);
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32601 } });
    // The shared answers are still the fast path's.
    expect((await rpc(token, network.code, CHAIN_ID)).headers.get('x-gateway-cache')).toBe('hit');
    expect(counts.answered - before.answered).toBe(1);
  });

  it('leaves unknown tokens, other URLs and long bodies to Fastify untouched', async () => {
    const before = { ...counts };
    const forged = await rpc('not-a-token', network.code, BLOCK_NUMBER);
    expect(forged.status).toBe(401);
    const { token } = await newApplication();
    const unknown = await rpc(token, 'no-such-network', BLOCK_NUMBER);
    expect(unknown.status).toBe(404);
    const long = await rpc(token, network.code, { ...BLOCK_NUMBER, padding: 'x'.repeat(5_000) });
    expect(long.status).toBe(200);
    expect(counts).toEqual(before);
  });

  it('refuses over the rate limit through the route: 429 with Retry-After', async () => {
    const { network: limited, token } = await newApplication(2);
    // Every plan's bucket holds a batch of 100: that empties it.
    const batch = Array.from({ length: 100 }, (_, id) => ({ ...BLOCK_NUMBER, id }));
    expect((await rpc(token, limited.code, batch)).status).toBe(200);
    const statuses: number[] = [];
    const retryAfter: (string | null)[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await rpc(token, limited.code, BLOCK_NUMBER);
      statuses.push(res.status);
      retryAfter.push(res.headers.get('retry-after'));
      await res.arrayBuffer();
    }
    // Two per second: six requests within a second or two after the batch cannot all pass.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const refused = statuses.indexOf(429);
    expect(retryAfter[refused]).toMatch(/^\d+$/);
  });

  it('stops answering a revoked secret’s token at once', async () => {
    const { created, token } = await newApplication();
    await rpc(token, network.code, CHAIN_ID);
    expect((await rpc(token, network.code, CHAIN_ID)).headers.get('x-gateway-cache')).toBe('hit');
    await rotateSecret(t, owner, created.id, 0);
    const refused = await rpc(token, network.code, CHAIN_ID);
    expect(refused.status).toBe(401);
  });

  it('stops answering the tokens of an account without an active user at once, and answers them again once one is restored', async () => {
    const { created, token } = await newApplication(1000);
    // What user management does (issue 32 §3): the account's status, then the announcement.
    const setAccountStatus = async (status: 'ACTIVE' | 'REMOVED') => {
      await t.db.db.execute(sql`update accounts set status = ${status} where id = ${created.accountId}`);
      applicationChanges(t.app.deps).changed(created.id);
    };
    await rpc(token, network.code, CHAIN_ID);
    expect((await rpc(token, network.code, CHAIN_ID)).headers.get('x-gateway-cache')).toBe('hit');

    await setAccountStatus('REMOVED');
    const before = { ...counts };
    // The first read again by the route, the second refused from this node's memory: both alike.
    for (let i = 0; i < 2; i++) {
      const refused = await rpc(token, network.code, CHAIN_ID);
      expect(refused.status).toBe(401);
      expect(ZProblem.parse(await refused.json()).code).toBe('GATEWAY_SECRET_REVOKED');
    }
    expect(counts.answered).toBe(before.answered);

    await setAccountStatus('ACTIVE');
    expect((await rpc(token, network.code, CHAIN_ID)).status).toBe(200);
    const restored = { ...counts };
    const hit = await rpc(token, network.code, CHAIN_ID);
    expect(hit.status).toBe(200);
    expect(counts.answered - restored.answered).toBe(1);
  });

  /** What a client sees of an answer: status, the problem's code, title and detail, the challenge and retry headers. */
  function seen(status: number, headers: (name: string) => string | undefined, text: string) {
    const body = JSON.parse(text) as Record<string, unknown>;
    return {
      status,
      contentType: headers('content-type'),
      wwwAuthenticate: headers('www-authenticate'),
      retryAfter: headers('retry-after') === undefined ? 'absent' : 'present',
      problem: { code: body.code, title: body.title, detail: body.detail, status: body.status },
      rpcError: body.error,
    };
  }

  /** The same request over the socket (where the fast path runs first) and through inject (the route only). */
  async function both(token: string | null, networkRef: string, body: unknown) {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const socket = await fetch(`${base}/api/gateway/${networkRef}`, { method: 'POST', headers, body: payload });
    const injected = await t.app.inject({ method: 'POST', url: `/api/gateway/${networkRef}`, headers, payload });
    return {
      viaFastPath: seen(socket.status, (name) => socket.headers.get(name) ?? undefined, await socket.text()),
      viaRoute: seen(injected.statusCode, (name) => injected.headers[name]?.toString(), injected.body),
    };
  }

  it('refuses each reason the same way with the fast path in front as through the route alone', async () => {
    const { created, token } = await newApplication();
    await rpc(token, network.code, CHAIN_ID); // known from here on: the fast path decides what follows
    const other = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId });
    const noRpc = await addNetwork(t, { rpcUrl: null, name: 'Chain without RPC' });
    await activate(t, owner.accountId, other.id, noRpc.id);
    const { token: noRpcApp } = await newApplication(noRpc);
    const { token: inactiveApp } = await newApplication(other);
    await t.db.db
      .delete(accountNetworks)
      .where(and(eq(accountNetworks.accountId, owner.accountId), eq(accountNetworks.networkId, other.id)));

    const cases: [string, string | null, string, unknown, string][] = [
      ['no token', null, network.code, CHAIN_ID, 'GATEWAY_TOKEN_REQUIRED'],
      ['a forged token', 'not-a-token', network.code, CHAIN_ID, 'GATEWAY_TOKEN_INVALID'],
      ['an unknown network', token, 'no-such-network', CHAIN_ID, 'GATEWAY_NETWORK_UNKNOWN'],
      [
        'a network of the account, not of the application',
        token,
        other.code,
        CHAIN_ID,
        'GATEWAY_NETWORK_NOT_ASSOCIATED',
      ],
      ['a network the account deactivated', inactiveApp, other.code, CHAIN_ID, 'GATEWAY_NETWORK_INACTIVE'],
      ['a network without an RPC endpoint', noRpcApp, noRpc.code, CHAIN_ID, 'GATEWAY_NO_RPC_ENDPOINT'],
      ['a body that is not JSON-RPC', token, network.code, '{"not":"rpc"}', 'GATEWAY_INVALID_RPC'],
      ['a batch of 101 calls', token, network.code, Array.from({ length: 101 }, () => 0), 'GATEWAY_BATCH_TOO_LARGE'],
    ];
    for (const [reason, caller, networkRef, body, code] of cases) {
      const before = { ...counts };
      const { viaFastPath, viaRoute } = await both(caller, networkRef, body);
      expect(viaFastPath, reason).toEqual(viaRoute);
      expect(viaFastPath.problem.code, reason).toBe(code);
      expect(viaFastPath.contentType, reason).toMatch(/^application\/problem\+json/);
      // Refused at admission: left to the route untouched; refused on the body: decided, then answered by the route.
      const decided = code === 'GATEWAY_INVALID_RPC' || code === 'GATEWAY_BATCH_TOO_LARGE';
      expect(counts, reason).toEqual({ answered: before.answered, handedOn: before.handedOn + (decided ? 1 : 0) });
    }

    // A revoked secret, once its token was known on this node.
    await rotateSecret(t, owner, created.id, 0);
    const revoked = await both(token, network.code, CHAIN_ID);
    expect(revoked.viaFastPath).toEqual(revoked.viaRoute);
    expect(revoked.viaFastPath.problem.code).toBe('GATEWAY_SECRET_REVOKED');
  });

  it('refuses over the rate limit the same way with the fast path in front as through the route alone', async () => {
    const { network: limited, token } = await newApplication(1);
    const batch = Array.from({ length: 100 }, (_, id) => ({ ...BLOCK_NUMBER, id }));
    expect((await rpc(token, limited.code, batch)).status).toBe(200);
    const before = { ...counts };
    const { viaFastPath, viaRoute } = await both(token, limited.code, BLOCK_NUMBER);
    expect(viaFastPath).toEqual(viaRoute);
    expect(viaFastPath).toMatchObject({
      status: 429,
      retryAfter: 'present',
      rpcError: {
        code: -32005,
        message:
          'Your plan allows 1 requests a second per network, shared by your account’s applications: retry in 1 s.',
        data: { code: 'GATEWAY_RATE_LIMITED', allowedRps: 1, backoffSeconds: 1 },
      },
    });
    expect(viaFastPath.contentType).toMatch(/^application\/json/);
    expect(counts).toEqual({ answered: before.answered, handedOn: before.handedOn + 1 });
  });

  it('answers eth_chainId from its copy on the fast path when the rate limit is used up: constants cost nothing', async () => {
    const { network: limited, token } = await newApplication(1);
    await rpc(token, limited.code, CHAIN_ID); // the gateway's copy, shared by every caller
    const batch = Array.from({ length: 100 }, (_, id) => ({ ...BLOCK_NUMBER, id }));
    expect((await rpc(token, limited.code, batch)).status).toBe(200);
    const before = { ...counts };
    for (let i = 0; i < 5; i++) {
      const hit = await rpc(token, limited.code, CHAIN_ID);
      expect(hit.status).toBe(200);
      expect(hit.headers.get('x-gateway-cache')).toBe('hit');
      await hit.arrayBuffer();
    }
    expect(counts).toEqual({ answered: before.answered + 5, handedOn: before.handedOn });
    expect((await rpc(token, limited.code, BLOCK_NUMBER)).status).toBe(429);
  });
});

/** With GATEWAY_CACHE=off every call is forwarded: the fast path forwards it, as the route would. */
describe('platform API: the gateway fast path without shared answers', () => {
  let t: TestContext;
  let chain: TestChain;
  let base: string;

  beforeAll(async () => {
    [t, chain] = await Promise.all([createTestApp({ GATEWAY_CACHE: 'off' }), startTestChain()]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  it('forwards every call of a known caller itself and counts it', async () => {
    const handlers = t.app.deps.rawHandlers;
    expect(handlers).toHaveLength(1);
    const fast = handlers[0]!;
    let answered = 0;
    handlers[0] = (req, res, next) => {
      let handedOn = false;
      const taken = fast(req, res, (request, response) => {
        handedOn = true;
        next(request, response);
      });
      if (taken) res.once('finish', () => handedOn || answered++);
      return taken;
    };

    const owner = await newAppUser(t);
    await liftPlanLimits(t, owner.accountId);
    const network = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId });
    await activate(t, owner.accountId, network.id);
    const created = await createApplication(t, owner, [network.id]);
    const issued = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${created.clientId}:${created.clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    const token = ZTokenResponse.parse(await issued.json()).access_token;
    const call = () =>
      fetch(`${base}/api/gateway/${network.code}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(BLOCK_NUMBER),
      });
    expect((await call()).status).toBe(200); // the route: the token, secret and route are read
    for (let i = 0; i < 3; i++) {
      const response = await call();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-gateway-cache')).toBeNull();
      expect(await response.json()).toMatchObject({ id: 7, result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    }
    expect(answered).toBe(3);
    await expect
      .poll(
        async () => {
          const rows = await t.db.db
            .select()
            .from(gatewayUsageHourly)
            .where(eq(gatewayUsageHourly.applicationId, created.id));
          return rows.reduce((sum, row) => sum + row.calls, 0);
        },
        { timeout: 10_000, interval: 250 },
      )
      .toBe(4);
  });
});
