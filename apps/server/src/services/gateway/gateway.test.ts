import { and, eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountNetworks, applications, applicationSecrets, gatewayUsageHourly } from '@connect/db';
import { type ZCreateApplicationResponse, ZProblem, ZRotateSecretResponse, ZTokenResponse } from '@connect/shared';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { putOnPlan, setAllowances } from '../../../test/plans.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import {
  activate,
  addNetwork,
  liftPlanLimits,
  createApplication,
  newAppUser,
  rotateSecret,
  type TestUser,
} from '../application-manager/testing.ts';
import { countCalls } from './methods.ts';
import { loadAccessTokenKey } from './access-tokens.ts';
import { applicationChanges } from '../../lib/application-changes.ts';
import { OutboxRepository } from '../../events/repository.ts';
import { GATEWAY_CACHE_MS } from './credential-cache.ts';
import { GatewayRepository } from './repository.ts';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('platform API: OAuth2 token and JSON-RPC gateway', () => {
  let t: TestContext;
  let chain: TestChain;
  let owner: TestUser;
  let stranger: TestUser;
  let network: { id: string; code: string };
  let otherNetwork: { id: string };
  let app: ReturnType<typeof ZCreateApplicationResponse.parse>;

  beforeAll(async () => {
    [t, chain] = await Promise.all([createTestApp(), startTestChain()]);
    owner = await newAppUser(t);
    stranger = await newAppUser(t);
    for (const user of [owner, stranger]) await liftPlanLimits(t, user.accountId);
    network = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, rateLimit: 1000 });
    otherNetwork = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId });
    await activate(t, owner.accountId, network.id, otherNetwork.id);
    await activate(t, stranger.accountId, network.id);
    app = await createApp(owner, [network.id]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  /**
   * Runs `run` with the clock the gateway's caches and rate limiter read (Date) moved on by `ms`,
   * instead of waiting that long; `moveOn` inside moves it further.
   */
  async function later<T>(ms: number, run: (moveOn: (ms: number) => void) => Promise<T>): Promise<T> {
    const moveOn = (by: number) => vi.setSystemTime(Date.now() + by);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    moveOn(ms);
    try {
      return await run(moveOn);
    } finally {
      vi.useRealTimers();
    }
  }

  const createApp = (user: TestUser, networkIds: string[]) =>
    createApplication(t, user, networkIds, `Gateway app ${Math.random().toString(36).slice(2, 8)}`);

  const tokenRequest = (payload: string | object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: {
        'content-type': typeof payload === 'string' ? 'application/x-www-form-urlencoded' : 'application/json',
        ...headers,
      },
      payload,
    });

  async function tokenFor(clientId: string, secret: string) {
    const res = await tokenRequest('grant_type=client_credentials', { authorization: basic(clientId, secret) });
    expect(res.statusCode, res.body).toBe(200);
    return ZTokenResponse.parse(res.json()).access_token;
  }

  const rpc = (token: string | null, networkRef: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/gateway/${networkRef}`,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: JSON.stringify(payload),
    });

  describe('POST /oauth2/token', () => {
    it('issues a one-hour bearer token for HTTP Basic credentials', async () => {
      const res = await tokenRequest('grant_type=client_credentials', {
        authorization: basic(app.clientId, app.clientSecret),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = ZTokenResponse.parse(res.json());
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      const payload = JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(payload).toMatchObject({ sub: app.id, acc: owner.accountId, sid: app.secrets[0]!.id });
      expect(Number(payload.exp) - Number(payload.iat)).toBe(3600);
    });

    it('accepts credentials in the form body and in JSON', async () => {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }).toString();
      expect((await tokenRequest(form)).statusCode).toBe(200);
      const json = await tokenRequest({
        grant_type: 'client_credentials',
        client_id: app.clientId,
        client_secret: app.clientSecret,
      });
      expect(json.statusCode).toBe(200);
    });

    it('answers RFC 6749 errors', async () => {
      const wrong = await tokenRequest('grant_type=client_credentials', {
        authorization: basic(app.clientId, `${app.clientSecret}x`),
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: 'invalid_client' });
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);

      const unknownClient = await tokenRequest('grant_type=client_credentials', {
        authorization: basic('nobody', app.clientSecret),
      });
      expect(unknownClient.statusCode).toBe(401);
      // A NUL in the decoded client id never reaches the database (PostgreSQL text refuses it: 500).
      const nulClient = await tokenRequest('grant_type=client_credentials', { authorization: basic('a\u0000b', 'x') });
      expect(nulClient.statusCode).toBe(401);
      expect(nulClient.json()).toMatchObject({ error: 'invalid_client' });
      const noCredentials = await tokenRequest('grant_type=client_credentials');
      expect(noCredentials.json()).toMatchObject({ error: 'invalid_client' });

      const noGrant = await tokenRequest('', { authorization: basic(app.clientId, app.clientSecret) });
      expect(noGrant.statusCode).toBe(400);
      expect(noGrant.json()).toMatchObject({ error: 'invalid_request' });
      const otherGrant = await tokenRequest('grant_type=password', {
        authorization: basic(app.clientId, app.clientSecret),
      });
      expect(otherGrant.statusCode).toBe(400);
      expect(otherGrant.json()).toMatchObject({ error: 'unsupported_grant_type' });
      const twoMethods = await tokenRequest(`grant_type=client_credentials&client_secret=${app.clientSecret}`, {
        authorization: basic(app.clientId, app.clientSecret),
      });
      expect(twoMethods.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('answers bodies it cannot read with problem details, not 500, and issues nothing', async () => {
      const auth = { authorization: basic(app.clientId, app.clientSecret) };
      const raw = (contentType: string, payload: string) =>
        t.app.inject({
          method: 'POST',
          url: '/oauth2/token',
          headers: { 'content-type': contentType, ...auth },
          payload,
        });
      const cases: [string, Promise<Awaited<ReturnType<typeof raw>>>, number][] = [
        ['broken JSON', raw('application/json', '{"grant_type":'), 400],
        ['empty JSON', raw('application/json', ''), 400],
        ['XML', raw('application/xml', '<grant_type>client_credentials</grant_type>'), 415],
        ['a 1 MB form field', raw('application/x-www-form-urlencoded', `grant_type=${'a'.repeat(1_000_000)}`), 413],
        [
          'a body over 1 MB',
          raw('application/json', JSON.stringify({ grant_type: 'client_credentials', pad: 'a'.repeat(1_100_000) })),
          413,
        ],
      ];
      for (const [name, pending, status] of cases) {
        const res = await pending;
        expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBe(status);
        expect(res.headers['content-type'], name).toMatch(/^application\/problem\+json/);
        const body = res.json() as Record<string, unknown>;
        expect(ZProblem.parse(body).status, name).toBe(status);
        expect(
          Object.keys(body).every((key) => key in ZProblem.shape),
          name,
        ).toBe(true);
        expect(res.body, name).not.toMatch(/FST_|\bat .+:\d+|stack/);
        expect(body.access_token, name).toBeUndefined();
      }
      // A 1 MB field inside a JSON body under the limit is a credential error in the OAuth2 shape.
      const longJson = await tokenRequest({
        grant_type: 'client_credentials',
        client_id: 'a'.repeat(1_000_000),
        client_secret: 'x',
      });
      expect(longJson.statusCode).toBe(401);
      expect(longJson.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    });
  });

  describe('POST /api/gateway/{networkId}', () => {
    it('reads eth_blockNumber from the chain, by network id and by code, single and batch', async () => {
      const token = await tokenFor(app.clientId, app.clientSecret);
      await rpcCall(chain.rpcUrl, 'evm_mine', []);
      const direct = await rpcCall<string>(chain.rpcUrl, 'eth_blockNumber', []);
      const res = await rpc(token, network.id, { jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: direct });

      const byCode = await rpc(token, network.code, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
      expect(Number(BigInt((byCode.json() as { result: string }).result))).toBe(chain.chainId);

      const batch = await rpc(token, network.id, [
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
      ]);
      const answers = batch.json() as { id: number; result: string }[];
      expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
      expect(answers.find((a) => a.id === 1)!.result).toBe(direct);
    });

    it('answers eth_blockNumber and eth_chainId from the shared cache, with the caller’s id, and follows the head', async () => {
      const token = await tokenFor(app.clientId, app.clientSecret);
      const head = () => rpc(token, network.id, { jsonrpc: '2.0', id: 'mine', method: 'eth_blockNumber', params: [] });
      const first = await head();
      expect(first.statusCode, first.body).toBe(200);
      const again = await head();
      // Both calls may have been answered from the cache (an earlier test's answer); the second one is.
      expect(again.headers['x-gateway-cache']).toBe('hit');
      expect(again.json()).toEqual({ jsonrpc: '2.0', id: 'mine', result: (first.json() as { result: string }).result });

      // A new block shows within the cache's lifetime (HEAD_TTL_MS, 250 ms).
      await rpcCall(chain.rpcUrl, 'evm_mine', []);
      const mined = await rpcCall<string>(chain.rpcUrl, 'eth_blockNumber', []);
      await expect
        .poll(async () => ((await head()).json() as { result: string }).result, { timeout: 5_000, interval: 50 })
        .toBe(mined);

      const chainId = () => rpc(token, network.id, { jsonrpc: '2.0', id: 3, method: 'eth_chainId' });
      await chainId();
      const cachedChainId = await chainId();
      expect(cachedChainId.headers['x-gateway-cache']).toBe('hit');
      expect(Number(BigInt((cachedChainId.json() as { result: string }).result))).toBe(chain.chainId);

      // Other methods, batches and calls with parameters always go to the node.
      const balance = await rpc(token, network.id, {
        jsonrpc: '2.0',
        id: 4,
        method: 'eth_getBalance',
        params: ['0x0000000000000000000000000000000000000000', 'latest'],
      });
      expect(balance.statusCode).toBe(200);
      expect(balance.headers['x-gateway-cache']).toBeUndefined();
      const batch = await rpc(token, network.id, [{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }]);
      expect(batch.headers['x-gateway-cache']).toBeUndefined();
    });

    it('refuses missing, forged and other-audience tokens', async () => {
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      const none = await rpc(null, network.id, call);
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(ZProblem.parse(none.json()).status).toBe(401);
      expect((await rpc('not.a.token', network.id, call)).statusCode).toBe(401);
      // A portal session token is not a platform API token.
      expect((await rpc(owner.accessToken, network.id, call)).statusCode).toBe(401);
    });

    it('refuses a token signed with the gateway’s key but without an expiry', async () => {
      const key = await loadAccessTokenKey(new GatewayRepository(t.app.deps.dbh), t.app.deps.box);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };
      const claims = { client_id: app.clientId, acc: owner.accountId, sid: app.secrets[0]!.id };
      const signed = (withExpiry: boolean) => {
        const jwt = new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setIssuer('http://localhost/oauth2')
          .setAudience('platform-api')
          .setSubject(app.id)
          .setIssuedAt();
        return (withExpiry ? jwt.setExpirationTime('1h') : jwt).sign(key);
      };
      // The same token with an expiry is accepted: only the missing exp is refused.
      expect((await rpc(await signed(true), network.id, call)).statusCode).toBe(200);
      const refused = await rpc(await signed(false), network.id, call);
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(ZProblem.parse(refused.json()).detail).toMatch(/invalid or has expired/);
    });

    it('refuses networks not associated with the application, unknown networks and bad bodies', async () => {
      const token = await tokenFor(app.clientId, app.clientSecret);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      const notAssociated = await rpc(token, otherNetwork.id, call);
      expect(notAssociated.statusCode).toBe(403);
      expect(ZProblem.parse(notAssociated.json()).detail).toMatch(/not associated/);
      expect((await rpc(token, crypto.randomUUID(), call)).statusCode).toBe(404);
      expect((await rpc(token, 'no-such-network', call)).statusCode).toBe(404);
      for (const body of [{}, [], { method: 3 }, Array.from({ length: 101 }, () => call)]) {
        const res = await rpc(token, network.id, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      }
      const garbage = await t.app.inject({
        method: 'POST',
        url: `/api/gateway/${network.id}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: '{not json',
      });
      expect(garbage.statusCode).toBe(400);
    });

    it('refuses a network the application’s account deactivated', async () => {
      const other = await createApp(owner, [network.id, otherNetwork.id]);
      const token = await tokenFor(other.clientId, other.clientSecret);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      expect((await rpc(token, otherNetwork.id, call)).statusCode).toBe(200);
      await t.db.db
        .delete(accountNetworks)
        .where(and(eq(accountNetworks.accountId, owner.accountId), eq(accountNetworks.networkId, otherNetwork.id)));
      // Past the route cache's lifetime.
      const res = await later(2_100, () => rpc(token, otherNetwork.id, call));
      expect(res.statusCode).toBe(403);
      expect(ZProblem.parse(res.json()).detail).toMatch(/not active/);
      await activate(t, owner.accountId, otherNetwork.id);
    });

    it('another account’s application cannot use the owner’s networks', async () => {
      const theirs = await createApp(stranger, [network.id]);
      const token = await tokenFor(theirs.clientId, theirs.clientSecret);
      const res = await rpc(token, otherNetwork.id, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
      expect(res.statusCode).toBe(403);
    });

    it('limits each account to its plan’s rate on each network, not the network’s: what is sold is what is enforced', async () => {
      // The catalogue's networks say 25 a second; a plan that sells 150 gets 150.
      const user = await newAppUser(t);
      await setAllowances(t.db.db, user.accountId, { rateLimit: 150 });
      const limited = await addNetwork(t, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, rateLimit: 25 });
      await activate(t, user.accountId, limited.id);
      const planned = await createApp(user, [limited.id]);
      const token = await tokenFor(planned.clientId, planned.clientSecret);
      const batch = (n: number, from = 1) =>
        Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: from + i, method: 'eth_blockNumber', params: [] }));
      // The network's 25 does not apply: a batch of 100 passes on the plan's 150.
      expect((await rpc(token, limited.id, batch(100))).statusCode).toBe(200);
      // Batches of 100 back to back outrun 150 a second: refused, and back within a second.
      let refused;
      for (let i = 0; i < 10 && !refused; i++) {
        const res = await rpc(token, limited.id, batch(100, 7));
        if (res.statusCode === 429) refused = res;
        else expect(res.statusCode).toBe(200);
      }
      expect(refused?.statusCode).toBe(429);
      expect(refused!.headers['retry-after']).toBe('1');
      const errors = refused!.json() as { id: number; error: { code: number; message: string } }[];
      expect(errors.map((answer) => answer.id)).toEqual(batch(100, 7).map((call) => call.id));
      expect(errors[0]).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32005,
          message:
            'Your plan allows 150 requests a second per network, shared by your account’s applications: retry in 1 s.',
          data: { code: 'GATEWAY_RATE_LIMITED', allowedRps: 150, backoffSeconds: 1 },
        },
      });
    });

    it('takes a batch of up to 100 calls at 25 a second (ethers and web3.js batch), with a Retry-After that can succeed', async () => {
      const user = await newAppUser(t);
      await setAllowances(t.db.db, user.accountId, { rateLimit: 25 });
      await activate(t, user.accountId, network.id);
      const planned = await createApp(user, [network.id]);
      const token = await tokenFor(planned.clientId, planned.clientSecret);
      const batch = Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'eth_blockNumber',
        params: [],
      }));
      const answered = await rpc(token, network.id, batch);
      expect(answered.statusCode, answered.body).toBe(200);
      expect(answered.json()).toHaveLength(100);
      // The next 100 are there in 4 s at 25 a second: that is what Retry-After says, one error per call.
      const refused = await rpc(token, network.id, batch);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(3);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(4);
      const errors = refused.json() as { id: number; error: { code: number } }[];
      expect(errors.map((answer) => [answer.id, answer.error.code])).toEqual(batch.map((call) => [call.id, -32005]));
    });

    it('answers eth_chainId from the gateway’s copy without taking from the limit; a refused call is a JSON-RPC error', async () => {
      const user = await newAppUser(t);
      await setAllowances(t.db.db, user.accountId, { rateLimit: 1 });
      await activate(t, user.accountId, network.id);
      const planned = await createApp(user, [network.id]);
      const token = await tokenFor(planned.clientId, planned.clientSecret);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      const chainId = { jsonrpc: '2.0', id: 'c', method: 'eth_chainId', params: [] };
      // The gateway's copy of the chain id is filled (by anyone: it is shared, so perhaps free already).
      expect((await rpc(token, network.id, chainId)).statusCode).toBe(200);
      const batch = Array.from({ length: 100 }, (_, i) => ({ ...call, id: i + 1 }));
      expect((await rpc(token, network.id, batch)).statusCode).toBe(200);
      // Used up: eth_chainId from the copy still answers, and costs nothing.
      for (let i = 0; i < 5; i++) {
        const hit = await rpc(token, network.id, chainId);
        expect(hit.statusCode).toBe(200);
        expect(hit.headers['x-gateway-cache']).toBe('hit');
      }
      const refused = await rpc(token, network.id, { ...call, id: 42 });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({
        jsonrpc: '2.0',
        id: 42,
        error: {
          code: -32005,
          message:
            'Your plan allows 1 requests a second per network, shared by your account’s applications: retry in 1 s.',
          data: { code: 'GATEWAY_RATE_LIMITED', allowedRps: 1, backoffSeconds: 1 },
        },
      });
      // The promise is kept: after Retry-After the call passes.
      expect((await later(1_000, () => rpc(token, network.id, { ...call, id: 43 }))).statusCode).toBe(200);
    });

    it('an upgrade or a lapse reaches the gateway within the route cache’s 2 s', async () => {
      const user = await newAppUser(t);
      await setAllowances(t.db.db, user.accountId, { rateLimit: 2 });
      await activate(t, user.accountId, network.id);
      const planned = await createApp(user, [network.id]);
      const token = await tokenFor(planned.clientId, planned.clientSecret);
      const batch = (n: number) =>
        Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'eth_blockNumber', params: [] }));
      // Two a second with the bucket of 100 every plan has: a second batch of 100 waits 50 s.
      expect((await rpc(token, network.id, batch(100))).statusCode).toBe(200);
      const limited = await rpc(token, network.id, batch(100));
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(49);

      // annual-advance allows 200 a second: after the route cache's lifetime, the new figure applies.
      await putOnPlan(t.db.db, user.accountId, 'annual-advance');
      await later(2_100, async (moveOn) => {
        expect((await rpc(token, network.id, batch(100))).statusCode).toBe(200);

        await putOnPlan(t.db.db, user.accountId, 'annual-advance', {
          status: 'INACTIVE',
          statusReason: 'RENEWAL_FAILED',
        });
        moveOn(2_100);
        const refused = await rpc(token, network.id, batch(1)[0]);
        expect(refused.statusCode).toBe(403);
        expect(ZProblem.parse(refused.json()).code).toBe('PLAN_INACTIVE');
      });
    });

    it('counts usage per application, network, method and hour, written in batches; screened calls are not counted', async () => {
      const counted = await createApp(owner, [network.id]);
      const token = await tokenFor(counted.clientId, counted.clientSecret);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      const chainId = { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] };
      const refused = { jsonrpc: '2.0', id: 3, method: 'anvil_setBalance', params: [] };
      for (let i = 0; i < 3; i++) expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      expect((await rpc(token, network.id, [call, chainId])).statusCode).toBe(200);
      expect((await rpc(token, network.id, [chainId, refused])).statusCode).toBe(200);
      // Refused requests are not counted.
      expect((await rpc(token, otherNetwork.id, call)).statusCode).toBe(403);
      const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
      await expect
        .poll(
          async () => {
            const rows = await t.db.db
              .select()
              .from(gatewayUsageHourly)
              .where(eq(gatewayUsageHourly.applicationId, counted.id));
            return rows
              .map((r) => ({
                networkId: r.networkId,
                method: r.method,
                hour: r.hour,
                calls: r.calls,
                micro: r.microCredits,
              }))
              .sort((a, b) => a.method.localeCompare(b.method));
          },
          { timeout: 5_000 },
        )
        .toEqual([
          { networkId: network.id, method: 'eth_blockNumber', hour, calls: 4, micro: 400 },
          { networkId: network.id, method: 'eth_chainId', hour, calls: 2, micro: 200 },
        ]);
      const usage = await t.app.inject({
        method: 'GET',
        url: `/api/application-manager/application/${counted.id}/usage?days=7`,
        headers: owner.headers,
      });
      expect((usage.json() as { total: number }).total).toBe(6);
    });

    it('refuses an application at its monthly spending cap with 429 until the cap is raised or the month turns; alerts at 85 % and 100 % once', async () => {
      const capped = await createApp(owner, [network.id]);
      const outbox = new OutboxRepository(t.db.db);
      const crossed = async () =>
        (await outbox.ofType('usage.cap_crossed'))
          .filter((event) => event.payload.applicationId === capped.id)
          .map((event) => [event.payload.threshold, event.payload.capCredits, event.payload.usedCredits]);
      // 0.001 credit: ten reads (set directly: the caps endpoint allows two decimals at least).
      const setCap = async (capMicro: number) => {
        await t.db.db.update(applications).set({ monthlyCapMicro: capMicro }).where(eq(applications.id, capped.id));
        applicationChanges(t.app.deps).changed(capped.id);
      };
      await setCap(1_000);
      let token = await tokenFor(capped.clientId, capped.clientSecret);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      for (let i = 0; i < 9; i++) expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      await expect.poll(crossed, { timeout: 5_000 }).toEqual([[85, 0.001, 0.0009]]);
      expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      await expect.poll(crossed, { timeout: 5_000 }).toEqual([
        [85, 0.001, 0.0009],
        [100, 0.001, 0.001],
      ]);
      // The flushing node forgot the route: refused at once, with when to retry.
      const refused = await rpc(token, network.id, call);
      expect(refused.statusCode).toBe(429);
      const now = new Date();
      const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      const seconds = Number(refused.headers['retry-after']);
      expect(Math.abs(seconds - (monthEnd.getTime() - Date.now()) / 1000)).toBeLessThan(5);
      // A JSON-RPC error, as hosted providers answer, so that clients show the reason.
      expect(refused.json()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32005,
          message: expect.stringMatching(/monthly spending cap of 0\.001 credits/),
          data: {
            code: 'GATEWAY_SPENDING_CAP_REACHED',
            allowedRps: 0,
            backoffSeconds: seconds,
            retryAt: monthEnd.toISOString(),
          },
        },
      });
      // A replayed or second node's flush past the cap alerts nothing more.
      await new GatewayRepository(t.app.deps.dbh).addUsage(
        [
          {
            applicationId: capped.id,
            networkId: network.id,
            method: 'eth_call',
            hour: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString(),
            calls: 1,
            microCredits: 100,
          },
        ],
        t.app.events,
      );
      expect(await crossed()).toHaveLength(2);

      // Raised: through again (and a new cap may alert again).
      await setCap(100_000);
      expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      // Lowered under the month's spend: refused; the month turns: through.
      await setCap(1_000);
      expect((await rpc(token, network.id, call)).statusCode).toBe(429);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(monthEnd.getTime() + 1_000);
        token = await tokenFor(capped.clientId, capped.clientSecret);
        expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('secrets and tokens', () => {
    it('a rotated secret works during its grace period and is refused after it expires', async () => {
      const rotating = await createApp(owner, [network.id]);
      const oldToken = await tokenFor(rotating.clientId, rotating.clientSecret);
      const res = await rotateSecret(t, owner, rotating.id, 60);
      const { clientSecret: newSecret } = ZRotateSecretResponse.parse(res.json());
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      // Grace period: the old secret still gets tokens, and its tokens still work.
      const graceToken = await tokenFor(rotating.clientId, rotating.clientSecret);
      expect((await rpc(oldToken, network.id, call)).statusCode).toBe(200);
      expect((await rpc(graceToken, network.id, call)).statusCode).toBe(200);
      const newToken = await tokenFor(rotating.clientId, newSecret);

      // The grace period ends (moved into the past rather than waited for).
      await t.db.db
        .update(applicationSecrets)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(applicationSecrets.id, rotating.secrets[0]!.id));
      const refused = await tokenRequest('grant_type=client_credentials', {
        authorization: basic(rotating.clientId, rotating.clientSecret),
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: 'invalid_client' });
      // Tokens already issued for it stop working within the secret cache's lifetime.
      await expect
        .poll(async () => (await rpc(oldToken, network.id, call)).statusCode, { timeout: 5_000, interval: 250 })
        .toBe(401);
      expect((await rpc(newToken, network.id, call)).statusCode).toBe(200);
    });

    it('revoking now, or deleting the application, refuses its tokens at once on this node', async () => {
      const revoking = await createApp(owner, [network.id]);
      const token = await tokenFor(revoking.clientId, revoking.clientSecret);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      await rotateSecret(t, owner, revoking.id, 0);
      const refused = await rpc(token, network.id, call);
      expect(refused.statusCode).toBe(401);
      expect(ZProblem.parse(refused.json()).detail).toMatch(/revoked or has expired/);

      const deleting = await createApp(owner, [network.id]);
      const deletingToken = await tokenFor(deleting.clientId, deleting.clientSecret);
      expect((await rpc(deletingToken, network.id, call)).statusCode).toBe(200);
      await t.app.inject({
        method: 'DELETE',
        url: `/api/application-manager/application/${deleting.id}`,
        headers: owner.headers,
      });
      expect((await rpc(deletingToken, network.id, call)).statusCode).toBe(401);
    });

    /**
     * Stands in for user management (issue 32 §3): removing an account's last active user sets
     * the account REMOVED, restoring one sets it ACTIVE, and after the commit the change is
     * announced for each of the account's applications unless `isAnnounced` is false (what
     * another node sees: nothing).
     */
    async function setAccountStatus(accountId: string, status: 'ACTIVE' | 'REMOVED', isAnnounced = true) {
      await t.db.db.execute(sql`update accounts set status = ${status} where id = ${accountId}`);
      if (!isAnnounced) return;
      const owned = await t.db.db
        .select({ id: applications.id })
        .from(applications)
        .where(eq(applications.accountId, accountId));
      for (const { id } of owned) applicationChanges(t.app.deps).changed(id);
    }

    /** A new account with an application on the suite's network, and an access token of it that works. */
    async function newAccountApplication() {
      const user = await newAppUser(t);
      await liftPlanLimits(t, user.accountId);
      await activate(t, user.accountId, network.id);
      const created = await createApp(user, [network.id]);
      const token = await tokenFor(created.clientId, created.clientSecret);
      return { user, created, token };
    }

    it('an account without an active user gets no token and its tokens are refused at once; restored, the same credentials work again', async () => {
      const { user, created: first, token: firstToken } = await newAccountApplication();
      const second = await createApp(user, [network.id]);
      const secondToken = await tokenFor(second.clientId, second.clientSecret);
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      for (const token of [firstToken, secondToken]) expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      // What a wrong (or revoked) secret is told: a removed account's client is told exactly that.
      const wrong = await tokenRequest('grant_type=client_credentials', {
        authorization: basic(first.clientId, `${first.clientSecret}x`),
      });
      expect(wrong.statusCode).toBe(401);

      await setAccountStatus(user.accountId, 'REMOVED');
      for (const { clientId, clientSecret } of [first, second]) {
        const refused = await tokenRequest('grant_type=client_credentials', {
          authorization: basic(clientId, clientSecret),
        });
        expect(refused.statusCode, refused.body).toBe(401);
        expect(refused.json()).toEqual(wrong.json());
        expect(refused.headers['www-authenticate']).toBe(wrong.headers['www-authenticate']);
      }
      for (const token of [firstToken, secondToken]) {
        const refused = await rpc(token, network.id, call);
        expect(refused.statusCode).toBe(401);
        expect(ZProblem.parse(refused.json()).code).toBe('GATEWAY_SECRET_REVOKED');
        expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      }
      // Other accounts' applications are not touched.
      expect((await rpc(await tokenFor(app.clientId, app.clientSecret), network.id, call)).statusCode).toBe(200);

      await setAccountStatus(user.accountId, 'ACTIVE');
      for (const token of [firstToken, secondToken]) expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      for (const { clientId, clientSecret } of [first, second]) {
        expect((await rpc(await tokenFor(clientId, clientSecret), network.id, call)).statusCode).toBe(200);
      }
    });

    it('a node not told of the account’s change refuses its tokens within the credential cache’s lifetime, and admits them again as soon', async () => {
      const { user, token } = await newAccountApplication();
      const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
      expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      await setAccountStatus(user.accountId, 'REMOVED', false);
      await later(GATEWAY_CACHE_MS + 100, async (moveOn) => {
        const refused = await rpc(token, network.id, call);
        expect(refused.statusCode).toBe(401);
        expect(ZProblem.parse(refused.json()).code).toBe('GATEWAY_SECRET_REVOKED');

        await setAccountStatus(user.accountId, 'ACTIVE', false);
        moveOn(GATEWAY_CACHE_MS + 100);
        expect((await rpc(token, network.id, call)).statusCode).toBe(200);
      });
    });
  });

  it('counts calls in JSON-RPC bodies', () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' };
    expect(countCalls(call)).toBe(1);
    expect(countCalls([call, call])).toBe(2);
    expect(countCalls([])).toBeNull();
    expect(countCalls([call, 5])).toBeNull();
    expect(countCalls('eth_blockNumber')).toBeNull();
    expect(countCalls(undefined)).toBeNull();
  });
});

describe('platform API: a token refused for the account’s status', () => {
  it('is logged at info with the application and account, and answered as a wrong secret is', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    // An app of its own: the suite's apps log nothing.
    const t = await createTestApp({}, { logger: { level: 'info', stream } });
    try {
      const user = await newAppUser(t);
      const network = await addNetwork(t);
      await activate(t, user.accountId, network.id);
      const created = await createApplication(t, user, [network.id]);
      await t.db.db.execute(sql`update accounts set status = 'REMOVED' where id = ${user.accountId}`);
      const tokenRequest = (secret: string) =>
        t.app.inject({
          method: 'POST',
          url: '/oauth2/token',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic(created.clientId, secret),
          },
          payload: 'grant_type=client_credentials',
        });
      const refused = await tokenRequest(created.clientSecret);
      const wrong = await tokenRequest(`${created.clientSecret}x`);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual(wrong.json());
      const why = lines.filter((line) => line.msg === "access token refused: the application's account is not active");
      expect(why).toEqual([
        expect.objectContaining({
          level: 30,
          clientId: created.clientId,
          applicationId: created.id,
          accountId: user.accountId,
        }),
      ]);
    } finally {
      await t.close();
    }
  });
});
