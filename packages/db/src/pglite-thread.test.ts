import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteThread } from './pglite-thread.ts';

const TIMESTAMPTZ = 1184;

describe('the embedded database on its own thread', () => {
  let db: PGliteThread;
  beforeAll(async () => {
    db = await PGliteThread.create();
    await db.exec(`
      create table items (id int primary key, name text not null, at timestamptz not null default now());
      insert into items (id, name) values (1, 'one');
    `);
  });
  afterAll(() => db.close());

  it('answers statements with parameters, as objects or arrays', async () => {
    const objects = await db.query<{ id: number; name: string }>('select id, name from items where id = $1', [1]);
    expect(objects.rows).toEqual([{ id: 1, name: 'one' }]);
    const arrays = await db.query('select id, name from items', [], { rowMode: 'array' });
    expect(arrays.rows).toEqual([[1, 'one']]);
    expect(arrays.fields.map((f) => f.name)).toEqual(['id', 'name']);
  });

  it('runs the caller’s parsers here, over the text PostgreSQL answered', async () => {
    const seen: string[] = [];
    const result = await db.query<[number, string]>(
      `select 1, '2026-11-23 10:00:00+00'::timestamptz, null::timestamptz`,
      [],
      {
        rowMode: 'array',
        parsers: { [TIMESTAMPTZ]: (value) => (seen.push(value), `parsed:${value}`) },
      },
    );
    expect(result.rows).toEqual([[1, 'parsed:2026-11-23 10:00:00+00', null]]);
    expect(seen).toEqual(['2026-11-23 10:00:00+00']); // a null is not parsed
  });

  it('parses what the caller did not ask for as text as PGlite would: dates, timestamps, in rows, arrays and exec', async () => {
    const sql = `select '2026-11-23 10:00:00+00'::timestamptz as at, '2026-11-23'::date as day, array['2026-11-23 10:00:00+00'::timestamptz] as ats, null::timestamptz as none, array[1.5]::numeric[] as nums, '1 day'::interval as iv, array['2026-11-23'::date] as days`;
    const [row] = (await db.query<Record<string, unknown>>(sql)).rows;
    expect(row).toEqual({
      at: new Date('2026-11-23T10:00:00Z'),
      day: new Date('2026-11-23T00:00:00Z'),
      ats: [new Date('2026-11-23T10:00:00Z')],
      none: null,
      nums: ['1.5'],
      iv: '1 day',
      days: [new Date('2026-11-23T00:00:00Z')],
    });
    const arrays = await db.query<unknown[]>(sql, [], { rowMode: 'array' });
    expect(arrays.rows[0]![0]).toEqual(new Date('2026-11-23T10:00:00Z'));
    const [executed] = await db.exec(sql);
    expect(executed!.rows[0]).toEqual(row);
    // Asked for as text, a type stays the text PostgreSQL sent, the others parsed.
    const mixed = await db.query<unknown[]>(sql, [], {
      rowMode: 'array',
      parsers: { [TIMESTAMPTZ]: (value) => value },
    });
    expect(mixed.rows[0]!.slice(0, 2)).toEqual(['2026-11-23 10:00:00+00', new Date('2026-11-23T00:00:00Z')]);
  });

  it('fails a statement with PostgreSQL’s error fields', async () => {
    const error = await db.query('insert into items (id, name) values (1, $1)', ['again']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_pkey' });
    expect((error as Error).message).toMatch(/duplicate key/);
    // The connection is usable afterwards.
    expect((await db.query('select count(*)::int as n from items')).rows).toEqual([{ n: 1 }]);
  });

  it('commits a transaction whose work resolves, and rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values (2, $1)', ['two']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into items (id, name) values (3, $1)', ['three']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const ids = await db.query<{ id: number }>('select id from items order by id');
    expect(ids.rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('makes other statements wait until an open transaction ends', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query(`update items set name = 'two, changed' where id = 2`);
      outside = db.query<{ name: string }>('select name from items where id = 2').then((r) => {
        order.push(`outside saw ${r.rows[0]!.name}`);
      });
      // Give the outside statement every chance to run first: statements of the transaction sent
      // after it are answered, and it is not.
      for (let i = 0; i < 3; i++) await tx.query('select 1');
      order.push('transaction ends');
    });
    await outside;
    expect(order).toEqual(['transaction ends', 'outside saw two, changed']);
  });

  it('rolls back a transaction that asks for it, at once: its later statements fail', async () => {
    await db.transaction(async (tx) => {
      await tx.query(`delete from items`);
      await tx.rollback();
      expect(tx.closed).toBe(true);
      await expect(tx.query(`delete from items`)).rejects.toThrow('Transaction is closed');
    });
    expect((await db.query('select count(*)::int as n from items')).rows).toEqual([{ n: 2 }]);
  });

  it('runs two transactions one after the other, never interleaved', async () => {
    await db.exec(`create table counter (n int not null); insert into counter values (0);`);
    const bump = () =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query<{ n: number }>('select n from counter');
        await tx.query('select 1'); // another round trip: the other one would read 0 here
        await tx.query('update counter set n = $1', [rows[0]!.n + 1]);
      });
    await Promise.all([bump(), bump()]);
    expect((await db.query('select n from counter')).rows).toEqual([{ n: 2 }]);
  });

  it('keeps Drizzle’s nested transactions (savepoints): an inner one rolls back alone', async () => {
    const orm = drizzle({ client: db.asPGlite() });
    await orm.transaction(async (tx) => {
      await tx.execute(sql`insert into items (id, name) values (10, 'outer')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`insert into items (id, name) values (11, 'inner')`);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
    });
    const ids = await db.query<{ id: number }>('select id from items where id >= 10 order by id');
    expect(ids.rows.map((r) => r.id)).toEqual([10]);
    await db.query('delete from items where id >= 10');
  });

  it('fails a statement whose parameters cannot be sent, and goes on working', async () => {
    await expect(db.query('select $1::text', [() => 'a function'])).rejects.toThrow(/could not be cloned/i);
    expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('keeps answering a statement it prepared after its table changes shape or PostgreSQL forgets it', async () => {
    await db.exec(`create table shapes (id int primary key, a text); insert into shapes values (1, 'a');`);
    const read = () => db.query('select * from shapes where id = $1', [1]);
    expect((await read()).rows).toEqual([{ id: 1, a: 'a' }]);
    await db.exec(`alter table shapes add column b text not null default 'b'`);
    expect((await read()).rows).toEqual([{ id: 1, a: 'a', b: 'b' }]);
    await db.exec('deallocate all');
    expect((await read()).rows).toEqual([{ id: 1, a: 'a', b: 'b' }]);
  });

  it('answers more distinct statements than it keeps prepared, and refuses one that does not parse', async () => {
    for (let n = 0; n < 250; n++) {
      expect((await db.query(`select ${n} as n, $1::text as t`, ['x'])).rows).toEqual([{ n, t: 'x' }]);
    }
    expect((await db.query('select 0 as n, $1::text as t', ['y'])).rows).toEqual([{ n: 0, t: 'y' }]);
    await expect(db.query('selec 1')).rejects.toMatchObject({ code: '42601' });
    expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('dumps its data directory, and a new thread starts from the dump', async () => {
    const dump = await db.dumpDataDir('gzip');
    expect(dump.type).toMatch(/gzip/);
    const copy = await PGliteThread.create({ loadDataDir: dump });
    try {
      const rows = await copy.query<{ id: number }>('select id from items order by id');
      expect(rows.rows.map((r) => r.id)).toEqual([1, 2]);
    } finally {
      await copy.close();
    }
  });
});

describe('a closed or persisted embedded database', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'connect-pglite-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps its data in its directory across a restart, and refuses statements once closed', async () => {
    const first = await PGliteThread.create({ dataDir: dir });
    await first.exec(`create table kept (value text); insert into kept values ('still here');`);
    await first.close();
    expect(first.closed).toBe(true);
    await expect(first.query('select 1')).rejects.toThrow(/closed/);

    const second = await PGliteThread.create({ dataDir: dir });
    try {
      expect((await second.query('select value from kept')).rows).toEqual([{ value: 'still here' }]);
    } finally {
      await second.close();
    }
  });

  it('fails every statement once its thread has stopped, and counts as closed', async () => {
    const db = await PGliteThread.create();
    // What a crash of the thread looks like from here.
    await (db as unknown as { worker: { terminate: () => Promise<number> } }).worker.terminate();
    await expect(db.query('select 1')).rejects.toThrow(/database thread stopped/);
    expect(db.closed).toBe(true);
    await db.close(); // still fine to call
  });
});
