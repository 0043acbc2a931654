import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { ledgerBalances, ledgerEntries, type Database, type LedgerAsset, type LedgerKind } from '@connect/db';

export type { LedgerAsset, LedgerKind };
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

/** Why a movement happens (shown to people) and its unique key (`token:<id>`): the same key never moves twice. */
export type Movement = { reason: string; reference: string };

/**
 * What a movement did: 'applied' (one entry written, the balance moved), 'duplicate' (an entry
 * with that reference exists: nothing moved) or 'insufficient' (it would have taken the balance
 * below the floor: nothing written). `balance` is the balance after the call.
 */
export type MoveResult = { outcome: 'applied' | 'duplicate' | 'insufficient'; balance: bigint };

/** The kinds that take from a balance (stored negative, checked against the floor). */
const TAKING: ReadonlySet<LedgerKind> = new Set(['consume', 'claim', 'reversal']);

/** An account's asset: the balance, the floor it may not go below, and what may still be taken. */
export type LedgerBalance = { balance: bigint; floor: bigint; available: bigint };

/**
 * The one ledger (ARCHITECTURE.md, "Money"; docs/architecture.md, "How to add a ledger movement"):
 * append-only signed entries per account and asset, and per account and asset a balance row that
 * holds their sum and the floor. Built over the database or a transaction; a movement made over
 * the database runs in a transaction of its own. Nothing here updates or deletes an entry.
 *
 * Amounts are positive bigints; the kind gives the sign. Taking kinds (consume, claim) may not
 * pass the floor; adding kinds (grant, purchase, refund, payment) always apply.
 */
export class LedgerRepository {
  constructor(private readonly db: Database) {}

  /** Given for nothing: trial credits, rewards earned, a goodwill correction. */
  grant(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'grant', amount, movement);
  }

  /** Bought: credits of a paid order. */
  purchase(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'purchase', amount, movement);
  }

  /** Paid in: a month-end bill settled, QNT over-paid and held for the customer. */
  payment(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'payment', amount, movement);
  }

  /** A consumption given back (a deployment the chain lost). */
  refund(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'refund', amount, movement);
  }

  /** Used up (a token deployment's charge); 'insufficient' when the balance would pass the floor. */
  consume(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'consume', -amount, movement);
  }

  /**
   * Metered use charged after the fact (a closed hour's gateway calls, services/usage/close.ts): a
   * consumption that may pass the floor, because the calls were already served — refusing the
   * charge would not un-serve them. Never 'insufficient'.
   */
  meter(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'consume', -amount, movement, true);
  }

  /**
   * Money credited and then taken back because its cause was undone (a chain lost the block of a
   * confirmed QNT transfer, issue 27 §4). It may pass the floor: what is gone is gone, and a balance
   * below the floor is the customer's debt, shown as such. Never 'insufficient'.
   */
  reverse(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'reversal', -amount, movement, true);
  }

  /** Paid out of the account (rewards claimed); 'insufficient' when the balance would pass the floor. */
  claim(accountId: string, asset: LedgerAsset, amount: bigint, movement: Movement): Promise<MoveResult> {
    return this.move(accountId, asset, 'claim', -amount, movement);
  }

  /** The balance, floor and available amount (balance − floor); all 0 for an account that never moved. */
  async balance(accountId: string, asset: LedgerAsset): Promise<LedgerBalance> {
    const [row] = await this.db
      .select({ balance: ledgerBalances.balance, floor: ledgerBalances.floor })
      .from(ledgerBalances)
      .where(and(eq(ledgerBalances.accountId, accountId), eq(ledgerBalances.asset, asset)));
    const { balance, floor } = row ?? { balance: 0n, floor: 0n };
    return { balance, floor, available: balance - floor };
  }

  /** An account's entries of one asset, oldest first. */
  entries(accountId: string, asset: LedgerAsset): Promise<LedgerEntryRow[]> {
    return this.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.asset, asset)))
      .orderBy(asc(ledgerEntries.id));
  }

  /**
   * The floor of an account's asset: 0 for prepaid credits (the default), minus the credit limit
   * for pay-as-you-go. A balance already below a raised floor stays; only further taking is refused.
   */
  async setFloor(accountId: string, asset: LedgerAsset, floor: bigint): Promise<void> {
    if (floor > 0n) throw new RangeError(`A floor is 0 or below, not ${floor}.`);
    await this.db
      .insert(ledgerBalances)
      .values({ accountId, asset, floor })
      .onConflictDoUpdate({
        target: [ledgerBalances.accountId, ledgerBalances.asset],
        set: { floor, updatedAt: sql`now()` },
      });
  }

  /**
   * The one writer. Two statements, because of READ COMMITTED: a statement's snapshot is taken
   * when it starts, so a check folded into the statement that waits for the row lock would judge
   * a balance other transactions have since changed. The first statement locks the balance row
   * (FOR UPDATE reads the latest committed version once the lock is held); the second, with a
   * fresh snapshot, writes the entry and moves the balance together (a CTE), unless the reference
   * exists. The same two round trips as the credit transactions had (insert, update).
   */
  private async move(
    accountId: string,
    asset: LedgerAsset,
    kind: LedgerKind,
    signed: bigint,
    { reason, reference }: Movement,
    mayPassFloor = false,
  ): Promise<MoveResult> {
    if (signed === 0n || signed < 0n !== TAKING.has(kind)) {
      throw new RangeError(`A ledger amount is positive: ${kind} of ${TAKING.has(kind) ? -signed : signed} refused.`);
    }
    if (!(this.db instanceof PgTransaction)) {
      return this.db.transaction((tx) =>
        new LedgerRepository(tx as unknown as Database).move(
          accountId,
          asset,
          kind,
          signed,
          { reason, reference },
          mayPassFloor,
        ),
      );
    }
    const { balance, floor } = await this.lock(accountId, asset);
    const after = balance + signed;
    if (signed < 0n && after < floor && !mayPassFloor) {
      return { outcome: (await this.hasEntry(reference)) ? 'duplicate' : 'insufficient', balance };
    }
    const moved = (await this.db.execute(sql`
      with entry as (
        insert into ${ledgerEntries} (account_id, asset, kind, amount, balance_after, reason, reference)
        values (${accountId}, ${asset}, ${kind}, ${signed.toString()}, ${after.toString()}, ${reason}, ${reference})
        on conflict (reference) do nothing
        returning balance_after
      )
      update ${ledgerBalances} set balance = entry.balance_after, updated_at = now()
      from entry
      where ${ledgerBalances.accountId} = ${accountId} and ${ledgerBalances.asset} = ${asset}
      returning 1`)) as unknown as { rows: unknown[] };
    return moved.rows.length ? { outcome: 'applied', balance: after } : { outcome: 'duplicate', balance };
  }

  /** Locks the account's balance row for the rest of the transaction, creating it (floor 0) if missing. */
  private async lock(accountId: string, asset: LedgerAsset): Promise<{ balance: bigint; floor: bigint }> {
    const locked = () =>
      this.db
        .select({ balance: ledgerBalances.balance, floor: ledgerBalances.floor })
        .from(ledgerBalances)
        .where(and(eq(ledgerBalances.accountId, accountId), eq(ledgerBalances.asset, asset)))
        .for('update');
    const [row] = await locked();
    if (row) return row;
    await this.db.insert(ledgerBalances).values({ accountId, asset }).onConflictDoNothing();
    return (await locked())[0]!;
  }

  private async hasEntry(reference: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.reference, reference));
    return Boolean(row);
  }
}

