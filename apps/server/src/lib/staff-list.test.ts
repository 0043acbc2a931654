import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import {
  buildCappedCount,
  buildStaffListPage,
  decodeStaffListCursor,
  encodeStaffListCursor,
  readCappedCount,
  readStaffListPage,
  StaffListCursorError,
  type StaffListDescriptor,
  type StaffListRequest,
  type StaffListRowKeys,
  type StaffListSort,
} from './staff-list.ts';

type Field = 'createdAt' | 'name' | 'score';
type Row = StaffListRowKeys & { id: string };

const ROWS = 1_000;
const SIZE = 30; // 34 pages, the last one holds 1000 % 30 = 10 rows

// Few distinct keys (duplicates everywhere, so the id tie-break matters), timestamps with
// microseconds, some only 1 µs apart (a JS Date would merge them).
const descriptor: StaffListDescriptor<Field> = {
  from: sql`staff_list_items`,
  id: sql`staff_list_items.id`,
  idCast: 'bigint',
  columns: sql`staff_list_items.id::text as "id"`,
  sorts: {
    createdAt: { key: sql`staff_list_items.created_at`, cast: 'timestamptz' },
    name: { key: sql`staff_list_items.name`, cast: 'text' },
    score: { key: sql`staff_list_items.score`, cast: 'bigint' },
  },
  defaultSort: { field: 'createdAt', direction: 'desc' },
};

const columnOf: Record<Field, string> = { createdAt: 'created_at', name: 'name', score: 'score' };

