import { and, eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, mailOutbox, platformTransactions, rewardClaims } from '@connect/db';
import { qntToWei, ZClaim, ZClaimDetail, ZTreasury, type TClaimDetail } from '@connect/shared';
import type { TestChain } from '../../../test/chains.ts';
import { signInAs, type TestContext } from '../../../test/helpers.ts';
import { CursorMovedError, followStep } from '../../adapters/chains/follower/index.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { marketFees, platformTxRow } from '../../adapters/chains/sender/index.ts';
import { serializable } from '../../adapters/chains/sender/send.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import type { PlanUser } from '../account-plan/testing.ts';
import { startQntTestApp, stopQntTestApp } from '../payment/test-support.ts';
import { ClaimRepository } from './claim-repository.ts';
import { newRewardsCustomer } from './test-support.ts';
import { qntBalance, rewardTreasury, TREASURY_FUNDING } from './treasury.ts';

/*
 * Issue 34 §3: staff pay a claim from the treasury on a local anvil chain. The transfer is signed
 * and stored with the claim's move to PAYING before it is sent, the follower completes the claim
 * once the transfer has its confirmations, the address's QNT grows by exactly the claim, and a
 * confirmed block the chain loses puts the claim back to PAYING until its transfer is mined again.
 */
const CONFIRMATIONS = 2;
const API = '/api/campaign';

let chain: TestChain;
let token: Hex;
let t: TestContext;
let admin: { headers: { authorization: string }; sub: string };

beforeAll(async () => {
  ({ chain, token, t } = await startQntTestApp({ QNT_CONFIRMATIONS: String(CONFIRMATIONS) }));
  admin = await signInAs(t, { role: 'QUANT_ADMIN' });
}, 60_000);
afterAll(() => stopQntTestApp(t, chain));

const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain.rpcUrl, method, params);
const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
const call = (session: { headers: Record<string, string> }, method: 'GET' | 'POST', url: string, body?: object) =>
  t.app.inject({ method, url: `${API}${url}`, headers: session.headers, ...(body ? { payload: body } : {}) });
/** Sends a signed transaction and answers its receipt: anvil mines it just after answering the send. */
async function sendRawMined(raw: Hex): Promise<{ status: Hex }> {
  const hash = await rpc<Hex>('eth_sendRawTransaction', [raw]);
  return vi.waitFor(
    async () =>
      (await rpc<{ status: Hex } | null>('eth_getTransactionReceipt', [hash])) ??
      Promise.reject(new Error('not mined')),
    { timeout: 5_000, interval: 20 },
  );
}
const payouts = () => t.app.deps.runtime.rewards!.payouts;
const qntAt = (address: string) => qntBalance(rpc, token, address as Hex);
const freshAddress = () => privateKeyToAddress(generatePrivateKey()).toLowerCase();

/** One step of the rewards follower with the app's hooks (the app's own job may step first), then the subscribers. */
async function follow() {
  const follower = payouts().follower()!;
  for (let attempt = 0; ; attempt++) {
    try {
      await followStep(t.db.db, follower, {
        maxBlocks: 1_000,
        onConfirmedBlockLost: t.app.deps.followers.confirmedBlockLostHooks(),
      });
      break;
    } catch (error) {
      if (!(error instanceof CursorMovedError) || attempt >= 5) throw error;
    }
  }
  await t.app.events.drain();
}

async function claimOf(
  qnt: string,
  address = freshAddress(),
): Promise<{ user: PlanUser; id: string; address: string }> {
  const user = await newRewardsCustomer(t);
  await new LedgerRepository(t.db.db).grant(user.accountId, 'REWARD_QNT', qntToWei(qnt)!, {
    reason: 'test reward',
    reference: `test-grant:${user.accountId}`,
  });
  const res = await call(user, 'POST', '/reward', { address, qnt });
  expect(res.statusCode, res.body).toBe(201);
  return { user, id: ZClaim.parse(res.json()).id, address };
}

const pay = (id: string) => call(admin, 'POST', `/management/reward/claims/${id}/pay`);
const detail = async (id: string): Promise<TClaimDetail> =>
  ZClaimDetail.parse((await call(admin, 'GET', `/management/reward/claims/${id}`)).json());

