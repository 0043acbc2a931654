import { and, asc, eq, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import { networks, platformTransactions, type Database } from '@connect/db';
import { PlatformTxRepository, type PlatformTxRow } from '../../../repositories/platform.ts';

/** A stored transaction that may be stuck, with what it takes to reach its network. */
export type StuckTx = PlatformTxRow & { chainId: number; rpcUrl: string; networkCode: string };

/** Not mined, not given up: still waiting for the chain. */
const WAITING = ['SIGNED', 'SENT'] as const;

/** The stored transactions of one sender and nonce on a network. */
const senderNonce = (networkId: string, fromAddress: string, nonce: number) =>
  and(
    eq(platformTransactions.networkId, networkId),
    eq(platformTransactions.fromAddress, fromAddress),
    eq(platformTransactions.nonce, nonce),
  );

/**
 * The sender's own reads and writes of `platform_transactions` beyond the shared repository's:
 * transactions of one sender and nonce (a fee bump's replacements), and the stuck ones.
 */
export class SenderTxRepository extends PlatformTxRepository {
  constructor(private readonly database: Database) {
    super(database);
  }

  transaction<T>(work: (repo: SenderTxRepository, db: Database) => Promise<T>): Promise<T> {
    return this.database.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new SenderTxRepository(db), db);
    });
  }

  /** Transactions still waiting that were stored before `before`, on networks with an RPC URL. */
  async waitingSince(before: Date): Promise<StuckTx[]> {
    const rows = await this.database
      .select({ tx: platformTransactions, chainId: networks.chainId, rpcUrl: networks.rpcUrl, code: networks.code })
      .from(platformTransactions)
      .innerJoin(networks, eq(networks.id, platformTransactions.networkId))
      .where(
        and(
          inArray(platformTransactions.status, [...WAITING]),
          lt(platformTransactions.createdAt, before),
          isNotNull(networks.rpcUrl),
        ),
      )
      .orderBy(
        asc(platformTransactions.networkId),
        asc(platformTransactions.fromAddress),
        asc(platformTransactions.nonce),
      );
    return rows.map(({ tx, chainId, rpcUrl, code }) => ({ ...tx, chainId, rpcUrl: rpcUrl!, networkCode: code }));
  }

  /** Every stored transaction of one sender and nonce (any status), oldest first. */
  async sameNonce(networkId: string, fromAddress: string, nonce: number): Promise<PlatformTxRow[]> {
    return this.database
      .select()
      .from(platformTransactions)
      .where(senderNonce(networkId, fromAddress, nonce))
      .orderBy(asc(platformTransactions.createdAt));
  }

  /** The stored transactions with the sender and nonce of the one stored as `txHash` (it included). */
  async siblingsOf(networkId: string, txHash: string): Promise<PlatformTxRow[]> {
    const self = this.database
      .select({ from: platformTransactions.fromAddress, nonce: platformTransactions.nonce })
      .from(platformTransactions)
      .where(and(eq(platformTransactions.networkId, networkId), eq(platformTransactions.txHash, txHash)));
    return this.database
      .select()
      .from(platformTransactions)
      .where(
        and(
          eq(platformTransactions.networkId, networkId),
          sql`(${platformTransactions.fromAddress}, ${platformTransactions.nonce}) in (${self})`,
        ),
      )
      .orderBy(asc(platformTransactions.createdAt));
  }

  /**
   * `keepHash` is the one of its sender and nonce that counts: the others still waiting become
   * REPLACED, and it is SIGNED again if it had been REPLACED (mined before its replacement).
   */
  async replaceOthers(
    row: Pick<PlatformTxRow, 'networkId' | 'fromAddress' | 'nonce'>,
    keepHash: string,
  ): Promise<void> {
    const keep = eq(platformTransactions.txHash, keepHash);
    await this.database
      .update(platformTransactions)
      .set({ status: sql`case when ${keep} then 'SIGNED' else 'REPLACED' end`, updatedAt: new Date() })
      .where(
        and(
          senderNonce(row.networkId, row.fromAddress, row.nonce),
          or(
            and(ne(platformTransactions.txHash, keepHash), inArray(platformTransactions.status, [...WAITING])),
            and(keep, eq(platformTransactions.status, 'REPLACED')),
          ),
        ),
      );
  }
}
