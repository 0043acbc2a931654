import { and, eq, sql } from 'drizzle-orm';
import {
  accountAllowances,
  accountFeatures,
  accountNetworks,
  ledgerBalances,
  platformTransactions,
  tokens,
  type Database,
} from '@connect/db';

/*
 * The one statement of TokenRepository.insertTokenIfAllowed, kept apart for its length: a part of
 * the repository, used by it alone.
 */

export type NewToken = typeof tokens.$inferInsert;

/** The usage record a token takes a unit of. */
export const TOKENS_FEATURE = 'tokens:create';

/** What a token's platform transaction is stored as (`reference`). */
export const tokenTxReference = (tokenId: string) => `token:${tokenId}`;

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
 * should not pay for building it): the quota update is a CTE guarded by the plan's tokens
 * allowance (the `account_allowances` view, only while the plan is in service), the activated network and
 * the credits the ledger shows available (balance − floor; it reads, the charge at settlement
 * moves), and the new row's account id is read from what it updated, so when any condition
 * fails the NOT NULL column refuses the whole statement. With `withTx`, the signed deployment
 * transaction is stored in platform_transactions by a second CTE of the same statement (it must be
 * stored before it is sent): no extra round trip on a deployment's critical path, and refused
 * with the token when the token is refused.
 */
function buildInsertStatement(db: Database, withTx: boolean) {
  const param = (name: string) => sql.placeholder(name);
  const taken = db.$with('taken', { accountId: sql<string>`account_id`.as('account_id') }).as(
    sql`update ${accountFeatures} set ${sql.identifier(accountFeatures.used.name)} = ${accountFeatures.used} + 1
        where ${and(
          eq(accountFeatures.accountId, param('accountId')),
          eq(accountFeatures.feature, TOKENS_FEATURE),
          // What the account's plan allows now, while the plan is in service (issue 14).
          sql`${accountFeatures.used} < (select ${accountAllowances.tokens} from ${accountAllowances} where ${and(
            eq(accountAllowances.accountId, param('accountId')),
            eq(accountAllowances.inService, true),
          )})`,
          sql`exists (select 1 from ${accountNetworks} where ${and(
            eq(accountNetworks.accountId, param('accountId')),
            eq(accountNetworks.networkId, param('networkId')),
          )})`,
          sql`coalesce((select ${ledgerBalances.balance} - ${ledgerBalances.floor} from ${ledgerBalances} where ${and(
            eq(ledgerBalances.accountId, param('accountId')),
            eq(ledgerBalances.asset, 'CREDIT'),
          )}), 0) >= ${param('creditsNeeded')}`,
        )}
        returning ${accountFeatures.accountId}`,
  );
  const stored = db.$with('stored', { one: sql<number>`one`.as('one') }).as(
    sql`insert into ${platformTransactions} (${sql.join(
      [
        platformTransactions.networkId,
        platformTransactions.fromAddress,
        platformTransactions.nonce,
        platformTransactions.txHash,
        platformTransactions.rawTx,
        platformTransactions.reference,
      ].map((column) => sql.identifier(column.name)),
      sql`, `,
    )})
        values (${param('networkId')}, ${param('deployerAddress')}, ${param('txNonce')}, ${param('txHash')},
                ${param('rawTx')}, ${tokenTxReference('')}::text || ${param('id')}::text)
        returning 1 as one`,
  );
  const values = Object.fromEntries(INSERTED_COLUMNS.map((column) => [column, param(column)])) as unknown as NewToken;
  return (withTx ? db.with(taken, stored) : db.with(taken))
    .insert(tokens)
    .values({ ...values, accountId: sql`(select ${taken.accountId} from ${taken})` })
    .returning()
    .prepare(withTx ? 'tokenise_insert_token_with_tx_if_allowed' : 'tokenise_insert_token_if_allowed');
}
const insertStatements = new WeakMap<Database, Map<boolean, ReturnType<typeof buildInsertStatement>>>();
export function insertStatement(db: Database, withTx: boolean) {
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
