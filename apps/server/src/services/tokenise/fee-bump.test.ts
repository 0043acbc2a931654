import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { platformTransactions } from '@connect/db';
import type { TCreateTokenResponse } from '@connect/shared';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { details, settled, useTokenSuite } from './test-support.ts';

/**
 * A platform deployment stuck in the chain's pool is replaced by the sender's fee bump: the token
 * follows its new transaction and ends ACTIVE with it. Mining is paused to hold it in the pool.
 */
describe('tokenise: a stuck deployment bumped', () => {
  const s = useTokenSuite();
  const { create, quant20 } = s;
  const call = (method: string, params: unknown[] = []) => rpcCall(s.chain.rpcUrl, method, params);
  const rowsOf = (tokenId: string) =>
    s.t.db.db
      .select()
      .from(platformTransactions)
      .where(eq(platformTransactions.reference, `token:${tokenId}`));

  afterEach(async () => {
    await call('evm_setAutomine', [true]);
  });

  it('moves the token to the replacement, which is mined and settles it', async () => {
    // One ordinary deployment first: the deployer is funded and the network's hints are set.
    const warm = await create(s.owner, quant20('base', { name: 'Warm Bond', unit: 'WRM' }));
    expect((await settled(s.t, s.owner, warm.json<TCreateTokenResponse>().token.id)).status).toBe('ACTIVE');

    await call('evm_setAutomine', [false]);
    const res = await create(s.owner, quant20('base', { name: 'Stuck Bond', unit: 'STK' }));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<TCreateTokenResponse>().token.id;
    const stuck = (await details(s.t, s.owner, id)).transactionId!;
    expect(stuck).toMatch(/^0x[0-9a-f]{64}$/);

    const bumps = await s.t.app.deps.sender.bumpStuck({ olderThanMs: 0 });
    expect(bumps).toEqual([expect.objectContaining({ reference: `token:${id}`, was: stuck })]);
    const replacement = bumps[0]!.hash;
    // The owner (the engine) was told: the token shows the replacement at once.
    expect((await details(s.t, s.owner, id)).transactionId).toBe(replacement);

    await call('evm_mine');
    const token = await settled(s.t, s.owner, id);
    expect(token).toMatchObject({ status: 'ACTIVE', transactionId: replacement });
    const receipt = await rpcCall<{ contractAddress: string }>(s.chain.rpcUrl, 'eth_getTransactionReceipt', [
      replacement,
    ]);
    expect(token.smartContractAddress?.toLowerCase()).toBe(receipt.contractAddress);
    expect(await call('eth_getTransactionReceipt', [stuck])).toBeNull();
    const rows = await rowsOf(id);
    expect(Object.fromEntries(rows.map((r) => [r.txHash, r.status]))).toEqual({
      [stuck]: 'REPLACED',
      [replacement]: 'MINED',
    });
  });
});
