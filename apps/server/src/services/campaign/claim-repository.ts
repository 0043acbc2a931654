import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, gte, sql, type SQL } from 'drizzle-orm';
import {
  networks,
  platformTransactions,
  rewardClaimEvents,
  rewardClaims,
  type Database,
  type RewardClaimEventStatus,
  type RewardClaimStatus,
} from '@connect/db';
import type { TClaimSortField } from '@connect/shared';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { PlatformTxRepository, type NewPlatformTx } from '../../repositories/platform.ts';

export type ClaimRow = typeof rewardClaims.$inferSelect;
export type ClaimEventRow = typeof rewardClaimEvents.$inferSelect;
/** A claim with its network's name (the payout's). */
export type ClaimRecord = ClaimRow & { networkName: string | null };
export type ClaimListFilter = { statuses?: RewardClaimStatus[] | undefined; accountId?: string | undefined };
export type ClaimSort = { field: TClaimSortField; direction: 'asc' | 'desc' };

/** The ledger references of a claim's hold and of its release (a rejection). */
export const claimReference = (id: string) => `reward-claim:${id}`;
export const releaseReference = (id: string) => `reward-claim-release:${id}`;

/** A tracking code's alphabet: no 0/O, 1/I/L, so it reads back over the phone. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const trackingCode = () =>
  `CLM-${Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('')}`;

const SORT_KEYS = { accountId: rewardClaims.accountId, createdAt: rewardClaims.createdAt } as const;

const withNetwork = { claim: rewardClaims, networkName: networks.name } as const;
const toRecord = (row: { claim: ClaimRow; networkName: string | null }): ClaimRecord => ({
  ...row.claim,
  networkName: row.networkName,
});

/**
 * Claims and their history (issue 34 §3), owned by the campaign service. Every change of a claim's
 * status is a conditional update (the status it leaves is in its WHERE), so two staff clicks, two
 * nodes or a retry after a crash change it once. Built over the database or a transaction.
 */
export class ClaimRepository {
  constructor(readonly db: Database) {}

