import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { depositAddresses, depositSweeps, networks, type Database, type DepositSweepStatus } from '@connect/db';
import { PlatformTxRepository, type NewPlatformTx } from '../../repositories/platform.ts';

export type DepositSweepRow = typeof depositSweeps.$inferSelect;

/** An in-flight sweep with the address it moves from. */
export type SweepInFlight = DepositSweepRow & { address: string };

/** An address with QNT the follower confirmed and no sweep has moved yet (or is moving). */
export type SweepCandidate = { derivationIndex: number; address: string; accountId: string; unswept: bigint };

const IN_FLIGHT: DepositSweepStatus[] = ['PENDING', 'SENT'];

type StepColumns = Partial<Pick<DepositSweepRow, 'gasTxHash' | 'txHash' | 'status'>>;
type SentTx = Pick<NewPlatformTx, 'networkId' | 'txHash'>;

/**
 * What an address holds that may be swept, by the database's account: the CONFIRMED transfers
 * to it (not those whose block the chain lost and that wait to be found again, issue 27 §4)
 * less every sweep of it that did not fail (in flight ones included, so a sweep never
 * counts what another is already moving). Through the account's index: the address is the
 * account's for good.
 */
const unsweptOf = (chainId: number, index: number, accountId: string, address: string) => sql`(
  (select coalesce(sum(amount), 0) from qnt_transfers
    where account_id = ${accountId} and to_address = ${address} and chain_id = ${chainId} and status = 'CONFIRMED'
      and lost_to_block is null)
  - (select coalesce(sum(amount), 0) from deposit_sweeps
    where chain_id = ${chainId} and derivation_index = ${index} and status <> 'FAILED'))`;

type Rows<T> = { rows: T[] };

/**
 * The only code that reads or writes `deposit_sweeps` (services/payment/sweep.ts). A sweep's
 * platform transactions are stored here with the step that claims them, in one database
 * transaction: the sender stores before it sends, and a second run finds the step taken.
 */
export class SweepRepository {
  constructor(private readonly db: Database) {}

  /** The catalogue's id of the network (the sender's key for its transactions). */
  async networkId(code: string): Promise<string | null> {
    const [row] = await this.db.select({ id: networks.id }).from(networks).where(eq(networks.code, code));
    return row?.id ?? null;
  }

  /**
   * Addresses on the chain whose confirmed, unswept QNT reaches `threshold`, with no sweep in
   * flight and none failed since `failedSince` (a transfer that keeps failing is not paid gas for
   * every run), lowest index first.
   */
  async candidates(chainId: number, threshold: bigint, failedSince: Date, limit: number): Promise<SweepCandidate[]> {
    const { rows } = (await this.db.execute(sql`
      with received as (
        select to_address, account_id, sum(amount) as total from qnt_transfers
        where chain_id = ${chainId} and status = 'CONFIRMED' and lost_to_block is null group by to_address, account_id),
      swept as (
        select derivation_index, sum(amount) as total from deposit_sweeps
        where chain_id = ${chainId} and status <> 'FAILED' group by derivation_index)
      select a.derivation_index as "derivationIndex", a.address, r.account_id as "accountId",
        (r.total - coalesce(s.total, 0))::text as unswept
      from received r
      join ${depositAddresses} a on a.address = r.to_address
      left join swept s on s.derivation_index = a.derivation_index
      where r.total - coalesce(s.total, 0) >= ${threshold.toString()}::numeric
        and not exists (select 1 from deposit_sweeps d
          where d.chain_id = ${chainId} and d.derivation_index = a.derivation_index
            and (d.status in ('PENDING', 'SENT') or (d.status = 'FAILED' and d.updated_at > ${failedSince.toISOString()})))
      order by a.derivation_index
      limit ${limit}`)) as unknown as Rows<Omit<SweepCandidate, 'unswept'> & { unswept: string }>;
    return rows.map((row) => ({ ...row, derivationIndex: Number(row.derivationIndex), unswept: BigInt(row.unswept) }));
  }

  /**
   * Records a PENDING sweep of `amount` — or of less, when the database's account of the address
   * moved since it was read — unless that falls below `threshold` or another sweep of the address
   * is in flight (the partial unique index: of two runs at once, one records it). Null: not recorded.
   */
  async record(
    chainId: number,
    candidate: Omit<SweepCandidate, 'unswept'>,
    amount: bigint,
    threshold: bigint,
  ): Promise<DepositSweepRow | null> {
    const { derivationIndex: index, accountId, address } = candidate;
    const unswept = unsweptOf(chainId, index, accountId, address);
    const { rows } = (await this.db.execute(sql`
      insert into ${depositSweeps} (chain_id, derivation_index, amount)
      select ${chainId}, ${index}, least(${amount.toString()}::numeric, ${unswept})
      where least(${amount.toString()}::numeric, ${unswept}) >= ${threshold.toString()}::numeric
      on conflict (chain_id, derivation_index) where status in ('PENDING', 'SENT') do nothing
      returning id`)) as unknown as Rows<{ id: string }>;
    return rows[0] ? this.find(rows[0].id) : null;
  }

  async find(id: string): Promise<DepositSweepRow | null> {
    const [row] = await this.db.select().from(depositSweeps).where(eq(depositSweeps.id, id));
    return row ?? null;
  }

