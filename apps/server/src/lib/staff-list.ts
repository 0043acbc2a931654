import { createHash } from 'node:crypto';
// This module builds SQL fragments for the repositories that run them (the rule's intent, "only
// repositories query", holds: nothing here touches a database), and it is shared by every staff
// list, so it cannot be one repository's method.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- a pure builder; see above
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { STAFF_COUNT_CAP, type TStaffListPaging } from '@connect/shared';
import { ProblemError } from './errors.ts';

/**
 * One builder for the staff console's server-side lists (issue 32 §2; plan 1.4): users, accounts,
 * applications, audit entries… all page the same way. It only builds SQL; the repository of each
 * list runs it on its Database or transaction and hands the rows back to `readStaffListPage`.
 *
 * Why keyset and not OFFSET: the issue asks the first, next, previous and last page to answer in
 * p95 ≤ 50 ms at 1,000,000 rows; `offset 500000` reads half a million rows first. So the client
 * sends back the cursor of the page it shows (its first and last row), and the neighbouring pages
 * are index seeks `(key, id) > (…)` on a btree over `(key, id)`: cost ∝ page size, not page number.
 */

/** How a sort key's text form is cast back in SQL (see `StaffListSortKey`). */
export type StaffListCast = 'text' | 'timestamptz' | 'bigint';
export type StaffListIdCast = 'uuid' | 'text' | 'bigint';
export type StaffListDirection = 'asc' | 'desc';
export type StaffListSort<F extends string = string> = { field: F; direction: StaffListDirection };

/**
 * A sortable field. `key` must never be null (coalesce it in the expression): a row comparison with
 * a null is unknown, so a null key would drop rows from every seek. An index on `(key, id)` (with the
 * descriptor's `where` as its predicate when it filters) keeps the seeks O(page size).
 */
export type StaffListSortKey = { key: SQL; cast: StaffListCast };

export type StaffListDescriptor<F extends string = string> = {
  /** The FROM source: a table or a join, e.g. sql`${userDirectory} d`. */
  from: SQL;
  /** The unique row id: the tie-break after the key, so equal keys still have one order. */
  id: SQL;
  /** How the id's text form is cast back (default uuid). */
  idCast?: StaffListIdCast;
  /** The columns the page answers, e.g. sql`d.user_id as "userId", d.email`. */
  columns?: SQL;
  sorts: Record<F, StaffListSortKey>;
  /** Used when the request has no sort. */
  defaultSort: StaffListSort<F>;
  /** Filters and search, and-ed. They are part of what defines the list (the cursor's hash). */
  where?: SQL[];
};

export type StaffListRequest<F extends string = string> = {
  /** Zero-based; a negative page reads page 0. */
  page: number;
  size: number;
  /** Absent or null: the descriptor's default sort. */
  sort?: StaffListSort<F> | null | undefined;
  /** The cursor of the page the client shows (from the previous answer), if any. */
  cursor?: string | undefined;
  /** The exact total when the caller knows it (a maintained counter); never a capped one. */
  total?: number | undefined;
};

/** How a page is reached; the cost column of the table below. */
export type StaffListSeek =
  | 'start' // page 0: the first size + 1 rows
  | 'next' // the client's page + 1: seek after its last row
  | 'previous' // the client's page − 1: seek before its first row, reversed order
  | 'same' // the client's page again: from its first row inclusive
  | 'last' // the last page (exact total): the first total % size rows of the reversed order
  | 'jump' // anything else: OFFSET from the nearest known anchor, cost ∝ distance × size rows
  | 'past-end'; // beyond the exact total: nothing to read

export type StaffListPlan = {
  /** Run it: its rows carry the descriptor's columns and the row's cursor key and id. */
  query: SQL;
  page: number;
  size: number;
  seek: StaffListSeek;
  /** Rows read from the end (reversed order); `readStaffListPage` turns them back. */
  isReversed: boolean;
  /** Known without reading for reversed reads (a forward read learns it from the extra row). */
  hasNextPage: boolean | undefined;
  /** Hash of what defines the list; written into the answer's cursor. */
  hash: string;
};

