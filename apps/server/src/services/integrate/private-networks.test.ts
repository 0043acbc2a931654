import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFeatures, privateNetworks } from '@connect/db';
import { NETWORK_MESSAGES, type FeatureName, type TPrivateNetworkRequest, type TUserNetwork } from '@connect/shared';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { putOnPlan } from '../../../test/plans.ts';
import { OutboxRepository } from '../../events/repository.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { IntegrateRepository } from './repository.ts';
import { PRIVATE_NETWORK_CHECKS_PER_MINUTE } from './routes.ts';
import { IntegrateService } from './service.ts';

/** Private networks (spec §3, §5): field rules, the real RPC check, review and removal. */
describe('integrate: private networks', () => {
  let t: TestContext;
  let chain: TestChain;

  beforeAll(async () => {
    [t, chain] = await Promise.all([createTestApp(), startTestChain()]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), chain?.stop()]);
  });

  const form = (overrides: Partial<Record<keyof TPrivateNetworkRequest, unknown>> = {}) => ({
    name: `Acme chain ${Math.floor(Math.random() * 1e9)}`,
    networkType: 'sandbox',
    chainId: chain.chainId,
    eip1559: true,
    numberOfBlocks: 12,
    url: chain.rpcUrl,
    tokenSymbol: 'ACME',
    tokenDecimals: 18,
    nodeType: 'full',
    ...overrides,
  });

  async function newUser(role?: 'QUANT_ADMIN') {
    const user = await signInAs(t, role ? { role } : {});
    const me = await t.app.inject({ method: 'GET', url: `/api/connect/user/${user.sub}`, headers: user.headers });
    return { ...user, accountId: me.json<{ accountId: string }>().accountId };
  }
  type User = Awaited<ReturnType<typeof newUser>>;

  const post = (user: User, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/integrate${url}`, headers: user.headers, payload: payload as object });
  const remove = (user: User, id: string) =>
    t.app.inject({ method: 'DELETE', url: '/api/integrate/private-networks', headers: user.headers, payload: { id } });
  const review = (user: User, id: string, payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/integrate/management/private-networks/${id}/review`,
      headers: user.headers,
      payload,
    });
  const privateList = async (user: User) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/integrate/v2/user-networks?networkType=private',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ networks: TUserNetwork[] }>().networks;
  };

  it('accepts a network whose RPC URL answers with the entered chain id and fee model', async () => {
    const user = await newUser();
    const response = await post(user, '/private-networks/validate', form());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ valid: true, chainId: chain.chainId, eip1559: true });
    expect(response.json().latestBlock).toBeGreaterThanOrEqual(0);
    // Validation stores nothing.
    expect(await privateList(user)).toEqual([]);
  });

  it('explains each failed RPC check under its field', async () => {
    const user = await newUser();
    const wrongChain = await post(user, '/private-networks/validate', form({ chainId: chain.chainId + 1 }));
    expect(wrongChain.statusCode).toBe(400);
    expect(wrongChain.json().invalidParams).toEqual([
      {
        name: 'chainId',
        reason: `The node at this URL reports chain id ${chain.chainId}, not ${chain.chainId + 1}`,
      },
    ]);

    const unreachable = await post(user, '/private-networks', form({ url: 'http://127.0.0.1:1/' }));
    expect(unreachable.statusCode).toBe(400);
    expect(unreachable.json().invalidParams).toEqual([
      {
        name: 'url',
        reason: 'We could not reach a JSON-RPC node at this URL. Check the address and that the node accepts requests',
      },
    ]);

    // anvil has a base fee in every block: saying it has no EIP-1559 fees is a mismatch.
    const feeModel = await post(user, '/private-networks', form({ eip1559: false }));
    expect(feeModel.statusCode).toBe(400);
    expect(feeModel.json().invalidParams).toEqual([
      {
        name: 'eip1559',
        reason: 'This network uses EIP-1559 fees (its latest block has a base fee): turn EIP-1559 on',
      },
    ]);
    expect(await privateList(user)).toEqual([]);
  });

  it('refuses invalid fields with one error per field', async () => {
    const user = await newUser();
    const response = await post(
      user,
      '/private-networks/validate',
      form({
        name: 'Acme <chain>',
        networkType: 'staging',
        chainId: 0,
        numberOfBlocks: 51,
        url: 'ftp://node.example.com',
        tokenSymbol: 'A',
        tokenDecimals: 19,
        nodeType: 'validator',
      }),
    );
    expect(response.statusCode).toBe(400);
    const byName = Object.fromEntries(
      response
        .json<{ invalidParams: { name: string; reason: string }[] }>()
        .invalidParams.map((p) => [p.name, p.reason]),
    );
    expect(byName).toEqual({
      name: 'The network name may only contain letters, numbers, spaces, hyphens and underscores',
      networkType: 'Please choose production or sandbox',
      chainId: 'The chain id must be a positive whole number',
      numberOfBlocks: 'The number of blocks must be a whole number from 1 to 50',
      url: 'Please enter a valid http:// or https:// URL',
      tokenSymbol: 'The token symbol must be 2 to 10 letters or digits',
      tokenDecimals: 'Token decimals must be a whole number from 0 to 18',
      nodeType: 'Please choose the node type',
    });

    const tooLong = await post(user, '/private-networks/validate', form({ name: 'x'.repeat(51), numberOfBlocks: 0 }));
    expect(tooLong.json().invalidParams).toEqual([
      { name: 'name', reason: 'Your network name is too long (at most 50 characters)' },
      { name: 'numberOfBlocks', reason: 'The number of blocks must be a whole number from 1 to 50' },
    ]);
    const missing = await post(user, '/private-networks/validate', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().invalidParams.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['name', 'tokenSymbol', 'url', 'chainId']),
    );
  });

  it('submits a network for review; names are unique per account; other accounts see nothing', async () => {
    const user = await newUser();
    const other = await newUser();
    const body = form({ name: 'Acme Ledger' });
    const created = await post(user, '/private-networks', body);
    expect(created.statusCode, created.body).toBe(201);
    const network = created.json<TUserNetwork>();
    expect(network).toMatchObject({
      networkType: 'private',
      network: 'Acme Ledger',
      status: 'UNDER_REVIEW',
      chainId: chain.chainId,
      activatedDate: null,
      private: { environment: 'sandbox', tokenSymbol: 'ACME', numberOfBlocks: 12, nodeType: 'full', eip1559: true },
    });

    const duplicate = await post(user, '/private-networks', form({ name: 'acme ledger' }));
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().invalidParams).toEqual([
      { name: 'name', reason: 'You already have a private network with this name, please choose another name' },
    ]);
    const validateDuplicate = await post(user, '/private-networks/validate', form({ name: 'ACME LEDGER' }));
    expect(validateDuplicate.json().invalidParams[0].name).toBe('name');

    expect((await privateList(user)).map((n) => n.id)).toEqual([network.id]);
    // All types together include the private network.
    const all = await t.app.inject({ method: 'GET', url: '/api/integrate/v2/user-networks', headers: user.headers });
    expect(all.json<{ networks: TUserNetwork[] }>().networks.map((n) => n.id)).toContain(network.id);

    // Another account: may use the same name, never sees or removes this one.
    expect(await privateList(other)).toEqual([]);
    expect((await post(other, '/private-networks', body)).statusCode).toBe(201);
    const foreign = await remove(other, network.id);
    expect(foreign.statusCode).toBe(404);
    const [row] = await t.db.db.select().from(privateNetworks).where(eq(privateNetworks.id, network.id));
    expect(row!.status).toBe('UNDER_REVIEW');
  });

  it('runs the review lifecycle: approve, request removal, complete it; the name is free again', async () => {
    const user = await newUser();
    const admin = await newUser('QUANT_ADMIN');
    const network = (await post(user, '/private-networks', form({ name: 'Lifecycle' }))).json<TUserNetwork>();

    // Ordinary users cannot review (403 is right here: the route is staff-only).
    expect((await review(user, network.id, { decision: 'APPROVE' })).statusCode).toBe(403);
    const queue = await t.app.inject({
      method: 'GET',
      url: '/api/integrate/management/private-networks?status=UNDER_REVIEW&size=100',
      headers: admin.headers,
    });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().networks.map((n: { id: string }) => n.id)).toContain(network.id);

    const approved = await review(admin, network.id, { decision: 'APPROVE', note: 'Node reachable from our side.' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'ACTIVE', account: { accountId: user.accountId } });
    expect((await review(admin, network.id, { decision: 'APPROVE' })).statusCode).toBe(409);
    const [listed] = await privateList(user);
    expect(listed).toMatchObject({ status: 'ACTIVE', private: { reviewNote: 'Node reachable from our side.' } });
    expect(listed!.activatedDate).not.toBeNull();

    const requested = await remove(user, network.id);
    expect(requested.statusCode).toBe(200);
    expect(requested.json()).toMatchObject({ status: 'REMOVAL_REQUESTED' });
    expect(requested.json().private.removalRequestedAt).not.toBeNull();
    expect((await remove(user, network.id)).statusCode).toBe(409);
    // The name is still held while the removal runs.
    expect((await post(user, '/private-networks/validate', form({ name: 'Lifecycle' }))).statusCode).toBe(400);

    const done = await review(admin, network.id, { decision: 'COMPLETE_REMOVAL' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ status: 'REMOVED' });
    expect((await remove(user, network.id)).statusCode).toBe(409);
    expect((await post(user, '/private-networks/validate', form({ name: 'Lifecycle' }))).statusCode).toBe(200);
  });

  it('rejects with a note; a rejected network is removed at once', async () => {
    const user = await newUser();
    const admin = await newUser('QUANT_ADMIN');
    const network = (await post(user, '/private-networks', form())).json<TUserNetwork>();
    const noNote = await review(admin, network.id, { decision: 'REJECT' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().invalidParams[0]).toEqual({ name: 'note', reason: 'Please say why the network is rejected.' });
    expect((await review(admin, network.id, { decision: 'COMPLETE_REMOVAL' })).statusCode).toBe(409);
    const rejected = await review(admin, network.id, { decision: 'REJECT', note: 'Node is not archive.' });
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', reviewNote: 'Node is not archive.' });
    const removed = await remove(user, network.id);
    expect(removed.json()).toMatchObject({ status: 'REMOVED' });
    expect((await review(admin, '00000000-0000-4000-8000-000000000000', { decision: 'APPROVE' })).statusCode).toBe(404);
  });

  it('announces an approval or a rejection for the submitter; a refused review or a removal announces nothing', async () => {
    const user = await newUser();
    const admin = await newUser('QUANT_ADMIN');
    const decided = async () =>
      (await new OutboxRepository(t.db.db).ofType('network.review_decided')).filter(
        (event) => event.accountId === user.accountId,
      );
    const approved = (await post(user, '/private-networks', form({ name: 'To approve' }))).json<TUserNetwork>();
    const rejected = (await post(user, '/private-networks', form({ name: 'To reject' }))).json<TUserNetwork>();

    expect((await review(admin, rejected.id, { decision: 'REJECT' })).statusCode).toBe(400);
    expect((await review(user, approved.id, { decision: 'APPROVE' })).statusCode).toBe(403);
    expect(await decided()).toEqual([]);

    expect((await review(admin, approved.id, { decision: 'APPROVE', note: 'Fine.' })).statusCode).toBe(200);
    expect((await review(admin, approved.id, { decision: 'APPROVE' })).statusCode).toBe(409);
    expect((await review(admin, rejected.id, { decision: 'REJECT', note: 'Not archive.' })).statusCode).toBe(200);
    expect((await remove(user, approved.id)).statusCode).toBe(200);
    expect((await review(admin, approved.id, { decision: 'COMPLETE_REMOVAL' })).statusCode).toBe(200);

    expect((await decided()).map((event) => event.payload)).toEqual([
      {
        accountId: user.accountId,
        networkId: approved.id,
        networkName: 'To approve',
        requestedBy: user.sub,
        decision: 'APPROVED',
        note: 'Fine.',
      },
      {
        accountId: user.accountId,
        networkId: rejected.id,
        networkName: 'To reject',
        requestedBy: user.sub,
        decision: 'REJECTED',
        note: 'Not archive.',
      },
    ]);
  });

  it('answers 404 on private-network routes without the privateNetwork feature', async () => {
    const user = await newUser();
    await t.db.db
      .delete(accountFeatures)
      .where(
        and(
          eq(accountFeatures.accountId, user.accountId),
          eq(accountFeatures.feature, 'privateNetwork' as FeatureName),
        ),
      );
    expect((await post(user, '/private-networks/validate', form())).statusCode).toBe(404);
    expect((await post(user, '/private-networks', form())).statusCode).toBe(404);
    expect((await remove(user, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/integrate/v2/user-networks?networkType=private',
      headers: user.headers,
    });
    expect(list.statusCode).toBe(404);
    // My networks as a whole still answers, without private networks.
    const all = await t.app.inject({ method: 'GET', url: '/api/integrate/v2/user-networks', headers: user.headers });
    expect(all.statusCode).toBe(200);
  });

  it('submits no private network while the plan is out of service (PLAN_INACTIVE); the submitted ones stay', async () => {
    const user = await newUser();
    const kept = await post(user, '/private-networks', form());
    expect(kept.statusCode, kept.body).toBe(201);
    await putOnPlan(t.db.db, user.accountId, 'trial', { status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
    const refused = await post(user, '/private-networks', form());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PLAN_INACTIVE');
    expect((await privateList(user)).map((n) => n.id)).toEqual([kept.json<TUserNetwork>().id]);
  });

  it('flags EIP-1559 switched on for a node whose blocks have no base fee', async () => {
    // anvil always has a base fee, so a pre-London node is stood in for by the probe.
    const repo = {
      // The account has the privateNetwork feature.
      entitlements: () => ({ requireFeature: async () => undefined }),
      privateNameTaken: async () => false,
    } as unknown as IntegrateRepository;
    const service = new IntegrateService(repo, async () => ({ chainId: 7, latestBlock: 3n, baseFeePerGas: null }));
    const caller = { id: 'u', accountId: 'a' } as PortalUser;
    const input = form({ chainId: 7, eip1559: true }) as TPrivateNetworkRequest;
    await expect(service.validatePrivateNetwork(caller, input)).rejects.toMatchObject({
      status: 400,
      invalidParams: [
        { name: 'eip1559', reason: 'This network does not support EIP-1559 fees: its latest block has no base fee' },
      ],
    });
    await expect(service.validatePrivateNetwork(caller, { ...input, eip1559: false })).resolves.toMatchObject({
      valid: true,
      eip1559: false,
      latestBlock: 3,
    });
  });

  it('limits RPC checks per user, not per address', async () => {
    const [user, other] = [await newUser(), await newUser()];
    const bad = form({ url: 'http://127.0.0.1:1' }); // refused at once: nothing listens on port 1
    const statuses: number[] = [];
    for (let i = 0; i < PRIVATE_NETWORK_CHECKS_PER_MINUTE; i++) {
      statuses.push((await post(user, '/private-networks/validate', bad)).statusCode);
    }
    expect(new Set(statuses)).toEqual(new Set([400]));
    const limited = await post(user, '/private-networks/validate', bad);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect(limited.headers['retry-after']).toBeDefined();
    // Submitting has a limit of its own, so a user who checked a lot can still submit.
    expect((await post(user, '/private-networks', bad)).statusCode).toBe(400);
    // Another user on the same address still gets the check.
    expect((await post(other, '/private-networks/validate', bad)).statusCode).toBe(400);
  });

  describe('with private addresses refused (PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES=0, the production default)', () => {
    let strict: TestContext;
    beforeAll(async () => {
      strict = await createTestApp({ PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES: '0' });
    });
    afterAll(async () => {
      await strict?.close();
    });

    it('refuses a working local chain under the url field and stores nothing', async () => {
      const user = await signInAs(strict);
      const send = (url: string, payload: object) =>
        strict.app.inject({ method: 'POST', url: `/api/integrate${url}`, headers: user.headers, payload });
      const { port } = new URL(chain.rpcUrl);
      // Only loopback forms here (a broken check must never send a test's traffic elsewhere); the
      // private, link-local and metadata ranges are covered by address-policy.test.ts without connecting.
      for (const url of [chain.rpcUrl, `http://localhost:${port}`, `http://[::1]:${port}`, `http://0x7f.1:${port}`]) {
        for (const path of ['/private-networks/validate', '/private-networks']) {
          const response = await send(path, form({ url }));
          expect(response.statusCode, `${path} ${url}`).toBe(400);
          expect(response.json().invalidParams).toEqual([{ name: 'url', reason: NETWORK_MESSAGES.urlPrivateAddress }]);
        }
      }
      const list = await strict.app.inject({
        method: 'GET',
        url: '/api/integrate/v2/user-networks?networkType=private',
        headers: user.headers,
      });
      expect(list.json().networks).toEqual([]);
    });
  });
});
