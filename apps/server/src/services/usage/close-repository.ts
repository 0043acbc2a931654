import { eq, sql } from 'drizzle-orm';
import { appSettings, gatewayUsageHourly, ledgerEntries, usageRecords, type Database } from '@connect/db';
import { UsageRecordRepository, type NewUsageRecord } from '../../repositories/usage-records.ts';
import { AppSettingRepository } from '../../repositories/app-settings.ts';

export type { NewUsageRecord };

/** A counter with more calls than its hour's records: what a new record must add. */
export type UnrecordedCount = {
  accountId: string;
  applicationId: string;
  networkId: string;
  method: string;
  /** The counter's UTC hour. */
  hour: Date;
  /** The counter's calls now (the `+<calls>` of a correction's id). */
  counterCalls: number;
  /** Its records' calls so far (0: none yet, the hour's first record). */
  recordedCalls: number;
  calls: number;
  microCredits: number;
};

/** What one account owes for the gateway records billed in one hour (whole credits, see dueCharges). */
export type DueCharge = { accountId: string; billedHour: string; reference: string; credits: number };

/** The app_settings key of the hour the closes have charged up to (ISO, excluded). */
const CLOSED_UNTIL_SETTING = 'usage.closed_until';
/** The advisory lock of the close ('USGC'), one for the whole platform: closes run one after another. */
const CLOSE_LOCK = 0x55534743;

/**
 * The close's queries (services/usage/close.ts): set-based, over a transaction the close holds
 * the platform's close lock in.
 */
export class UsageCloseRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repo: UsageCloseRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      work(new UsageCloseRepository(tx as unknown as Database), tx as unknown as Database),
    );
  }

  /**
   * Waits for any other close (another node's, a dev-clock run) to commit, and holds the lock to
   * this transaction's end: a correction's size is counter − records, which two closes reading
   * the same records side by side would both add.
   */
  async lockClose(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${CLOSE_LOCK}::int)`);
  }

  /** The hour before which every billed hour has been charged (undefined before the first close). */
  async closedUntil(): Promise<Date | undefined> {
    const [row] = await this.db.select().from(appSettings).where(eq(appSettings.key, CLOSED_UNTIL_SETTING));
    return row ? new Date(row.value) : undefined;
  }

  /** The mark moved (app_settings is the platform's: written through its repository, in this transaction). */
  async setClosedUntil(hour: Date): Promise<void> {
    await new AppSettingRepository(this.db).set(CLOSED_UNTIL_SETTING, hour.toISOString());
  }

  /**
   * The counters of the hours in [from, before) whose calls outnumber their GATEWAY records' (the
   * hour index bounds the counters; the records are summed per key over the same hours).
   */
  async unrecordedCounts(from: Date, before: Date): Promise<UnrecordedCount[]> {
    const result = (await this.db.execute(sql`
      with recorded as (
        select application_id, network_id, method, hour, sum(calls) as calls, sum(micro_credits) as micro_credits
        from ${usageRecords}
        where source = 'GATEWAY' and hour >= ${from.toISOString()}::timestamptz and hour < ${before.toISOString()}::timestamptz
        group by application_id, network_id, method, hour
      )
      select g.account_id as "accountId", g.application_id as "applicationId", g.network_id as "networkId",
        g.method, g.hour, g.calls as "counterCalls", coalesce(r.calls, 0) as "recordedCalls",
        g.calls - coalesce(r.calls, 0) as calls, g.micro_credits - coalesce(r.micro_credits, 0) as "microCredits"
      from ${gatewayUsageHourly} g
        left join recorded r on r.application_id = g.application_id and r.network_id = g.network_id
          and r.method = g.method and r.hour = g.hour
      where g.hour >= ${from.toISOString()}::timestamptz and g.hour < ${before.toISOString()}::timestamptz
        and g.calls > coalesce(r.calls, 0)
      order by g.hour, g.application_id, g.network_id, g.method`)) as unknown as {
      rows: Record<keyof UnrecordedCount, unknown>[];
    };
    return result.rows.map((row) => ({
      accountId: row.accountId as string,
      applicationId: row.applicationId as string,
      networkId: row.networkId as string,
      method: row.method as string,
      hour: new Date(row.hour as string | Date),
      counterCalls: Number(row.counterCalls),
      recordedCalls: Number(row.recordedCalls),
      calls: Number(row.calls),
      microCredits: Number(row.microCredits),
    }));
  }

  /** Stores records once (`on conflict (id) do nothing`); answers how many were new. */
  insertRecords(records: NewUsageRecord[]): Promise<number> {
    return new UsageRecordRepository(this.db).add(records);
  }

  /**
   * Per account and billed hour in [from, before) with GATEWAY records and no ledger entry yet
   * (reference `usage:<account>:<billed hour ISO>`): the whole credits that hour adds to the
   * account's month, floor(M(≤H) / 1e6) − floor(M(<H) / 1e6), where M sums the account's GATEWAY
   * micro-credits billed in H's UTC month up to H. Fractions carry into the next hour's charge;
   * the fraction still under one credit when the month ends is never charged. Zero amounts are
   * left out: nothing to charge (the fraction carries), and the mark moves past their hour.
   */
  async dueCharges(from: Date, before: Date): Promise<DueCharge[]> {
    const monthStart = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
    const result = (await this.db.execute(sql`
      with billed as (
        select account_id, billed_hour, sum(micro_credits) as micro
        from ${usageRecords}
        where source = 'GATEWAY' and billed_hour >= ${monthStart.toISOString()}::timestamptz
          and billed_hour < ${before.toISOString()}::timestamptz
        group by account_id, billed_hour
      ),
      month_so_far as (
        select account_id, billed_hour, micro,
          sum(micro) over (
            partition by account_id, date_trunc('month', billed_hour at time zone 'UTC') order by billed_hour
          ) as up_to
        from billed
      ),
      due as (
        select account_id, billed_hour,
          floor(up_to / 1000000) - floor((up_to - micro) / 1000000) as credits,
          to_char(billed_hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as billed_iso
        from month_so_far
        where billed_hour >= ${from.toISOString()}::timestamptz
      )
      select d.account_id as "accountId", d.billed_iso as "billedHour", 'usage:' || d.account_id || ':' || d.billed_iso as reference,
        d.credits
      from due d
      where d.credits > 0
        and not exists (select 1 from ${ledgerEntries} e where e.reference = 'usage:' || d.account_id || ':' || d.billed_iso)
      order by d.billed_hour, d.account_id`)) as unknown as {
      rows: { accountId: string; billedHour: string; reference: string; credits: unknown }[];
    };
    return result.rows.map((row) => ({ ...row, credits: Number(row.credits) }));
  }
}