/** Steps the follower until the claim has `status`. */
async function followUntil(id: string, status: TClaimDetail['status']) {
  await vi.waitFor(
    async () => {
      await follow();
      expect((await detail(id)).status).toBe(status);
    },
    { timeout: 10_000, interval: 100 },
  );
}

/** The claim's transfer gets its confirmations and the follower completes the claim. */
async function confirm(id: string) {
  await mine(CONFIRMATIONS);
  await followUntil(id, 'COMPLETED');
}

/**
 * The start-up recovery sends the stored transfer `hash` again (byte for byte: the same hash),
 * and the claim completes with it.
 */
async function recoverAndConfirm(id: string, hash: string) {
  await payouts().recover();
  expect(await rpc<unknown>('eth_getTransactionByHash', [hash])).not.toBeNull();
  await confirm(id);
  expect((await detail(id)).txHash).toBe(hash);
}

const transferOf = async (hash: string) =>
  (await t.db.db.select().from(platformTransactions).where(eq(platformTransactions.txHash, hash)))[0];

/** How many "Claim … paid" mails the customer has had (once the events are delivered). */
async function paidMails(email: string) {
  await t.app.events.drain();
  const mails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  return mails.filter((m) => /^Claim CLM-\w+ paid$/.test(m.subject)).length;
}

/**
 * What pay() stores before it sends — the claim PAYING and its signed transfer of `amount` at the
 * treasury's next nonce (or `nonce`) — without sending it: a crash between the two.
 */
async function storeUnsent(id: string, address: string, amount: bigint, nonce?: bigint) {
  const treasury = (await rewardTreasury(t.app.deps))!;
  const at = nonce ?? BigInt(await rpc<Hex>('eth_getTransactionCount', [treasury.address, 'pending']));
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address as Hex, amount] });
  const fields = { to: token, data, gas: 100_000n, fees: await marketFees(rpc) };
  const signed = await treasury.signer.signTransaction(serializable(treasury.network.chainId, fields, at));
  const tx = {
    networkId: treasury.network.id,
    from: treasury.address,
    nonce: at,
    reference: `reward-claim:${id}`,
    ...signed,
  };
  expect(await new ClaimRepository(t.db.db).startPayout(id, platformTxRow(tx), admin.sub)).toBe(true);
  return { ...signed, nonce: at, treasury };
}

