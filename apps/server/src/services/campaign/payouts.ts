import type { FastifyBaseLogger } from 'fastify';
import { decodeEventLog, encodeFunctionData, erc20Abi, pad, type Hex } from 'viem';
import type { Database } from '@connect/db';
import { weiToQnt, type TClaimDetail } from '@connect/shared';
import {
  startHere,
  type ChainView,
  type ConfirmedBlockLoss,
  type FollowedLog,
  type Follower,
} from '../../adapters/chains/follower/index.ts';
import { TRANSFER_TOPIC } from '../../adapters/chains/qnt-token.ts';
import { RpcError } from '../../adapters/chains/rpc.ts';
import { marketFees, platformTxRow, type Receipt } from '../../adapters/chains/sender/index.ts';
import { notFound, problem } from '../../lib/errors.ts';
import { AuditLogRepository, type AuditActor } from '../../repositories/audit-log.ts';
import type { Deps } from '../../types.ts';
import { announcePaid } from './claim-notices.ts';
import { ClaimRepository, type ClaimRow } from './claim-repository.ts';
import type { Claims } from './claims.ts';
import { fundLocalTreasury, qntBalance, rewardTreasury, type Treasury } from './treasury.ts';

/*
 * Paying a claim (issue 34 §3; docs/decisions/rewards.md "The payout"), exactly once:
 *
 * 1. Staff pay: the treasury signs `transfer(address, amount)` of the QNT token through the
 *    platform's sender (`reward-claim:<id>`). Its store step is one database transaction: the
 *    claim PENDING → PAYING (a conditional update: of two clicks, two nodes, one wins and the other
 *    sends nothing), the signed transaction stored (platform_transactions) and pointed at
 *    (tx_hash), the history and the audit entry — all before a byte is sent. A node that refuses
 *    the transfer gets it released: the claim is PENDING again, nothing was sent.
 * 2. The rewards follower (`reward-payouts`: Transfer logs of the token from the treasury) notes
 *    the block of the claim's transfer, matched by its hash, and completes the claim once that
 *    block has its confirmations, in the follower's transaction (the customer told with it).
 * 3. A crash after the store: the transfer is stored, never signed again. At start-up the sender's
 *    recovery sends again, byte for byte (same nonce, same hash), every stored transfer the chain
 *    does not know; the follower then completes the claim.
 * 4. A confirmed block the chain loses (the follower's confirmed-block-lost hook): a COMPLETED claim
 *    seen there is PAYING again and its transfer SIGNED again, so the recovery sends it again if the
 *    chain lost it too; the follower completes it once it is mined again (no second "paid" notice).
 * 5. A transfer that can never be mined (its nonce went to another transaction: the sender's
 *    `lost`) or that reverted (the in-flight check): the claim is PENDING again, still held, for staff
 *    to pay again — a new transfer is signed only once the old one is certain never to move QNT.
 */

/** The follower's name (its cursor's key): never renamed. */
export const PAYOUT_FOLLOWER = 'reward-payouts';
/** The platform transactions' reference prefix of payouts: `reward-claim:<claimId>`. */
export const PAYOUT_OWNER = 'reward-claim';
/** A PAYING transfer not seen mined this long after it was stored has its receipt checked. */
const IN_FLIGHT_CHECK_AFTER_MS = 30_000;

type PayoutDeps = Pick<Deps, 'db' | 'events' | 'config' | 'chains' | 'box' | 'sender' | 'followers'>;

const idOf = (reference: string) => reference.slice(reference.indexOf(':') + 1);

export class ClaimPayouts {
  private readonly repo: ClaimRepository;
  private treasury: Treasury | null = null;
  private readonly followerOf = new WeakMap<Treasury, Follower>();

  constructor(
    private readonly deps: PayoutDeps,
    private readonly claims: Claims,
    private readonly log: FastifyBaseLogger,
  ) {
    this.repo = new ClaimRepository(deps.db);
  }

