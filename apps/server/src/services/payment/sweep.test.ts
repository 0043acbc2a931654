import { eq, like } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositSweeps, ledgerEntries, platformTransactions } from '@connect/db';
import { DEV_ACCOUNTS } from '@connect/devchain';
import type { TestChain } from '../../../test/chains.ts';
import type { TestContext } from '../../../test/helpers.ts';
import { followStep } from '../../adapters/chains/follower/index.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import type { PlatformSender, SendRequest } from '../../adapters/chains/sender/index.ts';
import { customer, type Session } from '../account-plan/test-support.ts';
import { qntPayments } from './index.ts';
import { DepositSweeper } from './sweep.ts';
import { sendQnt, startQntTestApp, stopQntTestApp } from './test-support.ts';

// One chain with the QNT token and one app taking QNT on it with the embedded seed (so it holds
// the deposit keys and sweeps). The follower and the sweep are run by hand: the app's job queue is
// stopped, so no scheduled run steps in between.
const CONFIRMATIONS = 3;
const QNT = 10n ** 18n;
const payer = DEV_ACCOUNTS[1]!.address as Hex;

let chain: TestChain;
let token: Hex;
let t: TestContext;

beforeAll(async () => {
  ({ chain, token, t } = await startQntTestApp({ QNT_CONFIRMATIONS: String(CONFIRMATIONS) }));
  expect(t.app.deps.jobs.names).toContain('qnt-sweep');
  await t.app.deps.jobs.stop();
  await follow(); // the follower's first step starts it at the chain's head
}, 60_000);

afterAll(() => stopQntTestApp(t, chain));

const qnt = () => qntPayments(t.app.deps, t.app.log);
const sweep = () => t.app.deps.runtime.payment!.sweep();
const treasury = async () => (await qnt().depositKeys()).treasury!;

async function follow() {
  await followStep(t.db.db, qnt().follower()!, { maxBlocks: 1_000 });
  await t.app.events.drain();
}
const mine = (blocks: number) => rpcCall(chain.rpcUrl, 'anvil_mine', [`0x${blocks.toString(16)}`]);

/** The payer sends `amount` wei of QNT to `to` (mined at once). */
async function pay(to: string, amount: bigint): Promise<void> {
  await sendQnt(chain, token, payer, to, amount);
}

/** Paid and confirmed: the follower credited it to the account. */
async function payConfirmed(to: string, amount: bigint): Promise<void> {
  await pay(to, amount);
  await mine(CONFIRMATIONS);
  await follow();
}

async function balanceOf(address: string): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address as Hex] });
  return BigInt(await rpcCall<Hex>(chain.rpcUrl, 'eth_call', [{ to: token, data }, 'latest']));
}

/** A customer with their deposit address. */
async function depositor(): Promise<Session & { address: string; index: number }> {
  const session = await customer(t);
  const row = await qnt().addressFor(session.accountId);
  return { ...session, address: row.address, index: row.derivationIndex };
}

const sweepsOf = (index: number) =>
  t.db.db.select().from(depositSweeps).where(eq(depositSweeps.derivationIndex, index));

/** The platform transactions stored for a sweep: its gas and its transfer. */
async function transactionsOf(sweepId: string) {
  const rows = await t.db.db
    .select()
    .from(platformTransactions)
    .where(like(platformTransactions.reference, `%:${sweepId}`));
  return {
    gas: rows.filter((r) => r.reference === `sweep-gas:${sweepId}`),
    transfer: rows.filter((r) => r.reference === `sweep:${sweepId}`),
  };
}

const qntEntries = (accountId: string) =>
  t.db.db
    .select({ kind: ledgerEntries.kind, amount: ledgerEntries.amount, asset: ledgerEntries.asset })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.accountId, accountId));

