import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { accountNetworks, networks, tokens, tokenTiers, type Database, type PlatformTxStatus } from '@connect/db';
import { TOKEN_MESSAGES, type TTokensRequest, type TTokenStatus, type TTokenType } from '@connect/shared';
import { platformTxRow, type SignedPlatformTx } from '../../adapters/chains/sender/index.ts';
import { PG_NOT_NULL_VIOLATION, PG_UNIQUE_VIOLATION, pgErrorCode } from '../../lib/db-errors.ts';
import type { DomainEvents, EventType } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { UsageRecordRepository } from '../../repositories/usage-records.ts';
import { PlatformTxRepository } from '../../repositories/platform.ts';
import { Entitlements } from '../entitlements/index.ts';
import {
  INSERTED_COLUMNS,
  insertStatement,
  tokenTxReference,
  type NewToken,
  type NewTokenInput,
} from './repository-insert.ts';

export type TokenRow = typeof tokens.$inferSelect;
export type TierRow = typeof tokenTiers.$inferSelect;
export type NetworkRow = typeof networks.$inferSelect;
export type TokenWithRefs = { token: TokenRow; network: NetworkRow; tier: TierRow };
/** What the account may still deploy: its plan's tokens allowance and the tokens it has. */
export type TokenQuota = { total: number; used: number; inService: boolean };
export type { NewTokenInput };

/** The columns the token form fills (see TokeniseService's formColumns). */
export type TokenFormColumns = Pick<
  TokenRow,
  | 'name'
  | 'unit'
  | 'decimals'
  | 'initialSupply'
  | 'maxSupply'
  | 'remintable'
  | 'supplyHolderAddress'
  | 'minterAddress'
  | 'ownerAddress'
  | 'tokenUri'
>;

/** What the chain showed of a successful deployment. */
export type DeployedColumns = {
  contractAddress: string;
  blockNumber: string;
  deployerAddress: string;
  deployedAt: Date;
};

/** PENDING with no transaction yet: a wallet deployment not sent, or a platform one not signed. */
const unsent = () => and(eq(tokens.status, 'PENDING'), isNull(tokens.txHash))!;

/** Which of an account's tokens POST /tokens lists: its search and filters. */
export type TokenFilter = { accountId: string } & Omit<TTokensRequest, 'page' | 'size'>;

/** `%` and `_` typed into the search box are literal characters, not wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The only code of the tokenise service that touches its tables. Built over the database or a
 * transaction (see `transaction`). Every read of a token takes the account id, so another
 * account's token is as good as unknown. Credits move through `ledger` and events are announced
 * through `announce`, both with this repository's database or transaction.
 */
export class TokenRepository {
  /** The account ledger, over the same database or transaction (charges and refunds of deployments). */
  readonly ledger: LedgerRepository;
  /** Usage records, over the same database or transaction: a deployment's charge and refund, traced. */
  readonly usage: UsageRecordRepository;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {
    this.ledger = new LedgerRepository(db);
    this.usage = new UsageRecordRepository(db);
  }

