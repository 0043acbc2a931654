import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './client.ts';

/*
 * DbHandle.listen: on PostgreSQL a LISTEN on a connection of its own, told of a notification when
 * the notifying transaction commits, reconnecting when its connection goes; on PGlite a listener
 * that never calls. The PostgreSQL half needs DATABASE_URL (the CI's PostgreSQL pass sets it;
 * locally DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
 */

const databaseUrl = process.env.DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('listen on PGlite', () => {
  it('answers a listener that closes', async () => {
    const dbh = await openDatabase({});
    try {
      const listener = await dbh.listen('connect_test', () => {
        throw new Error('never called');
      });
      await listener.close();
      await listener.close();
    } finally {
      await dbh.close();
    }
  });
});

describe.skipIf(!databaseUrl)('listen on PostgreSQL — needs DATABASE_URL', () => {
  let dbh: DbHandle;
  const channel = `connect_test_${process.pid}`;
  beforeAll(async () => {
    dbh = await openDatabase({ databaseUrl: databaseUrl!, poolSize: 2 });
  });
  afterAll(async () => {
    if (dbh && !dbh.isClosed) await dbh.close();
  });

  /** Backend pids listening on `channel`. */
  async function listeners(): Promise<number[]> {
    const { rows } = await dbh.query(`select pid from pg_stat_activity where query = $1`, [`listen "${channel}"`]);
    return rows.map((row) => Number(row.pid));
  }
  const until = async (check: () => boolean | Promise<boolean>, ms = 5_000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out');
      await sleep(20);
    }
  };

  it('is told at the commit, once per transaction, and not after close()', async () => {
    let calls = 0;
    const listener = await dbh.listen(channel, () => calls++);
    expect(await listeners()).toHaveLength(1);

    await dbh.db.transaction(async (tx) => {
      await tx.execute(`select pg_notify('${channel}', '')`);
      await tx.execute(`select pg_notify('${channel}', '')`);
      await sleep(150);
      expect(calls).toBe(0);
    });
    await until(() => calls > 0);
    await sleep(100);
    expect(calls).toBe(1);

    // A rolled-back transaction notifies nobody.
    await dbh.db
      .transaction(async (tx) => {
        await tx.execute(`select pg_notify('${channel}', '')`);
        throw new Error('refused');
      })
      .catch(() => undefined);
    await sleep(150);
    expect(calls).toBe(1);

    await listener.close();
    await listener.close();
    await until(async () => (await listeners()).length === 0);
    await dbh.query(`select pg_notify('${channel}', '')`);
    await sleep(150);
    expect(calls).toBe(1);
  });

  it('reconnects when its connection goes, telling of it, and listens again', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const listener = await dbh.listen(
      channel,
      () => calls++,
      (err) => errors.push(err),
    );
    const [pid] = await listeners();
    await dbh.query('select pg_terminate_backend($1)', [pid]);
    // Reconnected (a second later), and told: what committed meanwhile was not heard.
    await until(() => calls === 1);
    expect(errors.length).toBeGreaterThan(0);
    const after = await listeners();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(pid);

    await dbh.query(`select pg_notify('${channel}', '')`);
    await until(() => calls === 2);
    await listener.close();
  });

  // Last: it closes the database.
  it('is closed with the database', async () => {
    await dbh.listen(channel, () => undefined);
    expect(await listeners()).toHaveLength(1);
    await dbh.close();
    const other = await openDatabase({ databaseUrl: databaseUrl!, poolSize: 1 });
    try {
      await until(async () => {
        const { rows } = await other.query(`select pid from pg_stat_activity where query = $1`, [
          `listen "${channel}"`,
        ]);
        return rows.length === 0;
      });
    } finally {
      await other.close();
    }
  });
});
