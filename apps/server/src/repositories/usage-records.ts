import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { usageRecords, type Database } from '@connect/db';
import { MICRO_PER_CREDIT } from '@connect/shared';
import type { TMethodClass, TUsageSource } from '@connect/shared';

/** A record of usage, as stored (usage_records). */
export type NewUsageRecord = {
  id: string;
  accountId: string;
  source: TUsageSource;
  applicationId: string | null;
  networkId: string | null;
  method: string;
  methodClass: TMethodClass;
  hour: Date;
  billedHour: Date;
  calls: number;
  /** Signed: a refund is negative. */
  microCredits: number;
};

/**
 * Usage records (issue 17): every credit used, traced to its source by a stable id. Shared by the
 * services that produce them (the usage close, the tokenise settlement), over the database or a
 * transaction: written with the ledger movement they explain.
 */
export class UsageRecordRepository {
  constructor(private readonly db: Database) {}

  /** Stores records once (one statement, `on conflict (id) do nothing`); answers how many were new. */
  async add(records: NewUsageRecord[]): Promise<number> {
    if (!records.length) return 0;
    const inserted = await this.db
      .insert(usageRecords)
      .values(records)
      .onConflictDoNothing()
      .returning({ id: usageRecords.id });
    return inserted.length;
  }
}

/**
 * The insert of a token deployment's usage record as SQL, for a CTE of the caller's statement
 * (`returning 1 as one`): one "call" in this UTC hour, id `deployment:<token id>`, written once
 * per row of `source` (tokenise's insert passes its ledger debit, so the record exists only when
 * the credits were taken). The values are the caller's SQL (its statement's placeholders); the
 * write stays usage's.
 */
export function deploymentRecordSql(input: {
  tokenId: SQL;
  accountId: SQL;
  networkId: SQL;
  credits: SQL;
  source: SQLWrapper;
}): SQL {
  return sql`insert into ${usageRecords} (${sql.join(
    [
      usageRecords.id,
      usageRecords.accountId,
      usageRecords.source,
      usageRecords.networkId,
      usageRecords.method,
      usageRecords.methodClass,
      usageRecords.hour,
      usageRecords.billedHour,
      usageRecords.calls,
      usageRecords.microCredits,
    ].map((column) => sql.identifier(column.name)),
    sql`, `,
  )})
        select ${'deployment:'} || ${input.tokenId}::text, ${input.accountId}::uuid, 'DEPLOYMENT', ${input.networkId}::uuid,
               'deployment', 'deployment', hour, hour, 1, ${input.credits}::bigint * ${MICRO_PER_CREDIT}
        from ${input.source}, (select date_trunc('hour', now() at time zone 'UTC') at time zone 'UTC' as hour) as now_hour
        returning 1 as one`;
}
