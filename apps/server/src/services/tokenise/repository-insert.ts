import { and, eq, fillPlaceholders, getTableColumns, is, sql } from 'drizzle-orm';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import { accountNetworks, tokens, type Database } from '@connect/db';
import { consumptionCtes } from '../../repositories/ledger.ts';
import { storePlatformTxSql } from '../../repositories/platform.ts';
import { deploymentRecordSql } from '../../repositories/usage-records.ts';
import { takeCounterSql } from '../entitlements/index.ts';

/*
 * The one statement of TokenRepository.insertTokenIfAllowed, kept apart for its length: a part of
 * the repository, used by it alone.
 */

export type NewToken = typeof tokens.$inferInsert;

/** What a token's platform transaction is stored as (`reference`); also its charge's ledger reference. */
export const tokenTxReference = (tokenId: string) => `token:${tokenId}`;

/** A deployment's charge, as the ledger and the usage records say it. */
export const chargeReason = (token: { name: string; unit: string }) =>
  `Token deployment: ${token.name} (${token.unit})`;

/** The columns a new token is inserted with (the rest take their defaults). */
export const INSERTED_COLUMNS = [
  'id',
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
export type NewTokenInput = Omit<Pick<NewToken, (typeof INSERTED_COLUMNS)[number]>, 'id'>;

/**
 * The statement of `insertTokenIfAllowed`, built once per database (a deployment's critical path
 * should not pay for building it). The deployment's credits are taken in it (issue 27): the
 * ledger's `debited` CTE moves the CREDIT balance only while it stays at or above its floor,
 * and its `entry` writes the consumption (`token:<id>`), traced by a usage record (`deployment:<id>`)
 * as the charge always was. The quota is taken by the entitlements' CTE (takeCounterSql: the
 * tokens allowance of the plan in service, or its override), guarded also by the activated network
 * and that debit, and the new row's account id is read from what it updated, so when any condition fails
 * the NOT NULL column refuses the whole statement — the debit with it. Both conditions that can
 * race are on rows the statement updates (the usage record's `used`, the balance), so on
 * PostgreSQL a concurrent insert waits for the row and its condition is checked again on the
 * committed version: the check and the taking are one step. With `withTx`, the signed deployment
 * transaction is stored in platform_transactions by another CTE of the same statement (it must be
 * stored before it is sent): no extra round trip on a deployment's critical path, and refused with
 * the token when the token is refused.
 */
function buildInsertStatement(db: Database, withTx: boolean) {
  const param = (name: string) => sql.placeholder(name);
  const credits = sql`${param('creditsNeeded')}::integer`;
  const { debited, entry } = consumptionCtes(db, {
    accountId: sql`${param('accountId')}`,
    asset: 'CREDIT',
    amount: credits,
    reason: sql`${'Token deployment: '} || ${param('name')}::text || ${' ('} || ${param('unit')}::text || ${')'}`,
    reference: sql`${tokenTxReference('')} || ${param('id')}::text`,
  });
  // The charge traced as usage (services/tokenise/settlement.ts recordDeployment): one "call" in this UTC hour.
  const traced = db.$with('traced', { one: sql<number>`one`.as('one') }).as(
    deploymentRecordSql({
      tokenId: sql`${param('id')}`,
      accountId: sql`${param('accountId')}`,
      networkId: sql`${param('networkId')}`,
      credits,
      source: debited,
    }),
  );
  const taken = db
    .$with('taken', { accountId: sql<string>`account_id`.as('account_id') })
    .as(
      takeCounterSql('tokens', param('accountId'), [
        sql`exists (select 1 from ${accountNetworks} where ${and(
          eq(accountNetworks.accountId, param('accountId')),
          eq(accountNetworks.networkId, param('networkId')),
        )})`,
        sql`(${credits} = 0 or exists (select 1 from debited))`,
      ]),
    );
  const stored = db.$with('stored', { one: sql<number>`one`.as('one') }).as(
    storePlatformTxSql({
      networkId: sql`${param('networkId')}`,
      fromAddress: sql`${param('deployerAddress')}`,
      nonce: sql`${param('txNonce')}`,
      txHash: sql`${param('txHash')}`,
      rawTx: sql`${param('rawTx')}`,
      reference: sql`${tokenTxReference('')}::text || ${param('id')}::text`,
    }),
  );
  const values = Object.fromEntries(INSERTED_COLUMNS.map((column) => [column, param(column)])) as unknown as NewToken;
  const ctes = [debited, entry, traced, taken];
  const name = withTx ? 'tokenise_insert_token_with_tx_if_allowed' : 'tokenise_insert_token_if_allowed';
  const insert = (withTx ? db.with(...ctes, stored) : db.with(...ctes))
    .insert(tokens)
    .values({ ...values, accountId: sql`(select ${taken.accountId} from ${taken})`, creditsCharged: credits })
    .returning();
  return is(db, PgliteDatabase) ? preparedOnPglite(db, name, insert.toSQL()) : insert.prepare(name);
}

type TokenRow = typeof tokens.$inferSelect;
type InsertStatement = { execute: (params: Record<string, unknown>) => Promise<TokenRow[]> };

/**
 * The statement prepared once in the embedded PGlite's one session (SQL `PREPARE`), each deployment
 * then an `EXECUTE` of it. PGlite parses, analyses and plans every statement it is sent, and Drizzle's
 * name is only used by node-postgres (which prepares it per connection): for this statement of five
 * CTEs that was three quarters of its cost — 2.3 ms instead of 4.2 (medians of 60, alternating, load
 * 10; issue 30). `EXECUTE` takes no bound parameters, so the values are sent as quoted literals
 * (`literal`); the rows are mapped as Drizzle maps `returning()`'s. In a transaction (never on a
 * deployment's path) the statement is Drizzle's, as on PostgreSQL.
 */
function preparedOnPglite(db: Database, name: string, query: { sql: string; params: unknown[] }): InsertStatement {
  const columns = Object.entries(getTableColumns(tokens));
  let prepared: Promise<unknown> | undefined;
  return {
    async execute(params) {
      prepared ??= db.execute(sql.raw(`prepare ${name} as ${query.sql}`)).catch((err: unknown) => {
        if ((err as { code?: string }).code === DUPLICATE_PREPARED_STATEMENT) return;
        prepared = undefined;
        throw err;
      });
      await prepared;
      const values = fillPlaceholders(query.params, params).map(literal);
      const result = await db.execute(sql.raw(`execute ${name}(${values.join(', ')})`));
      return (result as unknown as { rows: Record<string, unknown>[] }).rows.map(
        (raw) =>
          Object.fromEntries(
            columns.map(([key, column]) => {
              const value = raw[column.name];
              return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
            }),
          ) as TokenRow,
      );
    },
  };
}

const DUPLICATE_PREPARED_STATEMENT = '42P05';

/** A parameter as an SQL literal, quoted as node-postgres's `escapeLiteral` quotes it. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  if (value instanceof Date) return literal(value.toISOString());
  if (typeof value !== 'string') throw new Error(`No SQL literal for a ${typeof value}`);
  const quoted = `'${value.replace(/'/g, "''")}'`;
  return value.includes('\\') ? `E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}
const insertStatements = new WeakMap<Database, Map<boolean, InsertStatement>>();
export function insertStatement(db: Database, withTx: boolean): InsertStatement {
  let statements = insertStatements.get(db);
  if (!statements) {
    statements = new Map();
    insertStatements.set(db, statements);
  }
  let statement = statements.get(withTx);
  if (!statement) {
    statement = buildInsertStatement(db, withTx);
    statements.set(withTx, statement);
  }
  return statement;
}
