import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networks } from '@connect/db';
import { ZOrder } from '@connect/shared';
import type { TestChain } from '../../../test/chains.ts';
import { testConfig, type TestContext } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../types.ts';
import { customer, planByCode, planOrder, post, subscriptionOf } from '../account-plan/test-support.ts';
import { QNT_FOLLOWER } from './index.ts';
import { startQntTestApp, stopQntTestApp } from './test-support.ts';

// Issue 31 §3: node A runs the chain and is configured with the QNT token; node B starts on the
// same database with neither QNT_TOKEN_ADDRESS nor an RPC URL. B's start used to clear what A had
// recorded ("last node started wins"): B then offered no deposit address, refused QNT orders and
// followed nothing.
let chain: TestChain;
let token: Hex;
let a: TestContext;
let b: TestContext | undefined;

beforeAll(async () => {
  ({ chain, token, t: a } = await startQntTestApp({}));
}, 60_000);

afterAll(async () => {
  await b?.close();
  await stopQntTestApp(a, chain);
});

/** The catalogue as every node reads it (updated_at aside: a start touches every seeded row). */
const catalogue = async () =>
  (await a.db.db.select().from(networks).orderBy(networks.code)).map(({ updatedAt: _, ...row }) => row);

describe('a second node started without the QNT token (issue 31)', () => {
  it('leaves the catalogue as the first node recorded it', async () => {
    const before = await catalogue();
    expect(before.find((n) => n.code === 'ethereum-testnet')).toMatchObject({
      rpcUrl: chain.rpcUrl,
      qntTokenAddress: token.toLowerCase(),
    });
    const second: App = await buildApp({ config: testConfig(), db: a.db, logger: false });
    b = { app: second, db: a.db, close: () => second.close() };
    await second.ready();
    expect(await catalogue()).toEqual(before);
  });

  it('takes QNT where the catalogue records it: deposit address, QNT orders and the chain follower', async () => {
    const node = b!;
    const session = await customer(node);
    const subscription = await subscriptionOf(node, session);
    expect(subscription.availablePaymentMethods).toContain('QNT');
    expect(subscription.qnt).toMatchObject({ held: '0', chainId: chain.chainId });
    const address = subscription.qnt!.depositAddress!;
    expect(address).toMatch(/^0x[0-9a-f]{40}$/);

    const plan = await planByCode(node, 'annual-standard');
    const res = await post(node, '/order/plan', session, planOrder(plan.id, { paymentMethod: 'QNT' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(ZOrder.parse(res.json()).qnt).toMatchObject({
      status: 'NEW',
      depositAddress: address,
      tokenAddress: token.toLowerCase(),
      chainId: chain.chainId,
    });

    // B follows the token's transfers too, through the RPC URL the catalogue records (the
    // follower's lock lets one node at a time step it).
    const followers = node.app.deps.followers.list();
    expect(followers.map((f) => f.name)).toEqual([QNT_FOLLOWER]);
    expect(followers[0]!.network).toEqual({ code: 'ethereum-testnet', chainId: chain.chainId, rpcUrl: chain.rpcUrl });
    expect(followers[0]!.filter.address).toBe(token.toLowerCase());
  });
});
