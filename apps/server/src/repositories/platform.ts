import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { platformKeys, platformTransactions, type Database, type PlatformTxStatus } from '@connect/db';

export type PlatformKeyRow = typeof platformKeys.$inferSelect;
export type PlatformTxRow = typeof platformTransactions.$inferSelect;
/** A transaction the platform signed, as stored before it is sent (see adapters/chains/sender/store-send.ts). */
export type NewPlatformTx = Pick<
  typeof platformTransactions.$inferInsert,
  'networkId' | 'fromAddress' | 'nonce' | 'txHash' | 'rawTx' | 'reference'
>;

/** The only code that reads or writes `platform_keys`: keys the platform generated for itself, sealed. */
export class PlatformKeyRepository {
  constructor(private readonly db: Database) {}

  async find(name: string): Promise<PlatformKeyRow | null> {
    const [row] = await this.db.select().from(platformKeys).where(eq(platformKeys.name, name));
    return row ?? null;
  }

  /** Stores the key unless one of that name exists (another node was first), then answers the stored one. */
  async insertOrKeep(row: Pick<PlatformKeyRow, 'name' | 'address' | 'sealedPrivateKey'>): Promise<PlatformKeyRow> {
    await this.db.insert(platformKeys).values(row).onConflictDoNothing();
    return (await this.find(row.name))!;
  }
}

/**
 * The insert of a transaction the platform signed, as SQL for a CTE of the caller's statement
 * (`returning 1 as one`): tokenise stores its deployment's transaction in the statement that
 * inserts the token, so it is refused with the token. The values are the caller's SQL (its
 * statement's placeholders); the write stays the platform's.
 */
export function storePlatformTxSql(values: Record<keyof NewPlatformTx, SQL>): SQL {
  const columns = ['networkId', 'fromAddress', 'nonce', 'txHash', 'rawTx', 'reference'] as const;
  return sql`insert into ${platformTransactions} (${sql.join(
    columns.map((column) => sql.identifier(platformTransactions[column].name)),
    sql`, `,
  )})
        values (${sql.join(
          columns.map((column) => values[column]),
          sql`, `,
        )})
        returning 1 as one`;
}

/**
 * The only code that reads or writes `platform_transactions` on its own. (A service may store a
 * transaction inside a statement of its own — tokenise folds storePlatformTxSql into the token's
 * insert.) Built over the database or a transaction.
 */
export class PlatformTxRepository {
  constructor(private readonly db: Database) {}

  async insert(row: NewPlatformTx): Promise<void> {
    await this.db.insert(platformTransactions).values(row);
  }

  /** Forgets a stored transaction that was never sent (the node refused it, or it was signed again). */
  async remove(networkId: string, txHash: string): Promise<void> {
    await this.db
      .delete(platformTransactions)
      .where(and(eq(platformTransactions.networkId, networkId), eq(platformTransactions.txHash, txHash)));
  }

  async setStatus(networkId: string, txHash: string, status: PlatformTxStatus): Promise<void> {
    await this.db
      .update(platformTransactions)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(platformTransactions.networkId, networkId), eq(platformTransactions.txHash, txHash)));
  }

  /** The hashes of a network's stored transactions that are, or may still be, on its chain. */
  async liveHashes(networkId: string): Promise<Set<string>> {
    const rows = await this.db
      .select({ txHash: platformTransactions.txHash })
      .from(platformTransactions)
      .where(
        and(eq(platformTransactions.networkId, networkId), inArray(platformTransactions.status, ['SIGNED', 'MINED'])),
      );
    return new Set(rows.map((row) => row.txHash.toLowerCase()));
  }

  /** A network's stored transactions in these statuses, per sender in nonce order. */
  async byStatus(networkId: string, statuses: readonly PlatformTxStatus[]): Promise<PlatformTxRow[]> {
    return this.db
      .select()
      .from(platformTransactions)
      .where(and(eq(platformTransactions.networkId, networkId), inArray(platformTransactions.status, [...statuses])))
      .orderBy(
        asc(platformTransactions.fromAddress),
        asc(platformTransactions.nonce),
        asc(platformTransactions.createdAt),
      );
  }
}
