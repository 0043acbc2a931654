import { qntToWei, type TStaffListPaging } from '@connect/shared';
import { formatQnt } from '../../../lib/plans/money.ts';

/*
 * What the rewards screens (campaigns, tasks, claims) show of the campaign service's answers: QNT
 * as decimal text ("2.5"), campaign days as UTC calendar days ("2026-12-01"), and Spring-style
 * pages (content, totalElements, totalPages, number, size; spec §3) read by the staff list.
 */

/** "1234.5" → "1,234.5 QNT" (grouped, at most six decimals, rounded down); text that is not an amount as it came. */
export function formatRewardQnt(qnt: string): string {
  const wei = qntToWei(qnt);
  return wei === null ? `${qnt} QNT` : formatQnt(wei);
}

/** The exact amount with its unit, for what is about to be sent: "2.000000000000000001 QNT". */
export const exactRewardQnt = (qnt: string) => `${qnt.trim()} QNT`;

/**
 * "2026-12-01" → "01.12.2026" (spec §9). A campaign's day is a UTC calendar day, shown as written:
 * read through a Date it would become the day before west of Greenwich.
 */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : '–';
}

/** What one participant could earn times the places: the budget a publication sets aside (QNT text). */
export function campaignBudgetWei(qntValue: string, participants: number): bigint {
  return (qntToWei(qntValue) ?? 0n) * BigInt(participants);
}

type SpringPage = { totalElements: number; totalPages: number; number: number; size: number };

/** A page of the campaign service as the staff list reads one: exact totals, no cursor (it pages by number). */
export function staffPagingOf(page: SpringPage | undefined): TStaffListPaging | undefined {
  if (!page) return undefined;
  return {
    totalItems: page.totalElements,
    totalPages: page.totalPages,
    totalCapped: false,
    page: page.number,
    size: page.size,
    hasNextPage: page.number + 1 < page.totalPages,
    cursor: null,
  };
}
