import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  accountFeatures,
  accountNetworks,
  accounts,
  creditTransactions,
  networks,
  tokens,
  tokenTiers,
  type Database,
} from '@connect/db';
import type { TTierType, TTokenStatus, TTokenType } from '@connect/shared';
import { PG_NOT_NULL_VIOLATION, PG_UNIQUE_VIOLATION, pgErrorCode } from '../../lib/db-errors.ts';

export type TokenRow = typeof tokens.$inferSelect;
export type NewToken = typeof tokens.$inferInsert;
export type TierRow = typeof tokenTiers.$inferSelect;
export type NetworkRow = typeof networks.$inferSelect;
export type TokenWithRefs = { token: TokenRow; network: NetworkRow; tier: TierRow };

export const TOKENS_FEATURE = 'tokens:create';

export type TokenFilter = {
  accountId: string;
  search?: string | undefined;
  blockchain?: string | undefined;
  networkId?: string | undefined;
  tokenType?: TTokenType | undefined;
  tierType?: TTierType | undefined;
  status?: TTokenStatus | undefined;
};

/** `%` and `_` typed into the search box are literal characters, not wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The columns a new token is inserted with (the rest take their defaults). */
const INSERTED_COLUMNS = [
  'externalId',
  'accountId',
  'createdBy',
  'networkId',
  'tierId',
  'tokenType',
  'tierType',
  'name',
  'unit',
  'decimals',
  'initialSupply',
  'maxSupply',
  'remintable',
  'supplyHolderAddress',
  'minterAddress',
  'ownerAddress',
  'tokenUri',
  'deploymentType',
  'status',
  'txHash',
  'deployerAddress',
] as const satisfies readonly (keyof NewToken)[];
export type NewTokenInput = Pick<NewToken, (typeof INSERTED_COLUMNS)[number]>;

/**
 * The statement of `insertTokenIfAllowed`, built once per database (a deployment's critical path
 * should not pay for building it): the quota update is a CTE guarded by the activated network and
 * the credits, and the new row's account id is read from what it updated, so when any condition
 * fails the NOT NULL column refuses the whole statement.
 */
function buildInsertStatement(db: Database) {
  const param = (name: string) => sql.placeholder(name);
  const taken = db.$with('taken', { accountId: sql<string>`account_id`.as('account_id') }).as(
    sql`update ${accountFeatures} set ${sql.identifier(accountFeatures.used.name)} = ${accountFeatures.used} + 1
        where ${and(
          eq(accountFeatures.accountId, param('accountId')),
          eq(accountFeatures.feature, TOKENS_FEATURE),
          or(isNull(accountFeatures.total), sql`${accountFeatures.used} < ${accountFeatures.total}`),
          sql`exists (select 1 from ${accountNetworks} where ${and(
            eq(accountNetworks.accountId, param('accountId')),
            eq(accountNetworks.networkId, param('networkId')),
          )})`,
          sql`(select ${accounts.credits} from ${accounts} where ${eq(accounts.id, param('accountId'))}) >= ${param('creditsNeeded')}`,
        )}
        returning ${accountFeatures.accountId}`,
  );
  const values = Object.fromEntries(INSERTED_COLUMNS.map((column) => [column, param(column)])) as unknown as NewToken;
  return db
    .with(taken)
    .insert(tokens)
    .values({ ...values, accountId: sql`(select ${taken.accountId} from ${taken})` })
    .returning()
    .prepare('tokenise_insert_token_if_allowed');
}
const insertStatements = new WeakMap<Database, ReturnType<typeof buildInsertStatement>>();
function insertStatement(db: Database) {
  let statement = insertStatements.get(db);
  if (!statement) {
    statement = buildInsertStatement(db);
    insertStatements.set(db, statement);
  }
  return statement;
}

/**
 * The only code of the tokenise service that touches its tables. Built over the database or a
 * transaction (see `transaction`). Every read of a token takes the account id, so another
 * account's token is as good as unknown.
 */