  transaction<T>(work: (repo: ClaimRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new ClaimRepository(db), db);
    });
  }

  async networkId(code: string): Promise<string | null> {
    const [row] = await this.db.select({ id: networks.id }).from(networks).where(eq(networks.code, code));
    return row?.id ?? null;
  }

  /**
   * A new PENDING claim whose amount leaves the account's REWARD_QNT at once (`reward-claim:<id>`),
   * in this repository's transaction: 'insufficient' when the balance does not hold it (nothing
   * written). The ledger locks the account's balance row first, so of two claims for the whole
   * balance the second waits and finds it gone.
   */
  async create(claim: {
    accountId: string;
    userId: string;
    address: string;
    amountWei: bigint;
    networkId: string | null;
    idempotencyKey?: string | undefined;
  }): Promise<ClaimRow | 'insufficient' | { madeBefore: string }> {
    const row = await this.insertWithCode(claim);
    if (!row) {
      // The same form's request again: its claim was made by the first one (a concurrent first's
      // insert held this one until it committed).
      const [first] = await this.db
        .select({ id: rewardClaims.id })
        .from(rewardClaims)
        .where(
          and(eq(rewardClaims.accountId, claim.accountId), eq(rewardClaims.idempotencyKey, claim.idempotencyKey!)),
        );
      return { madeBefore: first!.id };
    }
    const held = await new LedgerRepository(this.db).claim(claim.accountId, 'REWARD_QNT', claim.amountWei, {
      reason: `Reward claim ${row.trackingCode}`,
      reference: claimReference(row.id),
    });
    if (held.outcome !== 'applied') return 'insufficient';
    await this.event(row.id, 'PENDING', { actorId: claim.userId });
    return row;
  }

  /**
   * The claim with a fresh tracking code: a clash (1 in 31^8 per pair) draws again. Null when the
   * account already has a claim with this idempotency key.
   */
  private async insertWithCode(claim: Parameters<ClaimRepository['create']>[0]): Promise<ClaimRow | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        // A savepoint: a clash must not abort the caller's transaction.
        return await this.db.transaction(async (tx) => {
          const [row] = await tx
            .insert(rewardClaims)
            .values({ ...claim, trackingCode: trackingCode() })
            .onConflictDoNothing({ target: [rewardClaims.accountId, rewardClaims.idempotencyKey] })
            .returning();
          return row ?? null;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
  }

  async find(id: string, options: { lock?: boolean } = {}): Promise<ClaimRecord | null> {
    const query = this.db
      .select(withNetwork)
      .from(rewardClaims)
      .leftJoin(networks, eq(networks.id, rewardClaims.networkId))
      .where(eq(rewardClaims.id, id));
    const [row] = options.lock ? await query.for('update', { of: rewardClaims }) : await query;
    return row ? toRecord(row) : null;
  }

  async history(claimId: string): Promise<ClaimEventRow[]> {
    return this.db
      .select()
      .from(rewardClaimEvents)
      .where(eq(rewardClaimEvents.claimId, claimId))
      .orderBy(asc(rewardClaimEvents.id));
  }

  /** One page of claims (the account's, or the staff list's filters), with the total. */
  async page(
    filter: ClaimListFilter,
    sort: ClaimSort,
    offset: number,
    limit: number,
  ): Promise<{ rows: ClaimRecord[]; total: number }> {
    const where = and(
      filter.statuses ? inArray(rewardClaims.status, filter.statuses) : undefined,
      filter.accountId ? eq(rewardClaims.accountId, filter.accountId) : undefined,
    );
    const order = sort.direction === 'asc' ? asc : desc;
    const rows = await this.db
      .select(withNetwork)
      .from(rewardClaims)
      .leftJoin(networks, eq(networks.id, rewardClaims.networkId))
      .where(where)
      .orderBy(order(SORT_KEYS[sort.field]), order(rewardClaims.createdAt), order(rewardClaims.id))
      .offset(offset)
      .limit(limit);
    const [count] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(rewardClaims)
      .where(where);
    return { rows: rows.map(toRecord), total: count?.n ?? 0 };
  }

  /** What claims in flight (PAYING, not yet seen mined) will still take from the treasury, but `except`'s. */
  async inFlightWei(except: string): Promise<bigint> {
    const [row] = await this.db
      .select({ sum: sql<string>`coalesce(sum(${rewardClaims.amountWei}), 0)::text` })
      .from(rewardClaims)
      .where(
        and(eq(rewardClaims.status, 'PAYING'), isNull(rewardClaims.seenBlock), sql`${rewardClaims.id} <> ${except}`),
      );
    return BigInt(row?.sum ?? '0');
  }

  /**
   * Staff pay: PENDING → PAYING with its transfer stored (platform_transactions) and pointed at, in
   * one transaction, before the transfer is sent. False when the claim is no longer PENDING (another
   * click, another node): nothing is stored, and the transfer is not sent.
   */
  async startPayout(
    id: string,
    tx: NewPlatformTx,
    actorId: string | null,
    /** The caller's writes of the same step (the audit entry), in its transaction. */
    within: (db: Database) => Promise<void> = async () => undefined,
  ): Promise<boolean> {
    return this.transaction(async (repo, db) => {
      const moved = await repo.move(id, ['PENDING'], {
        status: 'PAYING',
        txHash: tx.txHash,
        networkId: tx.networkId,
        seenBlock: null,
      });
      if (!moved) return false;
      await new PlatformTxRepository(db).insert(tx);
      await repo.event(id, 'PAYING', { actorId });
      await repo.event(id, 'SENT', { txHash: tx.txHash });
      await within(db);
      return true;
    });
  }

  /** Undoes startPayout for a transfer the node refused (never sent): PENDING again, to pay later. */
  async releasePayout(id: string, tx: { networkId: string; txHash: string }, why: string): Promise<void> {
    await this.transaction(async (repo, db) => {
      await new PlatformTxRepository(db).remove(tx.networkId, tx.txHash);
      const moved = await repo.move(id, ['PAYING'], { status: 'PENDING', txHash: null }, [
        eq(rewardClaims.txHash, tx.txHash),
      ]);
      if (moved) await repo.event(id, 'PENDING', { note: why });
    });
  }

  /** Staff reject a PENDING claim: its hold goes back to the account's REWARD_QNT. */
  async reject(id: string, reason: string, actorId: string | null): Promise<ClaimRow | null> {
    const row = await this.move(id, ['PENDING'], { status: 'REJECTED', note: reason });
    if (!row) return null;
    await new LedgerRepository(this.db).refund(row.accountId, 'REWARD_QNT', row.amountWei, {
      reason: `Reward claim ${row.trackingCode} rejected`,
      reference: releaseReference(id),
    });
    await this.event(id, 'REJECTED', { note: reason, actorId });
    return row;
  }

  /**
   * The sender replaced the claim's transfer (a fee bump), or found the one it replaced mined:
   * the claim points at `hash` when it pointed at one of `was` — unless the follower already saw
   * its transfer mined (a bump sent through a node that lagged behind that block can never be
   * mined; moving the claim to it would leave the claim PAYING for good). In the sender's transaction.
   */
  async moved(id: string, hash: string, was: readonly string[]): Promise<void> {
    if (was.length === 0) return;
    const [row] = await this.db
      .update(rewardClaims)
      .set({ txHash: hash, seenBlock: null, seenBlockHash: null, updatedAt: new Date() })
      .where(and(eq(rewardClaims.id, id), inArray(rewardClaims.txHash, [...was]), isNull(rewardClaims.seenBlock)))
      .returning({ id: rewardClaims.id });
    if (row) await this.event(id, 'RESENT', { txHash: hash });
  }

  /**
   * The claim's transfer can never be mined (its nonce went to another transaction): the claim is
   * PENDING again, held, for staff to pay (a new transfer) or reject. Answers whether it changed.
   * Only while the claim still points at a transfer the sender marked FAILED (it does so before it
   * tells the owner): a second node's recovery telling of the same lost transfer after staff paid
   * again must not put the new payout's claim back to PENDING (it would be paid twice).
   */
  async lost(id: string, reason: string): Promise<boolean> {
    return this.transaction(async (repo) => {
      const row = await repo.move(
        id,
        ['PAYING', 'COMPLETED'],
        { status: 'PENDING', txHash: null, seenBlock: null, seenBlockHash: null, completedAt: null },
        [
          sql`exists (select 1 from ${platformTransactions} where ${platformTransactions.txHash} = ${rewardClaims.txHash}
                and ${platformTransactions.status} = 'FAILED')`,
        ],
      );
      if (row) await repo.event(id, 'REVERTED', { note: reason });
      return Boolean(row);
    });
  }

  // ── The rewards follower's writes (its step's transaction) ───────────────────────────────

  /** PAYING claims whose transfer is one of these transactions (lower-case hashes). */
  async payingByTx(hashes: readonly string[]): Promise<ClaimRow[]> {
    if (hashes.length === 0) return [];
    return this.db
      .select()
      .from(rewardClaims)
      .where(and(eq(rewardClaims.status, 'PAYING'), inArray(rewardClaims.txHash, [...hashes])));
  }

  async markSeen(id: string, block: { number: number; hash: string }): Promise<void> {
    await this.db
      .update(rewardClaims)
      .set({ seenBlock: block.number, seenBlockHash: block.hash, updatedAt: new Date() })
      .where(and(eq(rewardClaims.id, id), eq(rewardClaims.status, 'PAYING')));
  }

  /** Blocks from `fromBlock` were replaced: what was seen there is unseen (read again). */
  async unseeFrom(fromBlock: number): Promise<void> {
    await this.db
      .update(rewardClaims)
      .set({ seenBlock: null, seenBlockHash: null, updatedAt: new Date() })
      .where(and(eq(rewardClaims.status, 'PAYING'), gte(rewardClaims.seenBlock, fromBlock)));
  }

  /**
   * PAYING claims seen in a block up to `upTo` (now confirmed): COMPLETED, their transfer MINED.
   * `isFirst`: false for a claim completed before (its block was lost, then mined again), whose
   * customer was told already.
   */
  async completeUpTo(upTo: number): Promise<{ claim: ClaimRecord; isFirst: boolean }[]> {
    const done = await this.db
      .update(rewardClaims)
      .set({ status: 'COMPLETED', completedAt: new Date(), updatedAt: new Date() })
      .where(
        and(eq(rewardClaims.status, 'PAYING'), isNotNull(rewardClaims.seenBlock), lte(rewardClaims.seenBlock, upTo)),
      )
      .returning({ id: rewardClaims.id });
    const txs = new PlatformTxRepository(this.db);
    const completed: { claim: ClaimRecord; isFirst: boolean }[] = [];
    for (const { id } of done) {
      const claim = (await this.find(id))!;
      const isFirst = !(await this.history(id)).some((event) => event.status === 'COMPLETED');
      if (claim.networkId && claim.txHash) await txs.setStatus(claim.networkId, claim.txHash, 'MINED');
      await this.event(id, 'COMPLETED', { txHash: claim.txHash });
      completed.push({ claim, isFirst });
    }
    return completed;
  }

  /** COMPLETED claims seen at or after `fromBlock` (which a chain lost), newest block first. */
  async completedFrom(fromBlock: number): Promise<ClaimRow[]> {
    return this.db
      .select()
      .from(rewardClaims)
      .where(and(eq(rewardClaims.status, 'COMPLETED'), gte(rewardClaims.seenBlock, fromBlock)))
      .orderBy(desc(rewardClaims.seenBlock));
  }

  /** COMPLETED claims seen below `block`, newest first (a reorg beyond the follower's window). */
  async completedBelow(block: number, limit: number): Promise<ClaimRow[]> {
    return this.db
      .select()
      .from(rewardClaims)
      .where(and(eq(rewardClaims.status, 'COMPLETED'), sql`${rewardClaims.seenBlock} < ${block}`))
      .orderBy(desc(rewardClaims.seenBlock))
      .limit(limit);
  }

  /**
   * A completed claim whose block the chain lost: PAYING again (the follower completes it when it
   * sees the transfer mined again), its stored transfer SIGNED again so the sender's recovery sends
   * it again if the chain lost it too.
   */
  async reopen(claim: ClaimRow, note: string): Promise<boolean> {
    const moved = await this.move(claim.id, ['COMPLETED'], {
      status: 'PAYING',
      completedAt: null,
      seenBlock: null,
      seenBlockHash: null,
    });
    if (!moved) return false;
    if (claim.networkId && claim.txHash) {
      await new PlatformTxRepository(this.db).setStatus(claim.networkId, claim.txHash, 'SIGNED');
    }
    await this.event(claim.id, 'REVERTED', { txHash: claim.txHash, note });
    return true;
  }

  /** A PAYING claim whose transfer was mined and reverted: PENDING again (no QNT moved). */
  async reverted(id: string, txHash: string, networkId: string): Promise<boolean> {
    return this.transaction(async (repo, db) => {
      const moved = await repo.move(id, ['PAYING'], { status: 'PENDING', txHash: null, seenBlock: null }, [
        eq(rewardClaims.txHash, txHash),
      ]);
      if (!moved) return false;
      await new PlatformTxRepository(db).setStatus(networkId, txHash, 'FAILED');
      await repo.event(id, 'REVERTED', { txHash, note: 'The transfer reverted on chain: no QNT moved.' });
      return true;
    });
  }

  /** PAYING claims not seen mined yet whose transfer was stored before `before` (the in-flight check). */
  async unseenPaying(before: Date): Promise<ClaimRow[]> {
    return this.db
      .select()
      .from(rewardClaims)
      .where(
        and(
          eq(rewardClaims.status, 'PAYING'),
          isNull(rewardClaims.seenBlock),
          isNotNull(rewardClaims.txHash),
          sql`${rewardClaims.updatedAt} < ${before}`,
        ),
      )
      .orderBy(asc(rewardClaims.updatedAt))
      .limit(100);
  }

  // ── Helpers ──────────────────────────────────────────────────────────────────────────────

  /** The claim's status moved from one of `from` (and `extra` holds): the row after, or null. */
  private async move(
    id: string,
    from: RewardClaimStatus[],
    set: Partial<
      Pick<ClaimRow, 'status' | 'txHash' | 'networkId' | 'note' | 'seenBlock' | 'seenBlockHash' | 'completedAt'>
    >,
    extra: SQL[] = [],
  ): Promise<ClaimRow | null> {
    const [row] = await this.db
      .update(rewardClaims)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(rewardClaims.id, id), inArray(rewardClaims.status, from), ...extra))
      .returning();
    return row ?? null;
  }

  private async event(
    claimId: string,
    status: RewardClaimEventStatus,
    details: { txHash?: string | null; note?: string | null; actorId?: string | null } = {},
  ): Promise<void> {
    await this.db.insert(rewardClaimEvents).values({
      claimId,
      status,
      txHash: details.txHash ?? null,
      note: details.note ?? null,
      actorId: details.actorId ?? null,
    });
  }
}
