import { methodClass, USAGE_CLOSE_GRACE_MINUTES } from '@connect/shared';
import type { Database } from '@connect/db';
import type { EventBus } from '../../events/port.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { UsageCloseRepository, type NewUsageRecord, type UnrecordedCount } from './close-repository.ts';

const HOUR_MS = 3_600_000;
/** How far back a close looks for counters (and billed hours) it has not recorded: a month and a bit. */
export const USAGE_CLOSE_LOOKBACK_DAYS = 35;

export type CloseResult = {
  /** Usage records stored by this close (first records and corrections). */
  records: number;
  /** Ledger consumptions applied by this close. */
  charges: number;
};

/**
 * Closes the gateway's hours (issue 17 §1): the counters (gateway_usage_hourly) of every hour that
 * ended at least USAGE_CLOSE_GRACE_MINUTES before `now` (so every node's last flush is in) become
 * usage records, and the records become ledger consumption. Run by close-job.ts every few
 * minutes, and by the development clock.
 *
 * The closes keep one mark, `closedUntil`: every billed hour before it has been charged. A run
 * closes the hours up to its closing hour (the hour `now − grace` falls in, not yet ended + grace):
 *
 * - A counter with more calls than its records gets one new record with the difference: the
 *   hour's first `gateway:<application>:<network>:<method>:<hour ISO>`, or a correction
 *   `…:+<counter's calls>` (the counter names it, so finding the same difference again stores
 *   nothing). Calls of an hour closed for the first time are billed in that hour; calls counted
 *   after their hour was closed (a correction, or a method first counted late) are billed in the
 *   closing hour, never in an hour already charged. Records are never edited.
 * - Each account's billed hours from `closedUntil` to the closing hour are charged as one ledger
 *   consumption each, reference `usage:<account>:<billed hour ISO>`, in whole credits (see
 *   UsageCloseRepository.dueCharges: fractions carry within the UTC month, the last one under a
 *   credit is not charged), and announced as `usage.charged`. The consumption may pass the floor:
 *   the calls were served (LedgerRepository.meter). Then `closedUntil` moves to the closing hour.
 *
 * All of it in one transaction that holds the platform's close lock, so two nodes closing at once
 * do it one after the other, the second finding nothing left to do; a replay stores and charges
 * nothing (ids, references and the mark are stable; `on conflict do nothing`). A run whose clock
 * is behind the mark (a development-clock run in the past) bills what it finds late in the
 * mark's hour, charged by the next run past it.
 */
export function closeHours(deps: CloseDeps, now: Date): Promise<CloseResult> {
  const closing = new Date(Math.floor((now.getTime() - USAGE_CLOSE_GRACE_MINUTES * 60_000) / HOUR_MS) * HOUR_MS);
  return close(deps, { closing, countedBefore: closing, billLateAt: (mark) => (closing > mark ? closing : mark) });
}

/**
 * The development close of "the current period now" (POST /api/dev/billing/close-period): every
 * call counted before `at` is charged now, those of `at`'s own unfinished hour too, and the mark
 * moves to `at` itself, not to the hour's end. The calls of that hour counted later are late and
 * billed at the mark (`at`), so the next development close, even within the same hour, charges
 * them and finds them inside its period; a mark ahead of the period would leave them out of it (a
 * second close in one hour once lost another account's calls). The regular close past the hour
 * bills what it finds late in its closing hour, as always.
 */
export function closeUntil(deps: CloseDeps, at: Date): Promise<CloseResult> {
  const countedBefore = new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
  return close(deps, { closing: at, countedBefore, billLateAt: (mark) => mark });
}

type CloseDeps = { db: Database; events: EventBus };

type CloseSpan = {
  /** The mark this run moves to: billed hours before it are charged. */
  closing: Date;
  /** The counters of the hours before this are recorded. */
  countedBefore: Date;
  /** Where a late record is billed, given the mark found: never before it (those hours are charged). */
  billLateAt(closedUntil: Date): Date;
};

async function close(deps: CloseDeps, span: CloseSpan): Promise<CloseResult> {
  const { closing } = span;
  const from = new Date(Math.floor(closing.getTime() / HOUR_MS) * HOUR_MS - USAGE_CLOSE_LOOKBACK_DAYS * 24 * HOUR_MS);
  return new UsageCloseRepository(deps.db).transaction(async (repo, tx) => {
    await repo.lockClose();
    const closedUntil = (await repo.closedUntil()) ?? from;
    const billedLate = span.billLateAt(closedUntil);
    const counts = await repo.unrecordedCounts(from, span.countedBefore);
    const records = await repo.insertRecords(counts.map((count) => recordOf(count, closedUntil, billedLate)));
    if (closing <= closedUntil) return { records, charges: 0 };
    const ledger = new LedgerRepository(tx);
    let charges = 0;
    for (const due of await repo.dueCharges(closedUntil, closing)) {
      const amount = BigInt(due.credits);
      const moved = await ledger.meter(due.accountId, 'CREDIT', amount, {
        reason: `Gateway calls, ${hourRange(due.billedHour)}`,
        reference: due.reference,
      });
      if (moved.outcome !== 'applied') continue;
      charges++;
      const { available } = await ledger.balance(due.accountId, 'CREDIT');
      await deps.events.emit(tx, 'usage.charged', {
        accountId: due.accountId,
        billedHour: due.billedHour,
        credits: due.credits,
        availableBefore: Number(available + amount),
        availableAfter: Number(available),
      });
    }
    await repo.setClosedUntil(closing);
    return { records, charges };
  });
}

/** The record that brings a counter's records up to its calls (see closeHours for the billed hour). */
function recordOf(count: UnrecordedCount, closedUntil: Date, billedLate: Date): NewUsageRecord {
  const isFirst = count.recordedCalls === 0;
  const isLate = !isFirst || count.hour < closedUntil;
  const key = `${count.applicationId}:${count.networkId}:${count.method}:${count.hour.toISOString()}`;
  return {
    id: isFirst ? `gateway:${key}` : `gateway:${key}:+${count.counterCalls}`,
    accountId: count.accountId,
    source: 'GATEWAY',
    applicationId: count.applicationId,
    networkId: count.networkId,
    method: count.method,
    methodClass: methodClass(count.method),
    hour: count.hour,
    billedHour: isLate ? billedLate : count.hour,
    calls: count.calls,
    microCredits: count.microCredits,
  };
}

/** `26.11.2026 14:00–15:00 UTC` (en-GB dates with dots, spec §9). */
function hourRange(hourIso: string): string {
  const [date, time] = hourIso.split('T') as [string, string];
  const [year, month, day] = date.split('-');
  const start = Number(time.slice(0, 2));
  return `${day}.${month}.${year} ${String(start).padStart(2, '0')}:00–${String((start + 1) % 24).padStart(2, '0')}:00 UTC`;
}