/** What each row of a plan's query carries besides the descriptor's columns. */
export type StaffListRowKeys = { staffListKey: string; staffListId: string };

export type StaffListPage<R> = {
  rows: R[];
  hasNextPage: boolean;
  /** For the client to send back with its next request; absent on an empty page. */
  cursor: string | undefined;
};

/** A cursor that is not one this builder wrote: the routes answer 400 INVALID_REQUEST on `cursor`. */
export class StaffListCursorError extends ProblemError {
  constructor(reason = 'The cursor is not valid.') {
    super('INVALID_REQUEST', { detail: reason, invalidParams: [{ name: 'cursor', reason }] });
    this.name = 'StaffListCursorError';
  }
}

const ZCursor = z.object({
  v: z.literal(1),
  p: z.number().int().nonnegative(),
  first: z.tuple([z.string(), z.string()]),
  last: z.tuple([z.string(), z.string()]),
  h: z.string().max(64),
});
export type StaffListCursor = z.infer<typeof ZCursor>;

export function encodeStaffListCursor(cursor: StaffListCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

/** Throws StaffListCursorError when the text is not base64url JSON of a version-1 cursor. */
export function decodeStaffListCursor(text: string): StaffListCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new StaffListCursorError();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new StaffListCursorError();
  }
  const parsed = ZCursor.safeParse(json);
  if (!parsed.success) throw new StaffListCursorError();
  return parsed.data;
}

const dialect = new PgDialect();

/**
 * A short hash of what defines the list: its source, filters and search (as SQL text and
 * parameters, so no caller has to list them a second time), the sort and the page size. A cursor
 * from another list (another tab, term, sort or size) then names rows of a different order; the
 * builder ignores it instead of seeking from a foreign row.
 */
