import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Database } from '@connect/db';
import { FollowerRepository } from './repository.ts';
import { followStep } from './step.ts';
import { countingProxy, recipient, useFollowerSuite } from './test-support.ts';
import type { ChainView, ConfirmedBlockLoss, Follower, KnownBlock } from './types.ts';

/** followStep on an anvil chain with a QRC20 token and a test database (one follower name per test). */
describe('chain follower: one step', () => {
  const s = useFollowerSuite();
  const step = (follower: Follower, maxBlocks = 100, extra: Parameters<typeof followStep>[2] = { maxBlocks }) =>
    followStep(s.dbh.db, follower, { ...extra, maxBlocks });
  /** Starts after everything earlier tests did on the chain. */
  const fresh = async () => (await s.head()) + 1n;
  /** The hash of the first transaction in a block. */
  const firstTxOf = async (block: bigint) =>
    (await s.rpc<{ transactions: Hex[] }>('eth_getBlockByNumber', [`0x${block.toString(16)}`, false])).transactions[0];

  it('delivers each transfer once, in order, across steps and a restart (the cursor is kept)', async () => {
    const startBlock = await fresh();
    const { follower, seen } = s.owner('once', { startBlock });
    const first = await s.transfer(recipient(1));
    const second = await s.transfer(recipient(2));
    const head = await s.head();
    expect(await step(follower)).toEqual({ from: startBlock - 1n, to: head, head, reorgedFrom: null });
    expect(await seen()).toEqual([first.hash, second.hash]);
    // Nothing new: nothing is delivered again.
    expect(await step(follower)).toEqual({ from: head, to: head, head, reorgedFrom: null });

    const third = await s.transfer(recipient(3));
    // A restart: the process's memory is gone, the database is not.
    const restarted = s.owner('once', { startBlock });
    await step(restarted.follower);
    expect(restarted.calls.logs.flat().map((log) => log.txHash)).toEqual([third.hash]);
    expect(await seen()).toEqual([first.hash, second.hash, third.hash]);
  });

  it('hands the owner the logs as the chain has them', async () => {
    const { follower, calls } = s.owner('shape', { startBlock: await fresh() });
    const sent = await s.transfer(recipient(4), 1234n);
    await step(follower);
    const [log] = calls.logs.flat();
    expect(log).toMatchObject({ blockNumber: sent.block, txHash: sent.hash, address: s.token, logIndex: 0 });
    expect(log!.topics).toHaveLength(3);
    expect(BigInt(log!.topics[2]!)).toBe(BigInt(recipient(4)));
    expect(BigInt(log!.data)).toBe(1234n);
  });

  it("keeps the cursor where it was when the owner's write fails: the logs come again, and count once", async () => {
    const { follower, seen } = s.owner('atomic', { startBlock: await fresh() });
    let isDown = true;
    const flaky: Follower = {
      ...follower,
      onLogs: async (tx, logs) => {
        await follower.onLogs(tx, logs);
        if (isDown) throw new Error('the owner is down');
      },
    };
    const sent = await s.transfer(recipient(5));
    await expect(step(flaky)).rejects.toThrow('the owner is down');
    expect(await seen()).toEqual([]);
    isDown = false;
    await step(flaky);
    await step(flaky);
    expect(await seen()).toEqual([sent.hash]);
  });

  it('two steps at once (no lock between them) deliver once: the cursor moves only from where each read it', async () => {
    const { follower, seen } = s.owner('race', { startBlock: await fresh() });
    await step(follower);
    const sent = await s.transfer(recipient(7));
    const results = await Promise.allSettled([step(follower), step(follower)]);
    expect(await seen()).toEqual([sent.hash]);
    // The loser either read the moved cursor (nothing new) or was rolled back.
    for (const result of results) {
      if (result.status === 'rejected') expect(String(result.reason)).toMatch(/moved under this step/);
    }
  });

  it('tells the owner which blocks have their confirmations (head - confirmations + 1), after every step', async () => {
    const { follower, calls } = s.owner('confirmations', { startBlock: await fresh(), confirmations: 3 });
    await s.transfer(recipient(6));
    const first = await step(follower);
    expect(calls.confirmed).toEqual([first.head - 2n]);
    await s.mine(2);
    const second = await step(follower);
    expect(second.head).toBe(first.head + 2n);
    // Nothing moved: the same answer again (owners are idempotent).
    await step(follower);
    expect(calls.confirmed).toEqual([first.head - 2n, first.head, first.head]);
  });

  it('walks a range longer than maxBlocks in several steps, each log once and in order', async () => {
    const startBlock = await fresh();
    const sent: Hex[] = [];
    for (let n = 0; n < 4; n++) {
      sent.push((await s.transfer(recipient(10 + n))).hash);
      await s.mine(7);
    }
    const { follower, seen } = s.owner('ranges', { startBlock });
    const steps = [await step(follower, 10)];
    while (steps.at(-1)!.to < steps.at(-1)!.head) steps.push(await step(follower, 10));
    // 32 blocks, ten at a time.
    expect(steps.map(({ from, to }) => Number(to - from))).toEqual([10, 10, 10, 2]);
    steps.slice(1).forEach((later, i) => expect(later.from).toBe(steps[i]!.to));
    expect(await seen()).toEqual(sent);
  });

  it('a reorg (anvil_reorg): the owner forgets from the first replaced block, gets the new blocks, never the dropped transfer', async () => {
    const { follower, calls, seen } = s.owner('reorg', { startBlock: await fresh() });
    const kept = await s.transfer(recipient(20));
    await step(follower);
    const dropped = await s.transfer(recipient(21));
    await step(follower);
    await s.mine(1);
    await step(follower);
    expect(await seen()).toEqual([kept.hash, dropped.hash]);

    // The last two blocks are replaced: the dropped transfer is in neither, another transfer is in the second.
    await s.rpc('anvil_reorg', [2, [[s.transferTx(recipient(22)), 1]]]);
    const replacement = (await firstTxOf(dropped.block + 1n))!.toLowerCase();
    const result = await step(follower);
    expect(result.reorgedFrom).toBe(dropped.block);
    expect(calls.reorgs).toEqual([dropped.block]);
    expect(await seen()).toEqual([kept.hash, replacement]);
    // And once only.
    await step(follower);
    expect(await seen()).toEqual([kept.hash, replacement]);
  });

  it('a reorg to a shorter chain (evm_revert): the cursor block is gone, the follower rewinds to the last block it still has', async () => {
    const snapshot = await s.rpc<string>('evm_snapshot');
    const startBlock = await fresh();
    const { follower, calls, seen } = s.owner('shorter', { startBlock });
    await s.transfer(recipient(30));
    await s.mine(3);
    await step(follower);
    expect(await seen()).toHaveLength(1);

    await s.rpc('evm_revert', [snapshot]);
    const other = await s.transfer(recipient(31));
    expect(await s.head()).toBe(startBlock);
    const result = await step(follower);
    expect(result).toMatchObject({ reorgedFrom: startBlock, to: startBlock });
    expect(calls.reorgs).toEqual([startBlock]);
    expect(await seen()).toEqual([other.hash]);
  });

  it('confirmed blocks lost (evm_revert past them): every hook runs once, in the rewind, then the new chain is read', async () => {
    const snapshot = await s.rpc<string>('evm_snapshot');
    const startBlock = await fresh();
    const losses: ConfirmedBlockLoss[] = [];
    const hooks = [
      async (tx: Database, loss: ConfirmedBlockLoss) => {
        // In the rewind's transaction: the cursor is already back at the fork point.
        const { rows } = (await tx.execute(
          sql`select block_number from chain_cursors where follower = 'lost' and chain_id = ${s.chain.chainId}`,
        )) as unknown as { rows: { block_number: number }[] };
        expect(BigInt(rows[0]!.block_number)).toBe(loss.fromBlock - 1n);
        losses.push(loss);
      },
    ];
    const { follower, calls, seen } = s.owner('lost', { startBlock, confirmations: 2 });
    const step2 = () => step(follower, 100, { maxBlocks: 100, onConfirmedBlockLost: hooks });
    const lost = await s.transfer(recipient(35));
    await step2();
    // Block by block (the window then knows each block: the fork point exactly).
    for (let i = 0; i < 2; i++) {
      await s.mine(1);
      await step2();
    }
    // A shallow reorg (the head only, unconfirmed): onReorg, no hook.
    await s.rpc('anvil_reorg', [1, []]);
    const before = await step2();
    expect(before.reorgedFrom).toBe(before.head);
    expect(losses).toEqual([]);
    // The transfer's block has its two confirmations.
    expect(calls.confirmed.at(-1)).toBe(before.head - 1n);

    // The chain goes back before the transfer and grows past the old head with other blocks.
    await s.rpc('evm_revert', [snapshot]);
    const other = await s.transfer(recipient(36));
    await s.mine(5);
    const after = await step2();
    expect(losses).toEqual([
      {
        follower: 'lost',
        network: follower.network,
        fromBlock: startBlock,
        confirmedTo: before.head - 1n,
        cursorWas: before.head,
        beyondWindow: false,
      },
    ]);
    expect(after.reorgedFrom).toBe(startBlock);
    expect(await seen()).toEqual([other.hash]);
    expect(await seen()).not.toContain(lost.hash);
    // Once: the next steps find the chain they read.
    await step2();
    await step2();
    expect(losses).toHaveLength(1);
  });

  it('a reorg deeper than the window: logged as an error, rewound to the window start', async () => {
    const snapshot = await s.rpc<string>('evm_snapshot');
    const base = await s.head();
    await s.mine(2);
    const startBlock = base + 3n;
    const errors: string[] = [];
    const log = { error: (_: object, message: string) => errors.push(message), warn: () => undefined };
    const { follower, calls } = s.owner('deep', { startBlock });
    const losses: ConfirmedBlockLoss[] = [];
    const hashes: (Hex | null)[] = [];
    const hook = async (_: Database, loss: ConfirmedBlockLoss, chain: ChainView) => {
      losses.push(loss);
      hashes.push(await chain.hashAt(base));
    };
    const options = { maxBlocks: 100, log, onConfirmedBlockLost: [hook] };
    const sent = await s.transfer(recipient(40));
    await step(follower, 100, options);
    // Everything the window holds (the block before the start, the cursor) is replaced.
    await s.rpc('evm_revert', [snapshot]);
    await s.transfer(recipient(41));
    await s.mine(3);
    await step(follower, 100, options);
    expect(calls.reorgs).toEqual([startBlock - 1n]);
    // The window's start is the fork point as far as the follower knows: its confirmed blocks are
    // lost, and the hooks are told the fork may be older (they check their records on the chain).
    expect(errors).toEqual([expect.stringMatching(/deeper than the window/), expect.stringMatching(/had confirmed/)]);
    expect(losses).toEqual([expect.objectContaining({ fromBlock: startBlock - 1n, beyondWindow: true })]);
    expect(losses[0]!.cursorWas).toBeGreaterThanOrEqual(sent.block);
    const [baseBlock] = await Promise.all([
      s.rpc<{ hash: Hex }>('eth_getBlockByNumber', [`0x${base.toString(16)}`, false]),
    ]);
    expect(hashes).toEqual([baseBlock.hash]);
  });

  it('a rewind keeps a cursor that never confirmed anything unconfirmed (least() would answer the rewind block)', async () => {
    const repo = new FollowerRepository(s.dbh.db);
    const key = { follower: 'never-confirmed', chainId: s.chain.chainId };
    const at = (n: number): KnownBlock => ({ number: BigInt(n), hash: `0x${n.toString(16).padStart(64, '0')}` as Hex });
    await repo.advance(key, null, at(20), 0n, [at(10)]);
    await repo.rewind(key, at(20), at(10));
    expect(await repo.position(key)).toEqual({ cursor: at(10), confirmed: null });
    // One that did goes back to the rewind block at most.
    await repo.confirmedUpTo(key, at(10), 9n);
    await repo.advance(key, at(10), at(20), 0n);
    await repo.confirmedUpTo(key, at(20), 18n);
    await repo.rewind(key, at(20), at(10));
    expect(await repo.position(key)).toEqual({ cursor: at(10), confirmed: 10n });
  });

  it('costs the same few RPC calls per step whatever the owner watches and however many transfers come', async () => {
    const proxy = await countingProxy(s.chain.rpcUrl);
    try {
      const { follower } = s.owner('cost', { startBlock: await fresh() });
      const counted: Follower = { ...follower, network: { ...follower.network, rpcUrl: proxy.url } };
      const tally = () => {
        const calls = proxy.take();
        return { total: calls.length, getLogs: calls.filter((method) => method === 'eth_getLogs').length };
      };
      await s.transfer(recipient(50));
      proxy.take();
      await step(counted);
      // The first step also reads the block before its start.
      expect(tally()).toEqual({ total: 4, getLogs: 1 });

      // Following the head: one transfer to one address …
      await s.transfer(recipient(51));
      proxy.take();
      await step(counted);
      const one = tally();
      // … and forty transfers to forty addresses cost the same.
      for (let n = 0; n < 40; n++) await s.transfer(recipient(100 + n));
      proxy.take();
      await step(counted);
      expect(tally()).toEqual(one);
      expect(one).toEqual({ total: 4, getLogs: 1 });

      // Nothing new: the head, whose hash is the reorg check of a cursor at the head.
      await step(counted);
      expect(tally()).toEqual({ total: 1, getLogs: 0 });

      // Catching up (the range ends below the head): the range end's header too.
      await s.mine(30);
      proxy.take();
      await step(counted, 10);
      expect(tally()).toEqual({ total: 5, getLogs: 1 });
    } finally {
      await proxy.close();
    }
  });
});