describe('reward payouts on chain', () => {
  it('funds the local treasury at start: QNT from an anvil account, ETH for gas', async () => {
    const treasury = (await rewardTreasury(t.app.deps))!;
    expect(treasury.isLocal).toBe(true);
    expect(await qntAt(treasury.address)).toBeGreaterThanOrEqual(TREASURY_FUNDING.below);
    expect(BigInt(await rpc<Hex>('eth_getBalance', [treasury.address, 'latest']))).toBeGreaterThan(0n);
    const res = await call(admin, 'GET', '/management/reward/treasury');
    expect(res.statusCode, res.body).toBe(200);
    expect(ZTreasury.parse(res.json())).toMatchObject({ address: treasury.address, networkName: expect.any(String) });
  });

  it('pays a claim once: PAYING with its stored transfer, COMPLETED once confirmed, the address up by exactly the claim', async () => {
    const { user, id, address } = await claimOf('2.5');
    const treasury = (await rewardTreasury(t.app.deps))!;
    const before = await qntAt(treasury.address);
    const res = await pay(id);
    expect(res.statusCode, res.body).toBe(200);
    const paying = ZClaimDetail.parse(res.json());
    expect(paying.status).toBe('PAYING');
    expect(paying.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(paying.history.map((h) => h.status)).toEqual(['PENDING', 'PAYING', 'SENT']);
    // Stored before it was sent, under the claim's reference.
    expect(await transferOf(paying.txHash!)).toMatchObject({
      reference: `reward-claim:${id}`,
      fromAddress: treasury.address,
    });

    // The second click: nothing sent.
    const again = await pay(id);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ code: string }>().code).toBe('CLAIM_NOT_PENDING');

    expect(await qntAt(address)).toBe(qntToWei('2.5'));
    expect(await qntAt(treasury.address)).toBe(before - qntToWei('2.5')!);
    // Seen in its block, not yet confirmed: PAYING still.
    await follow();
    expect((await detail(id)).status).toBe('PAYING');
    await confirm(id);
    const done = await detail(id);
    expect(done.completedAt).not.toBeNull();
    expect(done.history.map((h) => h.status)).toEqual(['PENDING', 'PAYING', 'SENT', 'COMPLETED']);
    expect((await transferOf(paying.txHash!))!.status).toBe('MINED');
    const audit = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, id), eq(auditLog.action, 'CLAIM_PAID')));
    expect(audit).toHaveLength(1);
    expect(await paidMails(user.email)).toBe(1);
    expect(await qntAt(address)).toBe(qntToWei('2.5'));
  });

  it('of two staff paying one claim at once, one transfer is sent and the other click answers 409', async () => {
    const { id, address } = await claimOf('3');
    const results = await Promise.all([pay(id), pay(id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const sent = await t.db.db
      .select()
      .from(platformTransactions)
      .where(eq(platformTransactions.reference, `reward-claim:${id}`));
    expect(sent).toHaveLength(1);
    await mine(CONFIRMATIONS);
    expect(await qntAt(address)).toBe(qntToWei('3'));
  });

  it('refuses a claim the treasury cannot cover (409 TREASURY_SHORT): the claim stays PENDING, nothing is sent', async () => {
    const treasury = (await rewardTreasury(t.app.deps))!;
    const held = await qntAt(treasury.address);
    const { id } = await claimOf((held / 10n ** 18n + 1n).toString());
    const res = await pay(id);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ code: string }>().code).toBe('TREASURY_SHORT');
    expect((await detail(id)).status).toBe('PENDING');
    const [row] = await t.db.db.select().from(rewardClaims).where(eq(rewardClaims.id, id));
    expect(row!.txHash).toBeNull();
  });

  it('a transfer stored and never sent (the server died between the two) is sent at start-up, byte for byte, and paid once', async () => {
    const { id, address } = await claimOf('4');
    const signed = await storeUnsent(id, address, qntToWei('4')!);
    expect(await rpc<unknown>('eth_getTransactionByHash', [signed.hash])).toBeNull();
    // A second staff click finds it PAYING: nothing is signed again.
    expect((await pay(id)).statusCode).toBe(409);

    await recoverAndConfirm(id, signed.hash);
    expect(await qntAt(address)).toBe(qntToWei('4'));
    // The app's sender signs on from the chain's nonce: the next payout is not stuck behind it.
    const next = await claimOf('1');
    expect((await pay(next.id)).statusCode).toBe(200);
    await mine(CONFIRMATIONS);
    expect(await qntAt(next.address)).toBe(qntToWei('1'));
  });

  it('a stored transfer whose nonce another transaction took (lost for good) puts the claim back to PENDING, to pay again once', async () => {
    const { id, address } = await claimOf('2');
    const stored = await storeUnsent(id, address, qntToWei('2')!);
    // Another transaction of the treasury's key takes the nonce first (an operator's wallet, say).
    const other = await stored.treasury.signer.signTransaction(
      serializable(
        stored.treasury.network.chainId,
        { to: stored.treasury.address, gas: 21_000n, fees: await marketFees(rpc) },
        stored.nonce,
      ),
    );
    await sendRawMined(other.raw);
    await payouts().recover();
    const lost = await detail(id);
    expect(lost).toMatchObject({ status: 'PENDING', txHash: null });
    expect(lost.history.at(-1)).toMatchObject({ status: 'REVERTED' });
    expect(await qntAt(address)).toBe(0n);
    // Held still: staff pay it again, with a new transfer.
    expect((await pay(id)).statusCode).toBe(200);
    await confirm(id);
    expect(await qntAt(address)).toBe(qntToWei('2'));
  });

  it('a fee-bumped payout whose original transfer is mined first completes with the original: paid once', async () => {
    const { id, address } = await claimOf('1.25');
    const original = await storeUnsent(id, address, qntToWei('1.25')!);
    await rpc('evm_setAutomine', [false]);
    let replacement: Hex;
    try {
      // The stored transfer is stuck: a replacement with higher fees is sent (and waits in the pool)…
      const bumps = await t.app.deps.sender.bumpStuck({ olderThanMs: 0 });
      const bump = bumps.find((b) => b.reference === `reward-claim:${id}`)!;
      expect(bump.was).toBe(original.hash);
      replacement = bump.hash;
      expect((await detail(id)).txHash).toBe(replacement);
      // …but the original is the one mined (another node still had it in its pool, say).
      await rpc('anvil_dropTransaction', [replacement]);
      await rpc('eth_sendRawTransaction', [original.raw]);
      await mine(1);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    expect(await rpc<unknown>('eth_getTransactionReceipt', [replacement])).toBeNull();
    await confirm(id);
    const paid = await detail(id);
    expect(paid).toMatchObject({ status: 'COMPLETED', txHash: original.hash });
    expect(await qntAt(address)).toBe(qntToWei('1.25'));
    const rows = await t.db.db
      .select({ hash: platformTransactions.txHash, status: platformTransactions.status })
      .from(platformTransactions)
      .where(eq(platformTransactions.reference, `reward-claim:${id}`));
    expect(rows).toEqual(
      expect.arrayContaining([
        { hash: original.hash, status: expect.not.stringMatching(/REPLACED/) },
        { hash: replacement, status: 'REPLACED' },
      ]),
    );
  });

  it('a payout the follower saw mined is not moved to a later fee bump (it could never be mined)', async () => {
    const { id, address } = await claimOf('1.75');
    const paid = ZClaimDetail.parse((await pay(id)).json());
    await vi.waitFor(
      async () => {
        await follow();
        const [row] = await t.db.db.select().from(rewardClaims).where(eq(rewardClaims.id, id));
        expect(row!.seenBlock).not.toBeNull();
      },
      { timeout: 10_000, interval: 100 },
    );
    // A bump sent through a node that lagged behind the block: the sender tells the owner it moved.
    await new ClaimRepository(t.db.db).moved(id, `0x${'ab'.repeat(32)}`, [paid.txHash!]);
    expect((await detail(id)).txHash).toBe(paid.txHash);
    await confirm(id);
    expect(await qntAt(address)).toBe(qntToWei('1.75'));
  });

  it('a transfer that reverted on chain (no QNT moved) puts the claim back to PENDING at the in-flight check', async () => {
    const treasury = (await rewardTreasury(t.app.deps))!;
    const { id, address } = await claimOf('1');
    // More than the treasury holds: mined, and reverted.
    const held = await qntAt(treasury.address);
    const stored = await storeUnsent(id, address, held + 1n);
    const receipt = await sendRawMined(stored.raw);
    expect(receipt.status).toBe('0x0');
    // Not yet: a transfer is checked once it has been in flight a while, and its revert counts once
    // its block has the confirmations (a reorg could yet mine it again, successfully).
    expect(await payouts().checkInFlight()).toBe(0);
    expect(await payouts().checkInFlight(new Date(Date.now() + 60_000))).toBe(0);
    expect((await detail(id)).status).toBe('PAYING');
    await mine(t.app.deps.config.qnt.confirmations);
    expect(await payouts().checkInFlight(new Date(Date.now() + 60_000))).toBe(1);
    const reverted = await detail(id);
    expect(reverted).toMatchObject({ status: 'PENDING', txHash: null });
    expect(await qntAt(address)).toBe(0n);
    expect((await transferOf(stored.hash))!.status).toBe('FAILED');
  });

  it('a confirmed payout whose block the chain loses is PAYING again, sent again byte for byte, and completed once more — the customer told once', async () => {
    const snapshot = await rpc<Hex>('evm_snapshot');
    const { user, id, address } = await claimOf('1.5');
    const paid = ZClaimDetail.parse((await pay(id)).json());
    await confirm(id);
    // The chain goes back to before the payout (a local chain restarted from an older state).
    await rpc('evm_revert', [snapshot]);
    await mine(8);
    expect(await qntAt(address)).toBe(0n);
    await followUntil(id, 'PAYING');
    expect((await detail(id)).history.map((h) => h.status)).toContain('REVERTED');

    // The start-up recovery sends the stored transfer again: the same hash, the same nonce.
    await recoverAndConfirm(id, paid.txHash!);
    expect(await qntAt(address)).toBe(qntToWei('1.5'));
    expect(await paidMails(user.email)).toBe(1);
  });
});