describe('the QNT sweep', () => {
  it('moves confirmed deposits to the treasury, paying the gas, and leaves the customer’s QNT as it was', async () => {
    const who = await depositor();
    await payConfirmed(who.address, 5n * QNT);
    const held = await qnt().holding(who.accountId);
    expect(held.held).toBe((5n * QNT).toString());
    const entries = await qntEntries(who.accountId);
    const treasuryBefore = await balanceOf(await treasury());

    const report = await sweep();
    expect(report).toMatchObject({ recorded: 1, mined: 1, failed: 0, waiting: 0 });
    expect(await balanceOf(who.address)).toBe(0n);
    expect(await balanceOf(await treasury())).toBe(treasuryBefore + 5n * QNT);
    const [row, ...others] = await sweepsOf(who.index);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ status: 'MINED', amount: 5n * QNT, chainId: chain.chainId });
    // The platform's key gave the address its gas, then the deposit key sent the QNT: each once, mined.
    const sent = await transactionsOf(row!.id);
    expect(sent.gas).toHaveLength(1);
    expect(sent.gas[0]).toMatchObject({ txHash: row!.gasTxHash, status: 'MINED' });
    expect(sent.transfer).toHaveLength(1);
    expect(sent.transfer[0]).toMatchObject({ txHash: row!.txHash, status: 'MINED' });
    expect(sent.transfer[0]!.fromAddress.toLowerCase()).toBe(who.address);

    // Custody moved, not the customer's money: the QNT held for them is what it was.
    expect(await qnt().holding(who.accountId)).toEqual(held);
    expect(await qntEntries(who.accountId)).toEqual(entries);
  });

  it('never sweeps QNT the follower has not confirmed, nor less than the threshold', async () => {
    const mixed = await depositor();
    await payConfirmed(mixed.address, 4n * QNT);
    const unconfirmedOnly = await depositor();
    const small = await depositor();
    await payConfirmed(small.address, QNT / 2n);
    await pay(mixed.address, 3n * QNT);
    await pay(unconfirmedOnly.address, 2n * QNT);
    await follow(); // seen, still collecting confirmations

    await sweep();
    expect(await balanceOf(mixed.address)).toBe(3n * QNT);
    expect((await sweepsOf(mixed.index)).map((s) => [s.status, s.amount])).toEqual([['MINED', 4n * QNT]]);
    expect(await balanceOf(unconfirmedOnly.address)).toBe(2n * QNT);
    expect(await sweepsOf(unconfirmedOnly.index)).toEqual([]);
    expect(await balanceOf(small.address)).toBe(QNT / 2n);
    expect(await sweepsOf(small.index)).toEqual([]);

    // Once confirmed, the rest goes too.
    await mine(CONFIRMATIONS);
    await follow();
    await sweep();
    expect(await balanceOf(mixed.address)).toBe(0n);
    const sweeps = await sweepsOf(mixed.index);
    expect(sweeps.map((s) => [s.status, s.amount])).toEqual([
      ['MINED', 4n * QNT],
      ['MINED', 3n * QNT],
    ]);
    expect(await balanceOf(unconfirmedOnly.address)).toBe(0n);
  });

  it('sends once when it runs twice, or several times at once (here, and as another node)', async () => {
    const who = await depositor();
    await payConfirmed(who.address, 6n * QNT);
    const treasuryBefore = await balanceOf(await treasury());
    const otherNode = new DepositSweeper(t.app.deps, qnt(), t.app.log);

    const reports = await Promise.all([sweep(), sweep(), otherNode.sweep()]);
    expect(reports.reduce((n, r) => n + r.recorded, 0)).toBe(1);
    expect(reports.reduce((n, r) => n + r.mined, 0)).toBe(1);
    await sweep();
    expect(await balanceOf(await treasury())).toBe(treasuryBefore + 6n * QNT);
    const [row, ...others] = await sweepsOf(who.index);
    expect(others).toEqual([]);
    expect(row!.status).toBe('MINED');
    const sent = await transactionsOf(row!.id);
    expect(sent.gas.length).toBeLessThanOrEqual(1);
    expect(sent.transfer).toHaveLength(1);
  });

  it('after a crash between steps, the next run goes on from where the sweep stands and sends nothing twice', async () => {
    const who = await depositor();
    await payConfirmed(who.address, 7n * QNT);
    const treasuryBefore = await balanceOf(await treasury());
    // A node that dies at the transfer: before sending it, then (a second sweep) just after.
    const dying = (when: 'before' | 'after') => {
      const real = t.app.deps.sender;
      const sender = {
        own: () => undefined,
        signerFor: (network: { code: string }) => real.signerFor(network),
        waitForReceipt: real.waitForReceipt.bind(real),
        send: async (request: SendRequest) => {
          if (!request.reference.startsWith('sweep:')) return real.send(request);
          if (when === 'before') throw new Error('the process died');
          await real.send(request);
          throw new Error('the process died');
        },
      } as unknown as PlatformSender;
      return new DepositSweeper({ ...t.app.deps, sender }, qnt(), t.app.log);
    };

    expect(await dying('before').sweep()).toMatchObject({ recorded: 1, waiting: 1 });
    let [row] = await sweepsOf(who.index);
    expect(row).toMatchObject({ status: 'PENDING', txHash: null });
    const gasHash = row!.gasTxHash;
    expect(await balanceOf(who.address)).toBe(7n * QNT);

    expect(await sweep()).toMatchObject({ recorded: 0, mined: 1 });
    [row] = await sweepsOf(who.index);
    expect(row).toMatchObject({ status: 'MINED', gasTxHash: gasHash });
    expect(await transactionsOf(row!.id)).toMatchObject({ gas: [{ txHash: gasHash }], transfer: [{}] });

    await payConfirmed(who.address, 2n * QNT);
    expect(await dying('after').sweep()).toMatchObject({ recorded: 1, waiting: 1 });
    const second = (await sweepsOf(who.index)).find((s) => s.id !== row!.id)!;
    expect(second).toMatchObject({ status: 'SENT' });
    expect(await sweep()).toMatchObject({ recorded: 0, mined: 1 });
    expect(await transactionsOf(second.id)).toMatchObject({ transfer: [{ txHash: second.txHash }] });
    expect((await sweepsOf(who.index)).every((s) => s.status === 'MINED')).toBe(true);
    expect(await balanceOf(await treasury())).toBe(treasuryBefore + 9n * QNT);
    expect(await balanceOf(who.address)).toBe(0n);
  });

  it('does not sweep where the deposit keys are an xpub (the operator sweeps with their own wallet)', async () => {
    const { config } = t.app.deps;
    const withXpub = { ...config, qnt: { ...config.qnt, depositXpub: (await qnt().depositKeys()).xpub } };
    const sweeper = new DepositSweeper({ ...t.app.deps, config: withXpub }, qnt(), t.app.log);
    expect(sweeper.sweeps).toBe(false);
    expect((await sweeper.sweep()).skipped).toMatch(/xpub/);
    expect(t.app.deps.runtime.payment!.sweeps).toBe(true);
  });
});
