import { randomUUID } from 'node:crypto';
import { type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { type TCreateTokenResponse } from '@connect/shared';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { HOLDER, newTokenUser, settled, useTokenSuite } from './test-support.ts';

/**
 * Platform deployments signed ahead: a repeat deployment is signed with the gas and fees its
 * network's last preparations left as hints, before the chain has answered for it. In a file of
 * their own, so that the hints are the ones these tests leave, on a fresh engine.
 */
describe('tokenise: platform deployments signed ahead', () => {
  const s = useTokenSuite();
  const { tierId, create, quant20 } = s;

  it('signs a repeat deployment ahead with the last gas and fees, and signs again when they no longer cover it', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: null, credits: 1_000 });
    type ChainTx = { gas: Hex; maxFeePerGas: Hex; input: Hex };
    const deploy = async (extra: Record<string, unknown> = {}) => {
      const res = await create(user, quant20('base', extra));
      expect(res.statusCode, res.body).toBe(201);
      const token = await settled(s.t, user, res.json<TCreateTokenResponse>().token.id);
      const tx = token.transactionId
        ? await rpcCall<ChainTx>(s.chain.rpcUrl, 'eth_getTransactionByHash', [token.transactionId])
        : null;
      return { token, tx };
    };
    const estimate = async (input: Hex) =>
      BigInt(await rpcCall<Hex>(s.chain.rpcUrl, 'eth_estimateGas', [{ from: s.deployer, data: input }]));

    // The first deployment leaves this contract's gas and the fees as hints (if earlier ones did not).
    const first = await deploy();
    expect(first.token.status).toBe('ACTIVE');
    // The next one is signed with the hints before its own estimate is back: 1.5 × the last estimate.
    const second = await deploy();
    expect(second.token.status).toBe('ACTIVE');
    const gas = await estimate(second.tx!.input);
    expect(BigInt(second.tx!.gas)).toBe((gas * 3n) / 2n);

    // Fees rose above the hint: the guess no longer covers them, so it is signed again with the
    // fresh fees (its gas limit was confirmed by running the deployment with it).
    await rpcCall(s.chain.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [`0x${(100n * 10n ** 9n).toString(16)}`]);
    await rpcCall(s.chain.rpcUrl, 'evm_mine', []);
    const third = await deploy();
    expect(third.token.status).toBe('ACTIVE');
    expect(BigInt(third.tx!.gas)).toBe((gas * 3n) / 2n);
    expect(BigInt(third.tx!.maxFeePerGas)).toBeGreaterThanOrEqual(150n * 10n ** 9n);

    // A guessed deployment that reverts is never sent: its run fails, and so does its estimate.
    const nonce = () => rpcCall<Hex>(s.chain.rpcUrl, 'eth_getTransactionCount', [s.deployer, 'pending']);
    const before = await nonce();
    const refused = await deploy({ supplyHolderAddress: '0x0000000000000000000000000000000000000000' });
    expect(refused.token).toMatchObject({ status: 'FAILED', transactionId: null });
    expect(refused.token.failureReason).toMatch(/cannot be deployed/);
    expect(await nonce()).toBe(before);
  });

  it('signs a guess again after an estimate when one run at the guessed gas limit runs out of gas', async () => {
    const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: null, credits: 1_000 });
    type ChainTx = { gas: Hex; input: Hex };
    const deploy = async (tokenUri: string) => {
      const res = await create(user, {
        externalId: randomUUID(),
        networkId: s.ids.ethTest,
        tierId: tierId(s.qrc721, 'base'),
        tokenType: 'QRC721',
        deploymentType: 'QUANT',
        name: 'Long Uris',
        unit: 'URI',
        initialSupply: 7,
        supplyHolderAddress: HOLDER,
        tokenUri,
      });
      expect(res.statusCode, res.body).toBe(201);
      const token = await settled(s.t, user, res.json<TCreateTokenResponse>().token.id);
      expect(token.status).toBe('ACTIVE');
      return rpcCall<ChainTx>(s.chain.rpcUrl, 'eth_getTransactionByHash', [token.transactionId]);
    };
    const estimate = async (input: Hex) =>
      BigInt(await rpcCall<Hex>(s.chain.rpcUrl, 'eth_estimateGas', [{ from: s.deployer, data: input }]));

    // A short base URI leaves this contract's hint; a 500-character one stores 15 more words.
    const short = await deploy('https://example.com/a/');
    const guess = ((await estimate(short.input)) * 3n) / 2n;
    const long = await deploy(`https://example.com/${'x'.repeat(479)}/`);
    const needed = await estimate(long.input);
    // The run at the guess's limit keeps a fifth in hand: it must fail for this test to mean anything.
    expect(needed).toBeGreaterThan((guess * 5n) / 6n);
    expect(BigInt(long.gas)).toBe((needed * 12n) / 10n);
  });
});
