import { usageRecords, type Database } from '@connect/db';
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