describe('staff list builder (keyset pages under page numbers)', () => {
  let dbh: DbHandle;

  const run = async <R>(query: SQL) => ((await dbh.db.execute(query)) as unknown as { rows: R[] }).rows;

  async function page(request: StaffListRequest<Field>, list = descriptor) {
    const plan = buildStaffListPage(list, request);
    return { plan, ...readStaffListPage(plan, await run<Row>(plan.query)) };
  }

  /** The reference: `order by key, id offset … limit …`, ids as text. */
  async function byOffset(sort: StaffListSort<Field>, offset: number, limit: number) {
    const direction = sql.raw(sort.direction);
    const column = sql.raw(columnOf[sort.field]);
    const rows = await run<{ rowId: string }>(sql`select id::text as "rowId" from staff_list_items
      order by ${column} ${direction}, id ${direction} offset ${offset} limit ${limit}`);
    return rows.map((r) => r.rowId);
  }

  beforeAll(async () => {
    dbh = await createTestDatabase();
    // An ordinary table: on PostgreSQL a temporary one would live on one pooled connection only.
    await dbh.db.execute(sql`create table staff_list_items (
      id bigint primary key, name text not null, score bigint not null, created_at timestamptz not null)`);
    await dbh.db.execute(sql`insert into staff_list_items (id, name, score, created_at)
      select i, 'name ' || ((i * 7) % 53), (i % 37) * 1000000000000,
        timestamptz '2026-01-01 00:00:00+00' + ((i % 211) * 1000003 + (i % 3)) * interval '1 microsecond'
      from generate_series(1, ${ROWS}) i`);
  });
  afterAll(() => dbh?.close());

  const sorts: StaffListSort<Field>[] = (['createdAt', 'name', 'score'] as const).flatMap((field) => [
    { field, direction: 'asc' as const },
    { field, direction: 'desc' as const },
  ]);

  it.each(sorts)('walks next pages to the end and previous pages back to 0 ($field $direction)', async (sort) => {
    const pages = Math.ceil(ROWS / SIZE);
    const seen: string[][] = [];
    // Forward without a total: next-page seeks until the extra row says there is no next page.
    let current = await page({ page: 0, size: SIZE, sort });
    expect(current.plan.seek).toBe('start');
    for (let p = 0; ; p++) {
      expect(current.rows.map((r) => r.id)).toEqual(await byOffset(sort, p * SIZE, SIZE));
      seen.push(current.rows.map((r) => r.id));
      if (!current.hasNextPage) break;
      current = await page({ page: p + 1, size: SIZE, sort, cursor: current.cursor });
      expect(current.plan.seek).toBe('next');
    }
    expect(seen).toHaveLength(pages);
    expect(new Set(seen.flat()).size).toBe(ROWS);
    // Backward: previous-page seeks in the reversed order, page 0 from the start.
    for (let p = pages - 2; p >= 0; p--) {
      current = await page({ page: p, size: SIZE, sort, cursor: current.cursor });
      expect(current.plan.seek).toBe(p === 0 ? 'start' : 'previous');
      expect(current.rows.map((r) => r.id)).toEqual(seen[p]);
      expect(current.hasNextPage).toBe(true);
    }
    // The same page again re-reads from its first row.
    const again = await page({ page: 0, size: SIZE, sort, cursor: current.cursor });
    expect(again.rows.map((r) => r.id)).toEqual(seen[0]);
  });

  it.each(sorts)('reads the last page from the end with total % size rows ($field $direction)', async (sort) => {
    const last = await page({ page: 33, size: SIZE, sort, total: ROWS });
    expect(last.plan.seek).toBe('last');
    expect(last.rows).toHaveLength(ROWS % SIZE);
    expect(last.rows.map((r) => r.id)).toEqual(await byOffset(sort, 33 * SIZE, SIZE));
    expect(last.hasNextPage).toBe(false);
    // And the page before it, as a previous page from the last one.
    const before = await page({ page: 32, size: SIZE, sort, total: ROWS, cursor: last.cursor });
    expect(before.plan.seek).toBe('previous');
    expect(before.rows.map((r) => r.id)).toEqual(await byOffset(sort, 32 * SIZE, SIZE));
  });

  it('reads an exact multiple of the size as a full last page', async () => {
    const sort = { field: 'score', direction: 'asc' } as const;
    const last = await page({ page: 19, size: 50, sort, total: ROWS });
    expect(last.plan.seek).toBe('last');
    expect(last.rows.map((r) => r.id)).toEqual(await byOffset(sort, 950, 50));
  });

  it.each(sorts)('jumps from page p to p + 7 and back as offset would ($field $direction)', async (sort) => {
    for (const from of [0, 3, 20]) {
      let at = await page({ page: 0, size: SIZE, sort });
      if (from > 0) at = await page({ page: from, size: SIZE, sort });
      const ahead = await page({ page: from + 7, size: SIZE, sort, cursor: at.cursor });
      expect(ahead.plan.seek).toBe('jump');
      expect(ahead.rows.map((r) => r.id)).toEqual(await byOffset(sort, (from + 7) * SIZE, SIZE));
      expect(ahead.hasNextPage).toBe(from + 7 < 33);
      // Back again, with the exact total so the end is an anchor too.
      const back = await page({ page: from + 1, size: SIZE, sort, cursor: ahead.cursor, total: ROWS });
      expect(back.rows.map((r) => r.id)).toEqual(await byOffset(sort, (from + 1) * SIZE, SIZE));
      expect(back.hasNextPage).toBe(true);
    }
    // Near the end with an exact total, the end is the nearest anchor (reversed OFFSET).
    const nearEnd = await page({ page: 30, size: SIZE, sort, total: ROWS });
    expect(nearEnd.plan.isReversed).toBe(true);
    expect(nearEnd.rows.map((r) => r.id)).toEqual(await byOffset(sort, 30 * SIZE, SIZE));
  });

  it('ignores a cursor of another list (its hash differs) and still answers the right rows', async () => {
    const asc = { field: 'name', direction: 'asc' } as const;
    const desc = { field: 'name', direction: 'desc' } as const;
    const first = await page({ page: 0, size: SIZE, sort: asc });
    const other = await page({ page: 1, size: SIZE, sort: desc, cursor: first.cursor });
    expect(other.plan.seek).toBe('jump');
    expect(other.rows.map((r) => r.id)).toEqual(await byOffset(desc, SIZE, SIZE));
    const otherSize = await page({ page: 1, size: 10, sort: asc, cursor: first.cursor });
    expect(otherSize.rows.map((r) => r.id)).toEqual(await byOffset(asc, 10, 10));
    const forged = encodeStaffListCursor({ ...decodeStaffListCursor(first.cursor!), h: 'another-list' });
    const ignored = await page({ page: 1, size: SIZE, sort: asc, cursor: forged });
    expect(ignored.plan.seek).toBe('jump');
    expect(ignored.rows.map((r) => r.id)).toEqual(await byOffset(asc, SIZE, SIZE));
    // A filter is part of the list: the same sort and size under another filter is another list.
    const filtered = { ...descriptor, where: [sql`staff_list_items.score = 0`] };
    const fromFiltered = await page({ page: 0, size: 5, sort: asc }, filtered);
    const unfiltered = await page({ page: 1, size: 5, sort: asc, cursor: fromFiltered.cursor });
    expect(unfiltered.plan.seek).toBe('jump');
    expect(unfiltered.rows.map((r) => r.id)).toEqual(await byOffset(asc, 5, 5));
  });

  it('answers an empty page past the end, with or without the total', async () => {
    const sort = { field: 'score', direction: 'desc' } as const;
    const known = await page({ page: 40, size: SIZE, sort, total: ROWS });
    expect(known).toMatchObject({ rows: [], hasNextPage: false, cursor: undefined });
    expect(known.plan.seek).toBe('past-end');
    const unknown = await page({ page: 40, size: SIZE, sort });
    expect(unknown).toMatchObject({ rows: [], hasNextPage: false, cursor: undefined });
  });

  it('uses the default sort when none is asked, and reads a negative page as page 0', async () => {
    const answer = await page({ page: -3, size: 5, sort: null });
    expect(answer.plan.page).toBe(0);
    expect(answer.rows.map((r) => r.id)).toEqual(await byOffset(descriptor.defaultSort, 0, 5));
  });

  it('counts exactly up to 10,000 rows and answers 10,000 capped beyond', async () => {
    const count = async (list: StaffListDescriptor) => readCappedCount(await run(buildCappedCount(list)));
    expect(await count(descriptor)).toEqual({ total: ROWS, capped: false });
    expect(await count({ ...descriptor, where: [sql`staff_list_items.score = 0`] })).toEqual({
      total: 27,
      capped: false,
    });
    await dbh.db.execute(sql`create table staff_list_many (id bigint primary key, at timestamptz not null)`);
    await dbh.db.execute(sql`insert into staff_list_many select i, now() from generate_series(1, 10000) i`);
    const many: StaffListDescriptor = {
      from: sql`staff_list_many`,
      id: sql`staff_list_many.id`,
      sorts: { at: { key: sql`staff_list_many.at`, cast: 'timestamptz' } },
      defaultSort: { field: 'at', direction: 'desc' },
    };
    expect(await count(many)).toEqual({ total: 10_000, capped: false });
    await dbh.db.execute(sql`insert into staff_list_many values (10001, now())`);
    expect(await count(many)).toEqual({ total: 10_000, capped: true });
    await dbh.db.execute(sql`insert into staff_list_many select i, now() from generate_series(10002, 12000) i`);
    expect(await count(many)).toEqual({ total: 10_000, capped: true });
  });

  it('refuses a malformed cursor with the typed error (a 400 on `cursor`)', () => {
    const malformed = [
      'not a cursor!',
      Buffer.from('{"v":1').toString('base64url'),
      Buffer.from(JSON.stringify({ v: 2, p: 0, first: ['a', '1'], last: ['b', '2'], h: 'x' })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, p: -1, first: ['a', '1'], last: ['b', '2'], h: 'x' })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, p: 0, first: ['a'], last: ['b', '2'], h: 'x' })).toString('base64url'),
    ];
    // The right hash but values that would not cast back (a forged cursor): 400, not a database error.
    const valid = decodeStaffListCursor(
      readStaffListPage(buildStaffListPage(descriptor, { page: 0, size: SIZE }), [
        { staffListKey: '2026-01-01 00:00:00.000001+00', staffListId: '1' },
      ]).cursor!,
    );
    malformed.push(
      encodeStaffListCursor({ ...valid, first: ['yesterday-ish', '1'] }),
      encodeStaffListCursor({ ...valid, last: ['2026-01-01 00:00:00+00', '99999999999999999999'] }),
    );
    for (const cursor of malformed) {
      const build = () => buildStaffListPage(descriptor, { page: 1, size: SIZE, cursor });
      expect(build).toThrow(StaffListCursorError);
      try {
        build();
      } catch (error) {
        expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST', invalidParams: [{ name: 'cursor' }] });
      }
    }
  });
});