export function staffListHash(descriptor: StaffListDescriptor, sort: StaffListSort, size: number): string {
  const { sql: text, params } = dialect.sqlToQuery(
    sql`${descriptor.from} | ${descriptor.id} | ${sql.join(descriptor.where ?? [], sql` and `)} | ${sort.field} ${sort.direction} ${size}`,
  );
  const json = JSON.stringify([text, params], (_, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
  return createHash('sha256').update(json).digest('base64url').slice(0, 12);
}

const INT8 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const CASTABLE: Record<StaffListCast | StaffListIdCast, (text: string) => boolean> = {
  text: () => true,
  bigint: (text) => /^-?\d{1,19}$/.test(text) && BigInt(text) >= INT8.min && BigInt(text) <= INT8.max,
  // The text form of a timestamptz under DateStyle ISO, as `key::text` writes it.
  timestamptz: (text) =>
    /^(-?infinity|\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d){0,2}( BC)?)$/.test(text),
  uuid: (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text),
};

/**
 * The hash is no signature: a client can forge a cursor with the right hash. Its values must still
 * cast, or the seek would fail in the database as a 500 instead of the cursor's 400.
 */
function assertCastable(cursor: StaffListCursor, keyCast: StaffListCast, idCast: StaffListIdCast): void {
  for (const [key, id] of [cursor.first, cursor.last]) {
    if (!CASTABLE[keyCast](key) || !CASTABLE[idCast](id)) throw new StaffListCursorError();
  }
}

/** The request's sort or the default; an unknown field is the route's 400, so here a bug. */
function resolveSort<F extends string>(
  descriptor: StaffListDescriptor<F>,
  sort: StaffListSort<F> | null | undefined,
): { sort: StaffListSort<F>; key: StaffListSortKey } {
  const chosen = sort ?? descriptor.defaultSort;
  const key: StaffListSortKey | undefined = descriptor.sorts[chosen.field];
  if (!key) throw new Error(`Unknown sort field ${chosen.field}`);
  return { sort: chosen, key };
}

/**
 * The SQL for one page. Order `key dir, id dir` (the id breaks ties, so the order is total and a
 * seek never skips or repeats a row). Seeks compare the row `(key, id)` with the cursor's row:
 * PostgreSQL turns a row comparison into one btree range on `(key, id)`, where `key > k or (key = k
 * and id > i)` would not use the index as a range. The cursor's key is the key selected as text
 * and cast back in SQL: a JS Date would round µs timestamps to ms and skip or repeat rows.
 */
export function buildStaffListPage<F extends string>(
  descriptor: StaffListDescriptor<F>,
  request: StaffListRequest<F>,
): StaffListPlan {
  if (!Number.isInteger(request.size) || request.size < 1) throw new Error(`Page size ${request.size}`);
  const size = request.size;
  const page = Math.max(0, Math.trunc(request.page) || 0);
  const { sort, key } = resolveSort(descriptor, request.sort);
  const hash = staffListHash(descriptor, sort, size);
  const decoded = request.cursor === undefined ? undefined : decodeStaffListCursor(request.cursor);
  // A cursor of another list is ignored: the request is then served as a jump.
  const cursor = decoded?.h === hash ? decoded : undefined;
  if (cursor) assertCastable(cursor, key.cast, descriptor.idCast ?? 'uuid');
  const total = request.total;
  const lastPage = total === undefined ? undefined : Math.max(0, Math.ceil(total / size) - 1);

  const idCast = sql.raw(descriptor.idCast ?? 'uuid');
  const keyCast = sql.raw(key.cast);
  const forward = sort.direction === 'asc' ? sql.raw('asc') : sql.raw('desc');
  const backward = sort.direction === 'asc' ? sql.raw('desc') : sql.raw('asc');
  const row = sql`(${key.key}, ${descriptor.id})`;
  const at = (edge: [string, string]) => sql`(${edge[0]}::${keyCast}, ${edge[1]}::${idCast})`;
  // "After" in the list's own direction: > for ascending, < for descending.
  const after = sort.direction === 'asc' ? sql.raw('>') : sql.raw('<');
  const before = sort.direction === 'asc' ? sql.raw('<') : sql.raw('>');

  const read = (options: {
    seek: StaffListSeek;
    isReversed: boolean;
    condition?: SQL;
    limit: number;
    offset?: number;
    hasNextPage?: boolean;
  }): StaffListPlan => {
    const conditions = [...(descriptor.where ?? []), ...(options.condition ? [options.condition] : [])];
    const where = conditions.length ? sql` where ${sql.join(conditions, sql` and `)}` : sql``;
    const direction = options.isReversed ? backward : forward;
    const columns = descriptor.columns ? sql`${descriptor.columns}, ` : sql``;
    const query = sql`select ${columns}${key.key}::text as "staffListKey", ${descriptor.id}::text as "staffListId"
      from ${descriptor.from}${where}
      order by ${key.key} ${direction}, ${descriptor.id} ${direction}
      limit ${options.limit}${options.offset ? sql` offset ${options.offset}` : sql``}`;
    return {
      query,
      page,
      size,
      seek: options.seek,
      isReversed: options.isReversed,
      hasNextPage: options.hasNextPage,
      hash,
    };
  };

  // LIMIT 0 never runs its input: an empty page past the known end costs nothing.
  if (lastPage !== undefined && page > lastPage) {
    return read({ seek: 'past-end', isReversed: false, limit: 0, hasNextPage: false });
  }
  // One row more than the page says whether a next page exists, without a count.
  if (page === 0) return read({ seek: 'start', isReversed: false, limit: size + 1 });
  if (cursor && page === cursor.p + 1) {
    return read({
      seek: 'next',
      isReversed: false,
      condition: sql`${row} ${after} ${at(cursor.last)}`,
      limit: size + 1,
    });
  }
  if (cursor && page === cursor.p) {
    return read({
      seek: 'same',
      isReversed: false,
      condition: sql`${row} ${after}= ${at(cursor.first)}`,
      limit: size + 1,
    });
  }
  if (cursor && page === cursor.p - 1) {
    // The client's own page follows, so there is a next page.
    return read({
      seek: 'previous',
      isReversed: true,
      condition: sql`${row} ${before} ${at(cursor.first)}`,
      limit: size,
      hasNextPage: true,
    });
  }
  // The end of the reversed order is as cheap as the start: the last page is its first rows.
  if (total !== undefined && page === lastPage) {
    return read({ seek: 'last', isReversed: true, limit: total % size || size, hasNextPage: false });
  }

  /*
   * A jump to any other page: OFFSET from the nearest anchor the server knows — the start, the end
   * (exact total only) or the client's page. Its cost is the distance in rows (pages × size) read and
   * thrown away, so a deep jump at a million rows is slow by design; the API description says so.
   */
  const anchors: { offset: number; plan: () => StaffListPlan }[] = [
    {
      offset: page * size,
      plan: () => read({ seek: 'jump', isReversed: false, limit: size + 1, offset: page * size }),
    },
  ];
  if (total !== undefined && lastPage !== undefined && page < lastPage) {
    const offset = total - lastPage * size + (lastPage - 1 - page) * size;
    anchors.push({
      offset,
      plan: () => read({ seek: 'jump', isReversed: true, limit: size, offset, hasNextPage: true }),
    });
  }
  if (cursor && page > cursor.p) {
    const offset = (page - cursor.p - 1) * size;
    const condition = sql`${row} ${after} ${at(cursor.last)}`;
    anchors.push({ offset, plan: () => read({ seek: 'jump', isReversed: false, condition, limit: size + 1, offset }) });
  }
  if (cursor && page < cursor.p) {
    const offset = (cursor.p - 1 - page) * size;
    const condition = sql`${row} ${before} ${at(cursor.first)}`;
    anchors.push({
      offset,
      plan: () => read({ seek: 'jump', isReversed: true, condition, limit: size, offset, hasNextPage: true }),
    });
  }
  const nearest = anchors.reduce((best, anchor) => (anchor.offset < best.offset ? anchor : best));
  return nearest.plan();
}

/**
 * The page from the rows of a plan's query: reversed reads turned back to the list's order, the
 * extra row of a forward read dropped (it only says that a next page exists), and the cursor of
 * this page for the client's next request.
 */
export function readStaffListPage<R extends StaffListRowKeys>(
  plan: StaffListPlan,
  rows: readonly R[],
): StaffListPage<Omit<R, keyof StaffListRowKeys>> {
  const ordered = plan.isReversed ? [...rows].reverse() : rows.slice(0, plan.size);
  const hasNextPage = plan.hasNextPage ?? rows.length > plan.size;
  const first = ordered[0];
  const last = ordered[ordered.length - 1];
  const cursor =
    first && last
      ? encodeStaffListCursor({
          v: 1,
          p: plan.page,
          first: [first.staffListKey, first.staffListId],
          last: [last.staffListKey, last.staffListId],
          h: plan.hash,
        })
      : undefined;
  return {
    rows: ordered.map(({ staffListKey: _key, staffListId: _id, ...rest }) => rest),
    hasNextPage,
    cursor,
  };
}

/** Counts stop here: a search's total is exact up to this many rows, then shown as "10,000+". */
export const STAFF_LIST_COUNT_CAP = 10_000;

/**
 * `select count(*)` over at most CAP + 1 rows of the list. An exact count of a common search term
 * reads every match (300 ms at a million rows in the issue's trial); the LIMIT stops at 10,001.
 * No ORDER BY: with one, the planner walked the sort key's index and fetched every row to test the
 * term (447 ms p95 for "james" at a million users); without, it uses the search's own index and
 * stops at 10,001 matches (26 ms; bench:admin, docs/benchmarks.md). Read it with `readCappedCount`.
 */
export function buildCappedCount(descriptor: StaffListDescriptor): SQL {
  const where = descriptor.where?.length ? sql` where ${sql.join(descriptor.where, sql` and `)}` : sql``;
  return sql`select count(*)::int as "count" from (
      select 1 from ${descriptor.from}${where} limit ${STAFF_LIST_COUNT_CAP + 1}
    ) capped`;
}

export type CappedCount = { total: number; capped: boolean };

/** 10,001 counted rows answer { total: 10000, capped: true }: more than the cap, no exact total. */
export function readCappedCount(rows: readonly { count: number | string }[]): CappedCount {
  const count = Number(rows[0]?.count ?? 0);
  return count > STAFF_LIST_COUNT_CAP ? { total: STAFF_LIST_COUNT_CAP, capped: true } : { total: count, capped: false };
}

/** Runs a query on the repository's Database or transaction (the list never touches one itself). */
export type StaffListRunner = <R>(query: SQL) => Promise<R[]>;

/**
 * One list request from start to answer: the count (the caller's exact total when it keeps one,
 * else the capped count), the page's plan, its rows and the paging every staff list answers with.
 */
export async function queryStaffList<F extends string, R extends Record<string, unknown>>(
  run: StaffListRunner,
  descriptor: StaffListDescriptor<F>,
  request: Omit<StaffListRequest<F>, 'total'>,
  exactTotal?: number,
): Promise<{ rows: R[]; paging: TStaffListPaging; plan: StaffListPlan }> {
  const count: CappedCount =
    exactTotal === undefined
      ? readCappedCount(await run<{ count: number }>(buildCappedCount(descriptor)))
      : { total: exactTotal, capped: false };
  const plan = buildStaffListPage(descriptor, { ...request, total: count.capped ? undefined : count.total });
  const page = readStaffListPage(plan, await run<R & StaffListRowKeys>(plan.query));
  return {
    rows: page.rows as unknown as R[],
    plan,
    paging: {
      totalItems: count.total,
      totalPages: Math.ceil(count.total / plan.size),
      totalCapped: count.capped,
      page: plan.page,
      size: plan.size,
      hasNextPage: page.hasNextPage,
      cursor: page.cursor ?? null,
    },
  };
}

/** How every staff list pages, for its route's API description. */
export const STAFF_LIST_PAGING_DESCRIPTION = `Pages are zero-based (a negative page reads page 0); size is one of 5, 10, 50, 100 (default 5); sort is \`field:asc\` or \`field:desc\` (empty: the default). Every answer carries a \`cursor\` naming its first and last rows: send it back with the next request, and the next, previous, same and last page are index seeks (p95 ≤ 50 ms at a million rows). Any other page is a jump: read by OFFSET from the nearest page the server knows (the first, the last, or the cursor's), so its cost grows with the distance — about page × size rows. A search's total is exact up to ${STAFF_COUNT_CAP.toLocaleString('en-GB')}; above it \`totalCapped\` is true, \`totalItems\` is ${STAFF_COUNT_CAP} and there is no last page to jump to.`;

/** A user's term for LIKE: lower case, its wildcards (`%`, `_`, `\\`) escaped to stand for themselves. */
export function likeEscaped(term: string): string {
  return term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A staff list's search (docs/decisions/staff-console.md, "User search"): a term of 3 or more
 * characters anywhere in `text` (a lower-cased column with a pg_trgm GIN index); 1 or 2 characters,
 * which carry no trigram, at the start of any of `prefixKeys` (C-collated, so a btree range).
 */
export function staffListSearch(term: string, columns: { text: SQL; prefixKeys: SQL[] }): SQL {
  const escaped = likeEscaped(term);
  if (term.length >= 3) return sql`${columns.text} like ${`%${escaped}%`}`;
  const prefix = `${escaped}%`;
  return sql`(${sql.join(
    columns.prefixKeys.map((key) => sql`${key} like ${prefix}`),
    sql` or `,
  )})`;
}