/** What `consumptionCtes` takes: SQL values (parameters of the caller's statement). */
export type StatementConsumption = { accountId: SQL; asset: LedgerAsset; amount: SQL; reason: SQL; reference: SQL };

/**
 * A consumption folded into another statement, for a write that must take its credits in the same
 * atomic step as itself (a token's insert, like its quota: issue 27). Two CTEs for the caller's
 * `with`: `debited` moves the balance only while it stays at or above the floor (the condition is
 * on the locked row itself, so PostgreSQL re-checks it on the latest version when a concurrent
 * movement held the row: READ COMMITTED cannot let two through), and `entry` writes the movement
 * with its running balance. Nothing moves when `amount` is 0 or the balance row is missing; the
 * caller makes its statement fail when `debited` is empty and it needed credits, which rolls
 * back both. The same rules as `consume`, in one round trip.
 */
export function consumptionCtes(db: Database, { accountId, asset, amount, reason, reference }: StatementConsumption) {
  const debited = db.$with('debited', { balance: sql<string>`balance`.as('balance') }).as(
    sql`update ${ledgerBalances} set balance = ${ledgerBalances.balance} - ${amount}::numeric, updated_at = now()
        where ${ledgerBalances.accountId} = ${accountId}::uuid and ${ledgerBalances.asset} = ${asset}
          and ${amount}::numeric > 0 and ${ledgerBalances.balance} - ${amount}::numeric >= ${ledgerBalances.floor}
        returning ${ledgerBalances.balance}`,
  );
  const entry = db.$with('entry', { one: sql<number>`one`.as('one') }).as(
    sql`insert into ${ledgerEntries} (account_id, asset, kind, amount, balance_after, reason, reference)
        select ${accountId}::uuid, ${asset}, 'consume', -(${amount}::numeric), debited.balance, ${reason}::text, ${reference}::text
        from debited
        returning 1 as one`,
  );
  return { debited, entry };
}
