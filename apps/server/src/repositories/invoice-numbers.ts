import { sql } from 'drizzle-orm';
import type { Database } from '@connect/db';
import { documentNumber, type TInvoiceSeries } from '@connect/shared';

/**
 * The one way a document gets its number (issue 18): `count` numbers of the series taken from its
 * row of invoice_counters by one `update … returning`, in the caller's transaction. The row stays
 * locked until that transaction ends, so two transactions take numbers one after the other, and a
 * transaction that rolls back gives its numbers back: numbers have no gaps and none twice.
 * Answers the first number taken (the rest follow it); take numbers only for documents the
 * transaction is certain to keep.
 */
export async function takeNumbers(db: Database, series: TInvoiceSeries, count: number): Promise<number> {
  if (count < 1) throw new Error('takeNumbers: count must be at least 1');
  const result = (await db.execute(
    sql`update invoice_counters set last = last + ${count} where series = ${series} returning last - ${count} + 1 as first`,
  )) as unknown as { rows: { first: string | number }[] };
  const first = result.rows[0]?.first;
  if (first === undefined) throw new Error(`No invoice counter for the series ${series}`);
  return Number(first);
}

/** One number of the series: its counter's value and its printed form (`INV-000042`). */
export async function takeNumber(db: Database, series: TInvoiceSeries): Promise<{ seq: number; number: string }> {
  const seq = await takeNumbers(db, series, 1);
  return { seq, number: documentNumber(series, seq) };
}