  /** The chain's sweeps in flight (PENDING or SENT), oldest first, with their addresses. */
  async inFlight(chainId: number): Promise<SweepInFlight[]> {
    const rows = await this.db
      .select({ sweep: depositSweeps, address: depositAddresses.address })
      .from(depositSweeps)
      .innerJoin(depositAddresses, eq(depositAddresses.derivationIndex, depositSweeps.derivationIndex))
      .where(and(eq(depositSweeps.chainId, chainId), inArray(depositSweeps.status, IN_FLIGHT)))
      .orderBy(asc(depositSweeps.createdAt));
    return rows.map((row) => ({ ...row.sweep, address: row.address }));
  }

  /**
   * Step 2, stored before it is sent: the sweep's gas transaction, with the platform transaction's
   * row, in one database transaction. False when the step is taken (another run sent the gas, or
   * the sweep went on or ended): the sender then sends nothing.
   */
  claimGas(id: string, tx: NewPlatformTx): Promise<boolean> {
    return this.claim(id, tx, { gasTxHash: tx.txHash }, [
      eq(depositSweeps.status, 'PENDING'),
      isNull(depositSweeps.gasTxHash),
    ]);
  }

  /** Undoes claimGas for a transaction the node refused (nothing was sent). */
  releaseGas(id: string, tx: SentTx): Promise<void> {
    return this.release(id, tx, { gasTxHash: null }, [eq(depositSweeps.gasTxHash, tx.txHash)]);
  }

  /** Step 3, stored before it is sent: the deposit key's transfer; the sweep is SENT. False when taken. */
  claimTransfer(id: string, tx: NewPlatformTx): Promise<boolean> {
    return this.claim(id, tx, { txHash: tx.txHash, status: 'SENT' }, [
      eq(depositSweeps.status, 'PENDING'),
      isNull(depositSweeps.txHash),
    ]);
  }

  /** Undoes claimTransfer for a transaction the node refused: PENDING again. */
  releaseTransfer(id: string, tx: SentTx): Promise<void> {
    return this.release(id, tx, { txHash: null, status: 'PENDING' }, [eq(depositSweeps.txHash, tx.txHash)]);
  }

  /**
   * The sweep's transfer was mined: MINED (it succeeded) or FAILED (it reverted), from SENT — and
   * MINED from FAILED too, when a transaction given up for lost was mined after all: the chain
   * is the truth — with the platform transaction marked mined. Answers whether this call changed it.
   */
  settle(
    id: string,
    status: Extract<DepositSweepStatus, 'MINED' | 'FAILED'>,
    mined: { networkId: string; txHash: string },
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const db = tx as unknown as Database;
      await new PlatformTxRepository(db).setStatus(mined.networkId, mined.txHash, 'MINED');
      const rows = await db
        .update(depositSweeps)
        .set({ status, txHash: mined.txHash, updatedAt: new Date() })
        .where(
          and(
            eq(depositSweeps.id, id),
            inArray(depositSweeps.status, status === 'MINED' ? ['SENT', 'FAILED'] : ['SENT']),
          ),
        )
        .returning({ id: depositSweeps.id });
      return rows.length > 0;
    });
  }

  /** The gas transaction was mined: its platform transaction says so. */
  async gasMined(networkId: string, txHash: string): Promise<void> {
    await new PlatformTxRepository(this.db).setStatus(networkId, txHash, 'MINED');
  }

  /**
   * FAILED from in flight (a reverted gas transfer, a lost transaction). `unlessSent`: only while
   * the transfer is not stored yet. Answers whether this call changed it.
   */
  async fail(id: string, options: { unlessSent?: boolean } = {}): Promise<boolean> {
    const rows = await this.db
      .update(depositSweeps)
      .set({ status: 'FAILED', updatedAt: new Date() })
      .where(
        and(
          eq(depositSweeps.id, id),
          options.unlessSent ? eq(depositSweeps.status, 'PENDING') : inArray(depositSweeps.status, IN_FLIGHT),
        ),
      )
      .returning({ id: depositSweeps.id });
    return rows.length > 0;
  }

  /**
   * The sender moved a reference to another transaction (a fee bump's replacement, or the
   * original mined after all): the sweep points at it when it still pointed at one it replaced.
   */
  async moved(id: string, step: 'gas' | 'transfer', hash: string, was: readonly string[]): Promise<void> {
    if (was.length === 0) return;
    const points =
      step === 'gas' ? inArray(depositSweeps.gasTxHash, [...was]) : inArray(depositSweeps.txHash, [...was]);
    const set: StepColumns = step === 'gas' ? { gasTxHash: hash } : { txHash: hash };
    await this.db
      .update(depositSweeps)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(depositSweeps.id, id), points));
  }

  /** The step's columns set on the sweep when `conditions` hold, and the transaction stored with them. */
  private claim(id: string, tx: NewPlatformTx, set: StepColumns, conditions: SQL[]): Promise<boolean> {
    return this.db.transaction(async (t) => {
      const db = t as unknown as Database;
      const rows = await db
        .update(depositSweeps)
        .set({ ...set, updatedAt: new Date() })
        .where(and(eq(depositSweeps.id, id), ...conditions))
        .returning({ id: depositSweeps.id });
      if (rows.length === 0) return false;
      await new PlatformTxRepository(db).insert(tx);
      return true;
    });
  }

  private release(id: string, tx: SentTx, set: StepColumns, conditions: SQL[]): Promise<void> {
    return this.db.transaction(async (t) => {
      const db = t as unknown as Database;
      await new PlatformTxRepository(db).remove(tx.networkId, tx.txHash);
      await db
        .update(depositSweeps)
        .set({ ...set, updatedAt: new Date() })
        .where(and(eq(depositSweeps.id, id), ...conditions));
    });
  }
}