  transaction<T>(work: (repo: TokenRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new TokenRepository(tx as unknown as Database, this.events)));
  }

  /** Emits a domain event with this repository's database: inside `transaction`, it exists only if the change commits. */
  async announce<K extends EventType>(type: K, payload: DomainEvents[K]): Promise<void> {
    await this.events.emit(this.db, type, payload);
  }

  // -- networks and tiers ------------------------------------------------------------------

  /** Catalogue networks the account activated. */
  async activatedNetworks(accountId: string): Promise<NetworkRow[]> {
    const rows = await this.db
      .select({ network: networks })
      .from(accountNetworks)
      .innerJoin(networks, eq(networks.id, accountNetworks.networkId))
      .where(eq(accountNetworks.accountId, accountId))
      .orderBy(asc(networks.sortOrder), asc(networks.name));
    return rows.map((row) => row.network);
  }

  async network(id: string): Promise<NetworkRow | null> {
    const [row] = await this.db.select().from(networks).where(eq(networks.id, id));
    return row ?? null;
  }

  async networksWithRpc(): Promise<NetworkRow[]> {
    return this.db.select().from(networks).where(isNotNull(networks.rpcUrl));
  }

  async anyNetworkWithRpc(): Promise<boolean> {
    const [row] = await this.db.select({ id: networks.id }).from(networks).where(isNotNull(networks.rpcUrl)).limit(1);
    return Boolean(row);
  }

  async allNetworkIds(): Promise<string[]> {
    const rows = await this.db.select({ id: networks.id }).from(networks);
    return rows.map((row) => row.id);
  }

  /** Inserts tiers that do not exist yet; existing rows (maybe re-priced by staff) are left alone. */
  async insertTiers(rows: (typeof tokenTiers.$inferInsert)[]): Promise<void> {
    if (!rows.length) return;
    await this.db.insert(tokenTiers).values(rows).onConflictDoNothing();
  }

  async tiers(networkId: string, tokenType: TTokenType): Promise<TierRow[]> {
    return this.db
      .select()
      .from(tokenTiers)
      .where(
        and(eq(tokenTiers.networkId, networkId), eq(tokenTiers.tokenType, tokenType), eq(tokenTiers.isActive, true)),
      );
  }

  async tier(id: string): Promise<TierRow | null> {
    const [row] = await this.db.select().from(tokenTiers).where(eq(tokenTiers.id, id));
    return row ?? null;
  }

  /** A tier with the catalogue network it belongs to. */
  async tierWithNetwork(id: string): Promise<{ tier: TierRow; network: NetworkRow } | null> {
    const [row] = await this.db
      .select({ tier: tokenTiers, network: networks })
      .from(tokenTiers)
      .innerJoin(networks, eq(networks.id, tokenTiers.networkId))
      .where(eq(tokenTiers.id, id));
    return row ?? null;
  }

  // -- tokens --------------------------------------------------------------------------------

  private withRefs() {
    return this.db
      .select({ token: tokens, network: networks, tier: tokenTiers })
      .from(tokens)
      .innerJoin(networks, eq(networks.id, tokens.networkId))
      .innerJoin(tokenTiers, eq(tokenTiers.id, tokens.tierId));
  }

  async token(accountId: string, id: string): Promise<TokenWithRefs | null> {
    const [row] = await this.withRefs().where(and(eq(tokens.id, id), eq(tokens.accountId, accountId)));
    return row ?? null;
  }

  async tokenByExternalId(accountId: string, externalId: string): Promise<TokenWithRefs | null> {
    const [row] = await this.withRefs().where(and(eq(tokens.externalId, externalId), eq(tokens.accountId, accountId)));
    return row ?? null;
  }

  /** Any account's token: for the deployment worker only. */
  async tokenForWorker(id: string): Promise<TokenWithRefs | null> {
    const [row] = await this.withRefs().where(eq(tokens.id, id));
    return row ?? null;
  }

  /**
   * Inserts a new token when the account may create it — a tokens:create unit left (taken), the
   * token's network activated, credits covering `creditsNeeded` — in one statement: atomic
   * without a transaction, and one round trip on a deployment's critical path. The quota update
   * is a CTE guarded by the other conditions, and the new row's account id is read from what it
   * updated: when any condition fails, nothing is updated, the account id is NULL, and the
   * NOT NULL column refuses the whole statement ('refused'; the caller's guards tell which one).
   * An externalId that exists → unique violation ('exists'). With `sent`, the token carries that
   * transaction's hash and sender, and the transaction is stored with it (the same statement).
   */
  async insertTokenIfAllowed(
    values: NewTokenInput,
    creditsNeeded: number,
    sent?: SignedPlatformTx,
  ): Promise<TokenRow | 'refused' | 'exists'> {
    const params: Record<string, unknown> = { creditsNeeded };
    const row: Record<string, unknown> = { ...values, id: randomUUID() };
    if (sent) Object.assign(row, { txHash: sent.hash, deployerAddress: sent.from });
    for (const column of INSERTED_COLUMNS) params[column] = row[column] ?? null;
    if (sent) Object.assign(params, { txNonce: Number(sent.nonce), rawTx: sent.raw });
    try {
      const [row] = await insertStatement(this.db, Boolean(sent)).execute(params);
      return row!;
    } catch (err) {
      const code = pgErrorCode(err);
      if (code === PG_NOT_NULL_VIOLATION) return 'refused';
      if (code === PG_UNIQUE_VIOLATION) return 'exists';
      throw err;
    }
  }

  async listTokens(filter: TokenFilter, page: number, size: number): Promise<{ rows: TokenWithRefs[]; total: number }> {
    const conditions: SQL[] = [eq(tokens.accountId, filter.accountId)];
    if (filter.search) {
      const pattern = likePattern(filter.search);
      conditions.push(or(ilike(tokens.name, pattern), ilike(tokens.unit, pattern))!);
    }
    if (filter.blockchain) conditions.push(sql`lower(${networks.technology}) = lower(${filter.blockchain})`);
    if (filter.networkId) conditions.push(eq(tokens.networkId, filter.networkId));
    if (filter.tokenType) conditions.push(eq(tokens.tokenType, filter.tokenType));
    if (filter.tierType) conditions.push(eq(tokens.tierType, filter.tierType));
    if (filter.status) conditions.push(eq(tokens.status, filter.status));
    const where = and(...conditions);
    const [rows, [totalRow]] = await Promise.all([
      this.withRefs()
        .where(where)
        .orderBy(desc(tokens.createdAt), desc(tokens.id))
        .limit(size)
        .offset(page * size),
      this.db
        .select({ total: count() })
        .from(tokens)
        .innerJoin(networks, eq(networks.id, tokens.networkId))
        .where(where),
    ]);
    return { rows, total: totalRow?.total ?? 0 };
  }

  async tokenBlockchains(accountId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ technology: networks.technology })
      .from(tokens)
      .innerJoin(networks, eq(networks.id, tokens.networkId))
      .where(eq(tokens.accountId, accountId))
      .orderBy(asc(networks.technology));
    return rows.map((row) => row.technology);
  }

  private async updateToken(id: string, values: Partial<NewToken>, where?: SQL): Promise<TokenRow | null> {
    const [row] = await this.db
      .update(tokens)
      .set({ ...values, updatedAt: new Date() })
      .where(where ? and(eq(tokens.id, id), where) : eq(tokens.id, id))
      .returning();
    return row ?? null;
  }

  /** `from` → `to`, only if the token is still `from` (null: it is not). */
  async changeStatus(id: string, from: TTokenStatus, to: TTokenStatus): Promise<TokenRow | null> {
    return this.updateToken(id, { status: to }, eq(tokens.status, from));
  }

  /** The token, locked for the rest of the transaction, if it is UNPAID (null otherwise). */
  async lockUnpaid(id: string): Promise<TokenRow | null> {
    return this.updateToken(id, {}, eq(tokens.status, 'UNPAID'));
  }

  /** A new form for a deployment not sent yet (null: it has been sent, or is no longer PENDING). */
  async editUnsent(id: string, columns: TokenFormColumns): Promise<TokenRow | null> {
    return this.updateToken(id, columns, unsent());
  }

  /** The wallet's deployment transaction, on a token that has none yet (a hash taken: unique violation). */
  async trackWalletTx(id: string, txHash: string): Promise<TokenRow | null> {
    return this.updateToken(id, { txHash }, unsent());
  }

  /** Deletes a token whose deployment was not sent (or failed); null when it cannot be deleted. */
  async deleteCancellable(accountId: string, id: string): Promise<TokenRow | null> {
    const [row] = await this.db
      .delete(tokens)
      .where(and(eq(tokens.id, id), eq(tokens.accountId, accountId), or(unsent(), eq(tokens.status, 'FAILED'))))
      .returning();
    return row ?? null;
  }

  /** PENDING → ACTIVE with what the chain showed (null: settled before, by another attempt or node). */
  async markDeployed(id: string, deployed: DeployedColumns): Promise<TokenRow | null> {
    return this.updateToken(id, { status: 'ACTIVE', ...deployed, failureReason: null }, eq(tokens.status, 'PENDING'));
  }

  /** PENDING → FAILED with a reason, its charge undone (null: it was not PENDING; see settleFailed). */
  async markFailed(id: string, reason: string): Promise<TokenRow | null> {
    return this.updateToken(
      id,
      { status: 'FAILED', failureReason: reason, creditsCharged: 0 },
      eq(tokens.status, 'PENDING'),
    );
  }

  /** A deployment the chain lost: FAILED from whatever it still is, its charge undone (see settleLost). */
  async markLost(token: TokenRow, reason: string): Promise<TokenRow | null> {
    return this.updateToken(
      token.id,
      { status: 'FAILED', failureReason: reason, creditsCharged: 0 },
      eq(tokens.status, token.status),
    );
  }

  /** Deployed, and charged `amount` credits. */
  async markCharged(id: string, amount: number): Promise<void> {
    await this.updateToken(id, { status: 'ACTIVE', creditsCharged: amount });
  }

  /** Deployed, but the credits did not cover it at charge time. */
  async markUnpaid(id: string): Promise<void> {
    await this.updateToken(id, { status: 'UNPAID' });
  }

  /**
   * The send's claim: stores the deployment transaction's hash on the token, only if none is
   * stored yet, and the transaction itself with it (one transaction).
   */
  async claimTxHash(id: string, tx: SignedPlatformTx): Promise<boolean> {
    return this.transaction(async (repo) => {
      const row = await repo.updateToken(id, { txHash: tx.hash, deployerAddress: tx.from }, unsent());
      if (row)
        await new PlatformTxRepository(repo.db).insert(platformTxRow({ ...tx, reference: tokenTxReference(id) }));
      return row !== null;
    });
  }

  /** Undoes a claim whose transaction is not going to be sent. */
  async releaseTxHash(id: string, tx: SignedPlatformTx): Promise<void> {
    await this.transaction(async (repo) => {
      await repo.updateToken(id, { txHash: null, deployerAddress: null }, eq(tokens.txHash, tx.hash));
      await new PlatformTxRepository(repo.db).remove(tx.networkId, tx.hash);
    });
  }

  /** What became of a token's stored deployment transaction (see PlatformTxStatus). */
  async settleTx(token: TokenRow, txHash: string, status: PlatformTxStatus): Promise<void> {
    if (token.deploymentType !== 'QUANT') return; // a wallet's transaction is not the platform's
    await new PlatformTxRepository(this.db).setStatus(token.networkId, txHash, status);
  }

  /** Tokens by id (any account): for the start-up recovery. */
  async tokensByIds(ids: string[]): Promise<TokenWithRefs[]> {
    if (!ids.length) return [];
    return this.withRefs().where(inArray(tokens.id, ids));
  }

  /**
   * A settled token whose contract the chain no longer has, its charge undone (see settleMissing;
   * null: its status changed meanwhile).
   */
  async markMissing(token: TokenRow): Promise<TokenRow | null> {
    return this.updateToken(
      token.id,
      { status: 'MISSING', failureReason: TOKEN_MESSAGES.missingOnChain, creditsCharged: 0 },
      eq(tokens.status, token.status),
    );
  }

  /** Settled tokens of a network that claim a contract on it (checked against a local chain at start-up). */
  async tokensOnChain(networkId: string): Promise<TokenRow[]> {
    return this.db
      .select()
      .from(tokens)
      .where(
        and(
          eq(tokens.networkId, networkId),
          inArray(tokens.status, ['ACTIVE', 'UNPAID', 'DEPRECATED', 'NOT_ACTIVE']),
          isNotNull(tokens.contractAddress),
        ),
      );
  }

  /** Tokens whose deployment must be followed: platform ones and wallet ones with a transaction. */
  async pendingTrackable(createdBefore?: Date): Promise<{ id: string }[]> {
    return this.db
      .select({ id: tokens.id })
      .from(tokens)
      .where(
        and(
          eq(tokens.status, 'PENDING'),
          or(eq(tokens.deploymentType, 'QUANT'), isNotNull(tokens.txHash)),
          createdBefore ? lt(tokens.createdAt, createdBefore) : undefined,
        ),
      );
  }

  // -- quota and credits ---------------------------------------------------------------------

  /**
   * The account's tokens allowance (entitlements): how many it has (the tokens:create counter), how
   * many it may have now and whether the plan is in service; null when it has no plan or no counter.
   */
  async quota(accountId: string): Promise<TokenQuota | null> {
    return new Entitlements(this.db).quota(accountId, 'tokens');
  }

  async releaseQuota(accountId: string): Promise<void> {
    await new Entitlements(this.db).release(accountId, 'tokens');
  }

  /** The credits the account may still spend (the ledger's available CREDIT). */
  async credits(accountId: string): Promise<number> {
    return Number((await this.ledger.balance(accountId, 'CREDIT')).available);
  }
}
