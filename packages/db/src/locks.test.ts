import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './client.ts';

/*
 * DbHandle.tryLock: one holder per key. On PGlite an in-process guard; on PostgreSQL a session
 * lock on a connection of its own, which the server releases when that connection goes. The
 * PostgreSQL half needs DATABASE_URL (the CI's PostgreSQL pass sets it; locally
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
 */

const databaseUrl = process.env.DATABASE_URL;

describe('tryLock on PGlite (one process owns the database)', () => {
  let dbh: DbHandle;
  beforeAll(async () => {
    dbh = await openDatabase({});
  });
  afterAll(async () => {
    if (dbh && !dbh.isClosed) await dbh.close();
  });

  it('gives a key to one holder until it is released', async () => {
    const first = await dbh.tryLock('follower:a');
    expect(first).not.toBeNull();
    expect(await dbh.tryLock('follower:a')).toBeNull();
    // Another key is another lock.
    const other = await dbh.tryLock('follower:b');
    expect(other).not.toBeNull();
    await first!.release();
    await first!.release();
    const again = await dbh.tryLock('follower:a');
    expect(again).not.toBeNull();
    expect(again!.lost.aborted).toBe(false);
    await again!.release();
    await other!.release();
  });

  // Last: it closes the database.
  it('tells a holder its lock is lost when the database closes', async () => {
    const lock = await dbh.tryLock('follower:c');
    await dbh.close();
    expect(lock!.lost.aborted).toBe(true);
  });
});

describe.skipIf(!databaseUrl)('tryLock on PostgreSQL — needs DATABASE_URL', () => {
  // Two handles are two nodes: separate pools, separate lock connections.
  let nodeA: DbHandle;
  let nodeB: DbHandle;
  const key = `follower:test:${process.pid}:${Date.now()}`;
  beforeAll(async () => {
    nodeA = await openDatabase({ databaseUrl: databaseUrl!, poolSize: 2 });
    nodeB = await openDatabase({ databaseUrl: databaseUrl!, poolSize: 2 });
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
  });

  /** The backend pids holding our advisory lock (pg_locks; the two-int key space, objsubid 2). */
  async function holders(): Promise<number[]> {
    const { rows } = await nodeA.query(
      `select l.pid from pg_locks l
        where l.locktype = 'advisory' and l.granted and l.objsubid = 2
          and l.classid::bigint = $1 and l.objid::bigint = (hashtext($2)::bigint & 4294967295)`,
      [0x636f6e6e, key],
    );
    return rows.map((row) => Number(row.pid));
  }

  it('gives a key to one node; the other takes it once released, and nothing is held after', async () => {
    const a = await nodeA.tryLock(key);
    expect(a).not.toBeNull();
    expect(await nodeB.tryLock(key)).toBeNull();
    // Same process, another connection: refused too (the lock is the session's, not the process's).
    expect(await nodeA.tryLock(key)).toBeNull();
    expect(await holders()).toHaveLength(1);
    await a!.release();
    const b = await nodeB.tryLock(key);
    expect(b).not.toBeNull();
    await b!.release();
    expect(await holders()).toEqual([]);
  });

  it("is released by the server when the holder's connection dies, and the holder hears of it", async () => {
    const a = await nodeA.tryLock(key);
    expect(a).not.toBeNull();
    const [pid] = await holders();
    // The node's process dies: its connection closes (here, the server ends it).
    await nodeB.query('select pg_terminate_backend($1)', [pid]);
    await expect.poll(() => a!.lost.aborted, { timeout: 5_000 }).toBe(true);
    const b = await nodeB.tryLock(key);
    expect(b).not.toBeNull();
    await a!.release();
    await b!.release();
  });

  it('ends its lock connections on close, so the lock is free for the next node', async () => {
    const own = await openDatabase({ databaseUrl: databaseUrl!, poolSize: 1 });
    const lock = await own.tryLock(key);
    expect(lock).not.toBeNull();
    await own.close();
    expect(lock!.lost.aborted).toBe(true);
    const next = await nodeB.tryLock(key);
    expect(next).not.toBeNull();
    await next!.release();
  });
});
