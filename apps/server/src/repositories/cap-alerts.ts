import { sql } from 'drizzle-orm';
import { applications, usageAlerts, type Database } from '@connect/db';
import { CAP_ALERT_THRESHOLDS, microToCredits } from '@connect/shared';
import type { EventBus } from '../events/port.ts';

/** An application's month total, as the gateway's flush or a cap change sees it. */
export type MonthTotal = { applicationId: string; month: string; monthMicro: number };

/**
 * The spending caps' alerts (issue 17 §3), for the gateway's flush (services/gateway/repository.ts)
 * and for a cap set at or below what the month already used (services/usage/report.ts): inside the
 * caller's transaction, for the applications with a cap whose month total is at or past a
 * threshold (CAP_ALERT_THRESHOLDS), the alert keyed `cap:<application>:<month>:<cap>:<threshold>`
 * is stored once, so two nodes, a re-run or a replay alert once and a new cap may alert again.
 * Of the thresholds an application crossed at once, only the highest is announced
 * (`usage.cap_crossed`): one flush that passes 85 % and 100 % sends one email. One statement (the
 * cap read here, in case it changed); answers the applications at 100 % of their cap.
 */
export async function recordCapAlerts(tx: Database, events: EventBus, totals: MonthTotal[]): Promise<string[]> {
  if (!totals.length) return [];
  const values = sql.join(
    totals.map((t) => sql`(${t.applicationId}::uuid, ${t.month}::date, ${t.monthMicro}::bigint)`),
    sql`, `,
  );
  const thresholds = sql.join(
    CAP_ALERT_THRESHOLDS.map((threshold) => sql`(${threshold}::int)`),
    sql`, `,
  );
  const result = (await tx.execute(sql`
    with totals (application_id, month, month_micro) as (values ${values}),
    crossed as (
      select a.id as application_id, a.account_id, a.name, a.monthly_cap_micro as cap_micro, t.month, t.month_micro,
        th.threshold,
        'cap:' || a.id || ':' || to_char(t.month, 'YYYY-MM-DD') || ':' || a.monthly_cap_micro || ':' || th.threshold as key
      from totals t join ${applications} a on a.id = t.application_id
        cross join (values ${thresholds}) th (threshold)
      where a.monthly_cap_micro is not null and t.month_micro * 100 >= a.monthly_cap_micro * th.threshold
    ),
    alerted as (
      insert into ${usageAlerts} (key, account_id)
      select key, account_id from crossed
      on conflict (key) do nothing
      returning key
    )
    select c.application_id as "applicationId", c.account_id as "accountId", c.name, c.cap_micro as "capMicro",
      to_char(c.month, 'YYYY-MM-DD') as "month", c.month_micro as "monthMicro", c.threshold,
      exists (select 1 from alerted where alerted.key = c.key) as "isNew"
    from crossed c order by c.application_id, c.threshold desc`)) as unknown as {
    rows: {
      applicationId: string;
      accountId: string;
      name: string;
      capMicro: unknown;
      month: string;
      monthMicro: unknown;
      threshold: number;
      isNew: boolean;
    }[];
  };
  const reached = new Set<string>();
  const announced = new Set<string>();
  for (const row of result.rows) {
    if (row.threshold >= 100) reached.add(row.applicationId);
    // Highest threshold first: a lower one crossed in the same breath is stored, not announced.
    if (!row.isNew || announced.has(row.applicationId)) continue;
    announced.add(row.applicationId);
    await events.emit(tx, 'usage.cap_crossed', {
      accountId: row.accountId,
      applicationId: row.applicationId,
      applicationName: row.name,
      month: row.month,
      threshold: row.threshold as 85 | 100,
      capCredits: microToCredits(Number(row.capMicro)),
      usedCredits: microToCredits(Number(row.monthMicro)),
    });
  }
  return [...reached];
}