  /**
   * While the service is assembled: the treasury loaded and, where claims can be paid, the
   * follower added (its cursor placed at the head, so a payout sent before its first step is
   * delivered), its confirmed-block-lost hook, and the owner of `reward-claim:` references.
   */
  async prepare(): Promise<void> {
    this.treasury = await rewardTreasury(this.deps).catch((err: unknown) => {
      this.log.warn({ err }, 'rewards: the treasury could not be loaded (claims cannot be paid here)');
      return null;
    });
    // Whatever this node pays: the start-up recovery of any node may find a payout's fate.
    this.deps.sender.own(PAYOUT_OWNER, {
      moved: (change, db) => new ClaimRepository(db).moved(idOf(change.reference), change.hash, change.was),
      lost: async (reference, reason) => {
        if (await this.repo.lost(idOf(reference), reason)) {
          this.log.warn({ reference, reason }, 'a reward payout can never be mined: the claim is PENDING again');
        }
      },
    });
    const follower = this.follower();
    if (!this.treasury || !follower) return;
    this.deps.sender.trust(this.treasury.signer);
    this.deps.followers.add(follower);
    this.deps.followers.onConfirmedBlockLost((tx, loss, chain) => this.onConfirmedBlockLost(tx, loss, chain));
    await startHere(this.deps.db, follower).catch((err: unknown) => {
      this.log.warn({ err }, 'could not place the rewards follower at the chain head (its first step will)');
    });
  }

  /** Whether claims can be paid from this node. */
  get isAvailable(): boolean {
    return this.treasury !== null;
  }