export class TokenRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repo: TokenRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new TokenRepository(tx as unknown as Database)));
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
   * An externalId that exists → unique violation ('exists').
   */
  async insertTokenIfAllowed(values: NewTokenInput, creditsNeeded: number): Promise<TokenRow | 'refused' | 'exists'> {
    const params: Record<string, unknown> = { creditsNeeded };
    for (const column of INSERTED_COLUMNS) params[column] = values[column] ?? null;
    try {
      const [row] = await insertStatement(this.db).execute(params);
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

  async updateToken(id: string, values: Partial<NewToken>, where?: SQL): Promise<TokenRow | null> {
    const [row] = await this.db
      .update(tokens)
      .set({ ...values, updatedAt: new Date() })
      .where(where ? and(eq(tokens.id, id), where) : eq(tokens.id, id))
      .returning();
    return row ?? null;
  }

  /** Stores the deployment transaction's hash, only if none is stored yet (the send's claim). */
  async claimTxHash(id: string, txHash: string, deployerAddress: string): Promise<boolean> {
    const row = await this.updateToken(
      id,
      { txHash, deployerAddress },
      and(isNull(tokens.txHash), eq(tokens.status, 'PENDING')),
    );
    return row !== null;
  }

  async releaseTxHash(id: string, txHash: string): Promise<void> {
    await this.updateToken(id, { txHash: null, deployerAddress: null }, eq(tokens.txHash, txHash));
  }

  async deleteToken(accountId: string, id: string, where: SQL): Promise<TokenRow | null> {
    const [row] = await this.db
      .delete(tokens)
      .where(and(eq(tokens.id, id), eq(tokens.accountId, accountId), where))
      .returning();
    return row ?? null;
  }

  /** Tokens whose deployment must be followed: platform ones and wallet ones with a transaction. */
  async pendingTrackable(): Promise<{ id: string }[]> {
    return this.db
      .select({ id: tokens.id })
      .from(tokens)
      .where(and(eq(tokens.status, 'PENDING'), or(eq(tokens.deploymentType, 'QUANT'), isNotNull(tokens.txHash))));
  }

  // -- quota and credits ---------------------------------------------------------------------

  async quota(accountId: string): Promise<{ total: number | null; used: number } | null> {
    const [row] = await this.db
      .select({ total: accountFeatures.total, used: accountFeatures.used })
      .from(accountFeatures)
      .where(and(eq(accountFeatures.accountId, accountId), eq(accountFeatures.feature, TOKENS_FEATURE)));
    return row ?? null;
  }

  async releaseQuota(accountId: string): Promise<void> {
    await this.db
      .update(accountFeatures)
      .set({ used: sql`greatest(${accountFeatures.used} - 1, 0)` })
      .where(and(eq(accountFeatures.accountId, accountId), eq(accountFeatures.feature, TOKENS_FEATURE)));
  }

  async credits(accountId: string): Promise<number> {
    const [row] = await this.db.select({ credits: accounts.credits }).from(accounts).where(eq(accounts.id, accountId));
    return row?.credits ?? 0;
  }

  /**
   * Applies a credit change once per reference: the transaction row (unique reference) and the
   * balance change happen together or not at all. A debit needs the balance to cover it.
   * Answers 'applied', 'duplicate' (the reference exists) or 'insufficient'.
   */
  async applyCredits(
    accountId: string,
    amount: number,
    reason: string,
    reference: string,
  ): Promise<'applied' | 'duplicate' | 'insufficient'> {
    const [inserted] = await this.db
      .insert(creditTransactions)
      .values({ accountId, amount, reason, reference })
      .onConflictDoNothing()
      .returning({ id: creditTransactions.id });
    if (!inserted) return 'duplicate';
    const updated = await this.db
      .update(accounts)
      .set({ credits: sql`${accounts.credits} + ${amount}` })
      .where(and(eq(accounts.id, accountId), amount < 0 ? sql`${accounts.credits} >= ${-amount}` : undefined))
      .returning({ credits: accounts.credits });
    if (!updated.length) {
      await this.db.delete(creditTransactions).where(eq(creditTransactions.id, inserted.id));
      return 'insufficient';
    }
    return 'applied';
  }

  async creditTransactions(accountId: string) {
    return this.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.accountId, accountId))
      .orderBy(asc(creditTransactions.createdAt));
  }
}
