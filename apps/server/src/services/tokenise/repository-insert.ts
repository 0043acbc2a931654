import { and, eq, sql } from 'drizzle-orm';
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
  return (withTx ? db.with(...ctes, stored) : db.with(...ctes))
    .insert(tokens)
    .values({ ...values, accountId: sql`(select ${taken.accountId} from ${taken})`, creditsCharged: credits })
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