  /**
   * POST /management/reward/claims/{id}/pay: the claim's transfer signed, stored with the claim's
   * move to PAYING (and the audit entry), then sent. 409 CLAIM_NOT_PENDING when it is not PENDING
   * (also for the second of two clicks), TREASURY_SHORT when the treasury cannot cover it beside
   * the transfers in flight, 503 TREASURY_UNAVAILABLE when payouts are not configured or the node
   * refuses (the claim is PENDING again).
   */
  async pay(id: string, actor: AuditActor): Promise<TClaimDetail> {
    const claim = await this.repo.find(id);
    if (!claim) throw notFound('CLAIM_NOT_FOUND');
    if (claim.status !== 'PENDING') throw problem('CLAIM_NOT_PENDING');
    // The treasury this node follows payouts of (loaded while the service was assembled).
    const treasury = this.treasury;
    if (!treasury) throw problem('TREASURY_UNAVAILABLE');
    await fundLocalTreasury(treasury, this.log);
    const follower = this.follower();
    if (follower) await startHere(this.deps.db, follower).catch(() => undefined);
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [claim.address.toLowerCase() as Hex, claim.amountWei],
    });
    const chain = await this.chainFacts(treasury, claim, data);
    let sent;
    try {
      sent = await this.deps.sender.send({
        network: treasury.network,
        signer: treasury.signer,
        reference: `${PAYOUT_OWNER}:${id}`,
        fields: { to: treasury.token, data, gas: chain.gas, fees: chain.fees },
        store: (tx) =>
          this.repo.startPayout(id, platformTxRow(tx), actor.id, (db) =>
            new AuditLogRepository(db)
              .record(actor, {
                action: 'CLAIM_PAID',
                recordType: 'reward_claim',
                recordId: id,
                before: { status: 'PENDING' },
                after: { status: 'PAYING', txHash: tx.hash, amount: weiToQnt(claim.amountWei), to: claim.address },
              })
              .then(() => undefined),
          ),
        release: (tx) =>
          this.repo.releasePayout(
            id,
            { networkId: tx.networkId, txHash: tx.hash },
            'The node refused the transfer: nothing was sent.',
          ),
      });
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      this.log.warn({ err, claim: id }, 'a reward payout was refused by the node');
      throw problem('TREASURY_UNAVAILABLE', { detail: `The transfer was not sent: ${err.message}` });
    }
    if (!sent) throw problem('CLAIM_NOT_PENDING');
    return this.claims.detail(id);
  }

  /**
   * 409 TREASURY_SHORT unless the treasury's QNT covers the claim beside the payouts in flight
   * (a transfer beyond it would revert on chain); then the transfer's gas (the node's estimate and
   * a fifth more) and fees.
   */
  private async chainFacts(treasury: Treasury, claim: ClaimRow, data: Hex) {
    const unavailable = (err: unknown) => {
      this.log.warn({ err, claim: claim.id }, 'a reward payout could not be prepared');
      return problem('TREASURY_UNAVAILABLE', {
        detail: `${treasury.networkName} could not prepare the transfer: ${err instanceof Error ? err.message : String(err)}`,
      });
    };
    const balance = await qntBalance(treasury.call, treasury.token, treasury.address).catch((err: unknown) => {
      throw unavailable(err);
    });
    if (balance - (await this.repo.inFlightWei(claim.id)) < claim.amountWei) {
      throw problem('TREASURY_SHORT', {
        detail: `The treasury holds ${weiToQnt(balance)} QNT, less the payouts in flight: not enough for this claim of ${weiToQnt(claim.amountWei)} QNT.`,
      });
    }
    try {
      const [estimate, fees] = await Promise.all([
        treasury.call<Hex>('eth_estimateGas', [{ from: treasury.address, to: treasury.token, data }]).then(BigInt),
        marketFees(treasury.call),
      ]);
      return { gas: estimate + estimate / 5n, fees };
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** The follower of the treasury's transfers, or null where claims are not paid. One per treasury. */
  follower(): Follower | null {
    const treasury = this.treasury;
    if (!treasury) return null;
    let follower = this.followerOf.get(treasury);
    if (!follower) {
      const { network } = treasury;
      follower = {
        name: PAYOUT_FOLLOWER,
        network: { code: network.code, chainId: network.chainId, rpcUrl: network.rpcUrl },
        confirmations: this.deps.config.qnt.confirmations,
        // The token's Transfer logs from the treasury only: the payouts, whatever else moves the token.
        filter: {
          address: treasury.token,
          topics: [TRANSFER_TOPIC, pad(treasury.address.toLowerCase() as Hex, { size: 32 })],
        },
        onLogs: (tx, logs) => this.onLogs(tx, logs),
        onReorg: (tx, fromBlock) => new ClaimRepository(tx).unseeFrom(Number(fromBlock)),
        onConfirmed: (tx, upTo) => this.onConfirmed(tx, upTo),
      };
      this.followerOf.set(treasury, follower);
    }
    return follower;
  }

  /** A PAYING claim's transfer seen: its block noted (it completes once confirmed). */
  private async onLogs(tx: Database, logs: FollowedLog[]): Promise<void> {
    const repo = new ClaimRepository(tx);
    const hashes = [...new Set(logs.map((log) => log.txHash.toLowerCase()))];
    let claims = await repo.payingByTx(hashes);
    // A transfer no claim points at may be one a fee bump replaced, mined first: the claim points back at it.
    const others = hashes.filter((hash) => !claims.some((claim) => claim.txHash === hash));
    let adopted = false;
    for (const hash of others)
      adopted = (await this.deps.sender.adoptMined(tx, this.treasury!.network.id, hash as Hex)) || adopted;
    if (adopted) claims = await repo.payingByTx(hashes);
    for (const claim of claims) {
      const log = logs.find((l) => l.txHash.toLowerCase() === claim.txHash);
      const transfer = log && decodeTransfer(log);
      // The claim's own signed transfer, so it is this one; checked all the same.
      if (!transfer || transfer.to !== claim.address.toLowerCase() || transfer.value !== claim.amountWei) {
        this.log.error(
          { claim: claim.id, txHash: claim.txHash },
          'a reward payout moved something else than its claim',
        );
        continue;
      }
      await repo.markSeen(claim.id, { number: Number(log.blockNumber), hash: log.blockHash.toLowerCase() });
    }
  }

  private async onConfirmed(tx: Database, upTo: bigint): Promise<void> {
    for (const { claim, isFirst } of await new ClaimRepository(tx).completeUpTo(Number(upTo))) {
      if (isFirst) await announcePaid(this.deps.events, tx, claim);
    }
  }

  /**
   * Blocks the follower had confirmed are gone (docs/decisions/payments.md "Confirmed blocks lost"):
   * the claims completed in them are PAYING again (their transfers SIGNED again, for the recovery).
   * Past the follower's window, the completed claims below `fromBlock` are checked against the
   * chain, newest first, down to the first whose block the chain still has.
   */
  async onConfirmedBlockLost(tx: Database, loss: ConfirmedBlockLoss, chain: ChainView): Promise<void> {
    const follower = this.follower();
    if (!follower || loss.follower !== PAYOUT_FOLLOWER || loss.network.chainId !== follower.network.chainId) return;
    const repo = new ClaimRepository(tx);
    let from = Number(loss.fromBlock);
    if (loss.beyondWindow) {
      for (const claim of await repo.completedBelow(from, 1_000)) {
        if ((await chain.hashAt(BigInt(claim.seenBlock!)))?.toLowerCase() === claim.seenBlockHash) break;
        from = claim.seenBlock!;
      }
    }
    const reopened: string[] = [];
    for (const claim of await repo.completedFrom(from)) {
      const note = `The chain lost block ${claim.seenBlock} with this transfer: it is followed again until mined.`;
      if (await repo.reopen(claim, note)) reopened.push(claim.id);
    }
    if (reopened.length) {
      this.log.error({ claims: reopened, fromBlock: from }, 'the chain lost confirmed reward payouts: followed again');
    }
  }

  /**
   * At start-up (and by the in-flight job): on a local chain the treasury funded; the stored
   * transfers the chain lost sent again (the sender's recovery, idempotent); in-flight transfers
   * checked for a revert.
   */
  async recover(): Promise<void> {
    const treasury = this.treasury;
    if (!treasury) return;
    await fundLocalTreasury(treasury, this.log);
    await this.deps.sender.recover({ ...treasury.network, isLocal: treasury.isLocal });
    await this.checkInFlight();
  }

  /**
   * PAYING transfers not seen mined a while after they were stored: one that reverted (no QNT
   * moved; its nonce is spent) puts its claim back to PENDING, to pay again. A mined one is left
   * to the follower; one the chain does not know to the recovery.
   */
  async checkInFlight(now: Date = new Date()): Promise<number> {
    const treasury = this.treasury;
    if (!treasury) return 0;
    let reverted = 0;
    const unseen = await this.repo.unseenPaying(new Date(now.getTime() - IN_FLIGHT_CHECK_AFTER_MS));
    if (unseen.length === 0) return 0;
    // A revert counts once its block has the follower's confirmations: a reorg could yet mine the
    // same transfer again, successfully, and a second payout would then pay the claim twice.
    const head = BigInt(await treasury.call<Hex>('eth_blockNumber', []));
    const confirmations = BigInt(Math.max(1, this.deps.config.qnt.confirmations));
    for (const claim of unseen) {
      try {
        const receipt = await treasury.call<Receipt | null>('eth_getTransactionReceipt', [claim.txHash]);
        if (
          receipt &&
          receipt.status !== '0x1' &&
          BigInt(receipt.blockNumber) + confirmations - 1n <= head &&
          (await this.repo.reverted(claim.id, claim.txHash!, treasury.network.id))
        ) {
          reverted++;
          this.log.warn(
            { claim: claim.id, txHash: claim.txHash },
            'a reward payout reverted: the claim is PENDING again',
          );
        }
      } catch (err) {
        this.log.warn({ err, claim: claim.id }, 'could not check a reward payout in flight');
      }
    }
    return reverted;
  }
}

function decodeTransfer(log: FollowedLog): { to: string; value: bigint } | null {
  try {
    const { args } = decodeEventLog({
      abi: erc20Abi,
      eventName: 'Transfer',
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
    });
    return { to: args.to.toLowerCase(), value: args.value };
  } catch {
    return null;
  }
}
