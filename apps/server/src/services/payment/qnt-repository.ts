import { and, asc, desc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import {
  accounts,
  chainCursors,
  depositAddresses,
  networks,
  orders,
  qntPayments,
  qntTransfers,
  type Database,
  type QntPaymentReason,
  type QntPaymentStatus,
  type QntTransferStatus,
} from '@connect/db';
import { LedgerRepository } from '../../repositories/ledger.ts';

export type DepositAddressRow = typeof depositAddresses.$inferSelect;
export type QntPaymentRow = typeof qntPayments.$inferSelect;
export type QntTransferRow = typeof qntTransfers.$inferSelect;
export type NewQntTransfer = Pick<
  typeof qntTransfers.$inferInsert,
  'chainId' | 'txHash' | 'logIndex' | 'blockNumber' | 'blockHash' | 'fromAddress' | 'toAddress' | 'accountId' | 'amount'
>;

/** Addresses derived ahead at a time when the pool of unallocated ones is empty. */
const POOL_REFILL = 20;

/** The payments still waiting for QNT (an expired quote may still be paid late). */
const OPEN: QntPaymentStatus[] = ['NEW', 'PROCESSING', 'EXPIRED'];

/**
 * The only code that reads or writes the QNT payment tables (migration 0010): deposit addresses,
 * the transfers the follower saw, and the QNT side of orders. Built over the database or a
 * transaction.
 */
export class QntRepository {
  readonly ledger: LedgerRepository;

  constructor(private readonly db: Database) {
    this.ledger = new LedgerRepository(db);
  }

  transaction<T>(work: (repo: QntRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new QntRepository(tx as unknown as Database), tx as unknown as Database));
  }

  /** The QNT network's row: its chain, name and the token recorded for it. */
  async network(code: string): Promise<{ chainId: number; name: string; tokenAddress: string | null } | null> {
    const [row] = await this.db
      .select({ chainId: networks.chainId, name: networks.name, tokenAddress: networks.qntTokenAddress })
      .from(networks)
      .where(eq(networks.code, code));
    return row ?? null;
  }

  async addressOf(accountId: string): Promise<DepositAddressRow | null> {
    const [row] = await this.db.select().from(depositAddresses).where(eq(depositAddresses.accountId, accountId));
    return row ?? null;
  }

  /**
   * Gives the account the lowest unallocated address, for good (SKIP LOCKED: two accounts at once
   * take two addresses). Null when the pool is empty (`refill` it, then try again).
   */
  async allocate(accountId: string): Promise<DepositAddressRow | null> {
    const rows = (await this.db.execute(sql`
      update ${depositAddresses} set account_id = ${accountId}, allocated_at = now()
      where derivation_index = (
        select derivation_index from ${depositAddresses} where account_id is null
        order by derivation_index limit 1 for update skip locked)
        and not exists (select 1 from ${depositAddresses} where account_id = ${accountId})
      returning derivation_index as "derivationIndex", address, account_id as "accountId",
        allocated_at as "allocatedAt", created_at as "createdAt"`)) as unknown as { rows: DepositAddressRow[] };
    return rows.rows[0] ?? null;
  }

  /** Derives the next addresses into the pool (the indexes after the highest one). */
  async refill(derive: (index: number) => string): Promise<void> {
    const [row] = await this.db
      .select({ next: sql<number>`coalesce(max(${depositAddresses.derivationIndex}) + 1, 0)::int` })
      .from(depositAddresses);
    const next = Number(row?.next ?? 0);
    const values = Array.from({ length: POOL_REFILL }, (_, i) => ({
      derivationIndex: next + i,
      address: derive(next + i),
    }));
    await this.db.insert(depositAddresses).values(values).onConflictDoNothing();
  }

  /** The accounts of those of `addresses` that are deposit addresses (one index probe each: never a scan of all of them). */
  async owners(addresses: readonly string[]): Promise<Map<string, string>> {
    if (addresses.length === 0) return new Map();
    const rows = await this.db
      .select({ address: depositAddresses.address, accountId: depositAddresses.accountId })
      .from(depositAddresses)
      .where(inArray(depositAddresses.address, [...new Set(addresses)]));
    return new Map(rows.filter((r) => r.accountId).map((r) => [r.address, r.accountId!]));
  }

  async accountExists(accountId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    return Boolean(row);
  }

  async addressStats(): Promise<{ totalAddresses: number; totalUnallocatedAddresses: number }> {
    const [row] = await this.db
      .select({
        total: sql<number>`count(*)::int`,
        unallocated: sql<number>`(count(*) filter (where ${depositAddresses.accountId} is null))::int`,
      })
      .from(depositAddresses);
    return { totalAddresses: Number(row?.total ?? 0), totalUnallocatedAddresses: Number(row?.unallocated ?? 0) };
  }

  /**
   * Records transfers seen in blocks; a transfer seen again after its block was replaced goes back
   * to PROCESSING in its new block: one REORGED, one REVERSED (credited again once confirmed), or a
   * confirmed one whose block was lost (`lostToBlock` stays: it is credited already). Only the
   * same log — same recipient and amount — counts as seen again. Answers those that were new or
   * came back.
   *
   * A log's index counts in its block, not in its transaction: a transaction mined again at
   * another place in a block (a reorg, another transaction before it) has other log indexes. So a
   * transfer is the same one by its transaction and its place among that transaction's transfers
   * to deposit addresses (the n-th recorded here is the n-th seen again), with the same recipient
   * and amount; `log_index` stays the index it was first seen at — the transfer's key and the
   * one its ledger references are built from, so a transfer moved keeps its credit.
   */
  async recordTransfers(rows: NewQntTransfer[]): Promise<QntTransferRow[]> {
    if (rows.length === 0) return [];
    const moved: QntTransferRow[] = [];
    const rest: NewQntTransfer[] = [];
    const byTx = new Map<string, NewQntTransfer[]>();
    for (const row of rows) {
      const key = `${row.chainId}:${row.txHash}`;
      byTx.set(key, [...(byTx.get(key) ?? []), row]);
    }
    for (const seen of byTx.values()) {
      const { chainId, txHash } = seen[0]!;
      const known = await this.db
        .select()
        .from(qntTransfers)
        .where(and(eq(qntTransfers.chainId, chainId), eq(qntTransfers.txHash, txHash)))
        .orderBy(asc(qntTransfers.logIndex))
        .for('update');
      const ordered = [...seen].sort((a, b) => a.logIndex - b.logIndex);
      for (const [ordinal, row] of ordered.entries()) {
        const was = known.length === ordered.length ? known[ordinal] : undefined;
        // Another transfer, or this one at the index it was recorded at: the upsert below decides.
        if (!was || was.logIndex === row.logIndex || was.toAddress !== row.toAddress || was.amount !== row.amount) {
          rest.push(row);
          continue;
        }
        const isBack =
          was.status === 'REORGED' ||
          was.status === 'REVERSED' ||
          (was.status === 'CONFIRMED' && was.lostToBlock !== null);
        // Recorded already and not in doubt: never a second row (a second credit) for it.
        if (!isBack) continue;
        const [back] = await this.db
          .update(qntTransfers)
          .set({ status: 'PROCESSING', blockNumber: row.blockNumber, blockHash: row.blockHash })
          .where(eq(qntTransfers.id, was.id))
          .returning();
        moved.push(back!);
      }
    }
    if (rest.length === 0) return moved;
    const recorded = await this.db
      .insert(qntTransfers)
      .values(rest.map((row) => ({ ...row, status: 'PROCESSING' as const })))
      .onConflictDoUpdate({
        target: [qntTransfers.chainId, qntTransfers.txHash, qntTransfers.logIndex],
        set: {
          status: 'PROCESSING',
          blockNumber: sql`excluded.block_number`,
          blockHash: sql`excluded.block_hash`,
        },
        setWhere: sql`(${qntTransfers.status} in ('REORGED', 'REVERSED')
            or (${qntTransfers.status} = 'CONFIRMED' and ${qntTransfers.lostToBlock} is not null))
          and ${qntTransfers.toAddress} = excluded.to_address and ${qntTransfers.amount} = excluded.amount`,
      })
      .returning();
    return [...moved, ...recorded];
  }

  /**
   * Confirmed blocks from `fromBlock` up were lost (issue 27 §4): the confirmed transfers there —
   * and those already in doubt — wait, still credited, until the new chain is confirmed up to
   * `lostTo`. Answers them.
   */
  async markLost(chainId: number, fromBlock: number, lostTo: number): Promise<QntTransferRow[]> {
    return this.db
      .update(qntTransfers)
      .set({ lostToBlock: sql`greatest(coalesce(${qntTransfers.lostToBlock}, 0), ${lostTo})` })
      .where(
        and(
          eq(qntTransfers.chainId, chainId),
          gte(qntTransfers.blockNumber, fromBlock),
          sql`(${qntTransfers.status} = 'CONFIRMED' or (${qntTransfers.lostToBlock} is not null and ${qntTransfers.status} <> 'REVERSED'))`,
        ),
      )
      .returning();
  }

  /**
   * The blocks (number and hash, newest first) of the transfers credited or in doubt below
   * `below`: what a reorg deeper than the follower's window is checked against (qnt-lost-blocks.ts).
   */
  async creditedBlocksBelow(chainId: number, below: number): Promise<{ blockNumber: number; blockHash: string }[]> {
    return this.db
      .selectDistinct({ blockNumber: qntTransfers.blockNumber, blockHash: qntTransfers.blockHash })
      .from(qntTransfers)
      .where(
        and(
          eq(qntTransfers.chainId, chainId),
          lt(qntTransfers.blockNumber, below),
          sql`(${qntTransfers.status} = 'CONFIRMED' or (${qntTransfers.lostToBlock} is not null and ${qntTransfers.status} <> 'REVERSED'))`,
        ),
      )
      .orderBy(desc(qntTransfers.blockNumber));
  }

  /**
   * The credited transfers whose lost block the new chain did not give back, now that it is
   * confirmed up to their `lostToBlock`: still waiting (CONFIRMED) or replaced again (REORGED).
   * Locked; the caller takes each credit back.
   */
  async lostFor(chainId: number, upTo: number): Promise<QntTransferRow[]> {
    return this.db
      .select()
      .from(qntTransfers)
      .where(
        and(
          eq(qntTransfers.chainId, chainId),
          lte(qntTransfers.lostToBlock, upTo),
          inArray(qntTransfers.status, ['CONFIRMED', 'REORGED']),
        ),
      )
      .orderBy(asc(qntTransfers.blockNumber), asc(qntTransfers.logIndex))
      .for('update');
  }

  /** The transfer's credit was taken back: REVERSED, counted (a later credit of it has a new reference). */
  async markReversed(id: string): Promise<void> {
    await this.db
      .update(qntTransfers)
      .set({ status: 'REVERSED', lostToBlock: null, reversals: sql`${qntTransfers.reversals} + 1` })
      .where(eq(qntTransfers.id, id));
  }

  /** Transfers not yet confirmed in blocks from `fromBlock` up: their blocks were replaced. */
  async markReorged(chainId: number, fromBlock: number): Promise<QntTransferRow[]> {
    return this.db
      .update(qntTransfers)
      .set({ status: 'REORGED' })
      .where(
        and(
          eq(qntTransfers.chainId, chainId),
          eq(qntTransfers.status, 'PROCESSING'),
          gte(qntTransfers.blockNumber, fromBlock),
        ),
      )
      .returning();
  }

  /** Takes the transfers that now have their confirmations (locked; the caller credits each). */
  async confirmable(chainId: number, upTo: number): Promise<QntTransferRow[]> {
    return this.db
      .select()
      .from(qntTransfers)
      .where(
        and(
          eq(qntTransfers.chainId, chainId),
          eq(qntTransfers.status, 'PROCESSING'),
          lte(qntTransfers.blockNumber, upTo),
        ),
      )
      .orderBy(asc(qntTransfers.blockNumber), asc(qntTransfers.logIndex))
      .for('update');
  }

  async markConfirmed(id: string, at: Date): Promise<void> {
    await this.db
      .update(qntTransfers)
      .set({ status: 'CONFIRMED', confirmedAt: at, lostToBlock: null })
      .where(eq(qntTransfers.id, id));
  }

  /** The account's transfers since `since` (newest first), for the payment's view. */
  async transfersTo(accountId: string, since: Date): Promise<QntTransferRow[]> {
    return this.db
      .select()
      .from(qntTransfers)
      .where(and(eq(qntTransfers.accountId, accountId), gte(qntTransfers.seenAt, since)))
      .orderBy(sql`${qntTransfers.seenAt} desc`)
      .limit(50);
  }

  /** The block the follower has reached on a chain (for confirmation counts), or null. */
  async followedBlock(follower: string, chainId: number): Promise<number | null> {
    const [row] = await this.db
      .select({ block: chainCursors.blockNumber })
      .from(chainCursors)
      .where(and(eq(chainCursors.follower, follower), eq(chainCursors.chainId, chainId)));
    return row ? Number(row.block) : null;
  }

  async insertPayment(row: typeof qntPayments.$inferInsert): Promise<void> {
    await this.db.insert(qntPayments).values(row).onConflictDoNothing();
  }

  async payment(orderId: string): Promise<QntPaymentRow | null> {
    const [row] = await this.db.select().from(qntPayments).where(eq(qntPayments.orderId, orderId));
    return row ?? null;
  }

  /** The account's payments whose orders still wait for their QNT, oldest first. */
  async openPayments(accountId: string): Promise<QntPaymentRow[]> {
    return this.db
      .select({ payment: qntPayments })
      .from(qntPayments)
      .innerJoin(orders, eq(orders.id, qntPayments.orderId))
      .where(
        and(
          eq(qntPayments.accountId, accountId),
          inArray(qntPayments.status, OPEN),
          eq(orders.status, 'AWAITING_PAYMENT'),
        ),
      )
      .orderBy(asc(qntPayments.createdAt))
      .then((rows) => rows.map((r) => r.payment));
  }

  /** The account's settled payments, newest first (the first to undo when QNT that paid them is taken back). */
  async settledPayments(accountId: string): Promise<QntPaymentRow[]> {
    return this.db
      .select()
      .from(qntPayments)
      .where(and(eq(qntPayments.accountId, accountId), eq(qntPayments.status, 'SETTLED')))
      .orderBy(desc(qntPayments.settledAt), desc(qntPayments.createdAt));
  }

  /** The payment's settlement undone: it waits for QNT again (quoted again when paid after its quote). */
  async reopen(orderId: string): Promise<void> {
    await this.db
      .update(qntPayments)
      .set({ status: 'NEW', reason: null, paid: 0n, settledAt: null, updatedAt: sql`now()` })
      .where(and(eq(qntPayments.orderId, orderId), eq(qntPayments.status, 'SETTLED')));
  }

  /** Accounts whose open payments are NEW while a transfer of theirs is being confirmed: now PROCESSING. */
  async markProcessing(accountIds: readonly string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await this.db
      .update(qntPayments)
      .set({ status: 'PROCESSING', updatedAt: sql`now()` })
      .where(and(inArray(qntPayments.accountId, [...new Set(accountIds)]), eq(qntPayments.status, 'NEW')));
  }

  /** Back to NEW where the account has no live transfer since the quote (all of them were reorged away). */
  async unmarkProcessing(accountIds: readonly string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await this.db.execute(sql`
      update ${qntPayments} p set status = 'NEW', reason = null, updated_at = now()
      where p.account_id in (${sql.join(
        [...new Set(accountIds)].map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) and p.status = 'PROCESSING'
        and not exists (select 1 from ${qntTransfers} t where t.account_id = p.account_id
          and t.status not in ('REORGED', 'REVERSED') and t.seen_at >= p.created_at)`);
  }

  async update(
    orderId: string,
    change: Partial<
      Pick<
        QntPaymentRow,
        'status' | 'reason' | 'paid' | 'settledAt' | 'amountDue' | 'gbpPerQnt' | 'rateAt' | 'expiresAt'
      >
    >,
  ): Promise<void> {
    await this.db
      .update(qntPayments)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(qntPayments.orderId, orderId));
  }

  async addReportedTx(orderId: string, txHash: string): Promise<void> {
    await this.db
      .update(qntPayments)
      .set({ reportedTxHashes: sql`array_append(${qntPayments.reportedTxHashes}, ${txHash})` })
      .where(and(eq(qntPayments.orderId, orderId), sql`not (${txHash} = any(${qntPayments.reportedTxHashes}))`));
  }

  /** Quotes that ran out with nothing settled: EXPIRED (a late payment may still settle them). */
  async expire(now: Date): Promise<void> {
    await this.db
      .update(qntPayments)
      .set({ status: 'EXPIRED', updatedAt: sql`now()` })
      .where(and(inArray(qntPayments.status, ['NEW', 'PROCESSING']), lte(qntPayments.expiresAt, now)));
  }

  /** The order was withdrawn: its payment can no longer settle. */
  async invalidate(orderId: string): Promise<void> {
    await this.db
      .update(qntPayments)
      .set({ status: 'INVALID', updatedAt: sql`now()` })
      .where(and(eq(qntPayments.orderId, orderId), inArray(qntPayments.status, OPEN)));
  }

  /** Sum of the account's confirmed transfers since `since` (to tell an over-payment). */
  async confirmedSince(accountId: string, since: Date): Promise<bigint> {
    const [row] = await this.db
      .select({ total: sql<string>`coalesce(sum(${qntTransfers.amount}), 0)::text` })
      .from(qntTransfers)
      .where(
        and(
          eq(qntTransfers.accountId, accountId),
          eq(qntTransfers.status, 'CONFIRMED'),
          gte(qntTransfers.seenAt, since),
        ),
      );
    return BigInt(row?.total ?? '0');
  }
}

export type { QntPaymentReason, QntPaymentStatus, QntTransferStatus };
