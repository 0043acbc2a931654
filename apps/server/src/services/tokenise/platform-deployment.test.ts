import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountFeatures, tokens } from '@connect/db';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { type TCreateTokenResponse } from '@connect/shared';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { TRIAL_CREDITS } from '../../lib/trial-credits.ts';
import { HOLDER, details, newTokenUser, settled, useTokenSuite } from './test-support.ts';

/** Platform deployments (QUANT) against a real local chain (spec §4, §7). */
describe('tokenise: platform deployment (QUANT)', () => {
  const s = useTokenSuite();
  const { tierId, create, quant20, creditRows, creditsOf } = s;

  it('deploys to ACTIVE, with code on s.chain, live supply and credits charged once', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS);
    const payload = quant20('flex', { minter: HOLDER, maxSupply: 5000, remintable: true });
    const res = await create(user, payload);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<TCreateTokenResponse>();
    expect(created.token).toMatchObject({
      status: 'PENDING',
      tokenName: 'Green Bond',
      tierName: 'Flex',
      isLocal: true,
    });
    expect(created.deployment).toBeNull();

    // The same externalId answers the same token and never deploys twice.
    const again = await create(user, payload);
    expect(again.statusCode).toBe(200);
    expect(again.json<TCreateTokenResponse>().token.id).toBe(created.token.id);

    const token = await settled(s.t, user, created.token.id);
    expect(token.status).toBe('ACTIVE');
    expect(token.smartContractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(token.transactionId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(token.deployerAddress?.toLowerCase()).toBe(s.deployer.toLowerCase());
    expect(DEV_ACCOUNTS.map((a) => a.address)).not.toContain(token.deployerAddress); // no public key
    expect(token.creditsCharged).toBe(20);
    const code = await rpcCall<string>(s.chain.rpcUrl, 'eth_getCode', [token.smartContractAddress, 'latest']);
    expect(code.length).toBeGreaterThan(100);

    const live = await details(s.t, user, created.token.id, `?holder=${HOLDER}`);
    expect(live.onChain).toMatchObject({
      totalSupply: (1000n * 10n ** 18n).toString(),
      holder: HOLDER,
      holderBalance: (1000n * 10n ** 18n).toString(),
      error: null,
    });
    expect(live.functions).toContain('mint');
    expect(live.explorer).toEqual({ contractUrl: null, transactionUrl: null });
    // By externalId too.
    expect((await details(s.t, user, payload.externalId)).id).toBe(created.token.id);

    expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS - 20);
    const charges = (await creditRows(user.accountId)).filter((r) => r.reference === `token:${token.id}`);
    expect(charges).toHaveLength(1);
    expect(charges[0]!.amount).toBe(-20);

    // The job running again (a retry, another node) charges nothing more.
    const jobId = await s.t.app.deps.jobs.send('token-deploy', { tokenId: token.id });
    // Read once that run has ended (its job is no longer waiting or running), whatever its outcome.
    const jobState = async () =>
      (await s.t.db.execute(`select state from pgboss.job where id = $1`, [jobId])).rows[0]?.state;
    await expect.poll(jobState, { timeout: 30_000, interval: 100 }).not.toMatch(/^(created|active)$/);
    expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS - 20);
    expect((await creditRows(user.accountId)).filter((r) => r.amount < 0)).toHaveLength(1);
    expect((await s.t.db.db.select().from(tokens).where(eq(tokens.externalId, payload.externalId))).length).toBe(1);
  });

  it('fails a deployment the contract refuses, and charges nothing', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
    // A zero supply holder: the contract's constructor reverts (ERC20InvalidReceiver).
    const res = await create(
      user,
      quant20('base', { supplyHolderAddress: '0x0000000000000000000000000000000000000000' }),
    );
    expect(res.statusCode).toBe(201);
    const token = await settled(s.t, user, res.json<TCreateTokenResponse>().token.id);
    expect(token.status).toBe('FAILED');
    expect(token.failureReason).toMatch(/cannot be deployed/);
    expect(token.creditsCharged).toBe(0);
    expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS);
    const quota = await s.t.db.db
      .select()
      .from(accountFeatures)
      .where(and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'tokens:create')));
    expect(quota[0]!.used).toBe(0);
  });

  it('deploys 20 tokens at once with no nonce collisions', async () => {
    const before = BigInt(await rpcCall<string>(s.chain.rpcUrl, 'eth_getTransactionCount', [s.deployer, 'latest']));
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(s.owner, quant20('base', { name: `Batch ${i}`, unit: `B${i}` }))),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const settledTokens = await Promise.all(
      responses.map((r) => settled(s.t, s.owner, r.json<TCreateTokenResponse>().token.id, 60_000)),
    );
    expect(settledTokens.map((tk) => tk.status)).toEqual(Array(20).fill('ACTIVE'));
    expect(new Set(settledTokens.map((tk) => tk.smartContractAddress)).size).toBe(20);
    const after = BigInt(await rpcCall<string>(s.chain.rpcUrl, 'eth_getTransactionCount', [s.deployer, 'latest']));
    expect(after - before).toBe(20n);
  });

  it('deploys a QRC721 base token', async () => {
    const res = await create(s.owner, {
      externalId: randomUUID(),
      networkId: s.ids.ethTest,
      tierId: tierId(s.qrc721, 'base'),
      tokenType: 'QRC721',
      deploymentType: 'QUANT',
      name: 'Art Works',
      unit: 'ART',
      initialSupply: 7,
      supplyHolderAddress: HOLDER,
      tokenUri: 'https://example.com/art/',
    });
    expect(res.statusCode, res.body).toBe(201);
    const token = await settled(s.t, s.owner, res.json<TCreateTokenResponse>().token.id);
    expect(token.status).toBe('ACTIVE');
    const live = await details(s.t, s.owner, token.id, `?holder=${HOLDER}`);
    expect(live.onChain).toMatchObject({ totalSupply: '7', holderBalance: '7' });
  });
});
