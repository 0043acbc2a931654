import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DbHandle } from './client.ts';

/*
 * DbHandle.listen: on PostgreSQL a LISTEN on a connection of its own, told of a notification when
 * the notifying transaction commits, reconnecting when its connection goes; on PGlite a listener
 * that never calls. The PostgreSQL half needs DATABASE_URL (the CI's PostgreSQL pass sets it;
 * locally DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
 */

const databaseUrl = process.env.DATABASE_URL;

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
  const until = (check: () => boolean | Promise<boolean>, ms = 5_000) =>
    vi.waitFor(async () => expect(await check()).toBe(true), { timeout: ms, interval: 20 });

  it('is told at the commit, once per transaction, and not after close()', async () => {
    const heard: (string | undefined)[] = [];
    const listener = await dbh.listen(channel, (payload) => heard.push(payload));
    expect(await listeners()).toHaveLength(1);
    /** Notifies `payload` outside any transaction and waits until the listener heard it. */
    const marker = async (payload: string, to: (string | undefined)[] = heard) => {
      await dbh.query(`select pg_notify('${channel}', '${payload}')`);
      await until(() => to.includes(payload));
    };

    await dbh.db.transaction(async (tx) => {
      await tx.execute(`select pg_notify('${channel}', 'in-tx')`);
      await tx.execute(`select pg_notify('${channel}', 'in-tx')`);
      // Not before the commit: one committed meanwhile by another connection is heard, these are not.
      await marker('meanwhile');
      expect(heard).toEqual(['meanwhile']);
    });
    // Once: a notification committed after the transaction is heard after its single one.
    await marker('after-commit');
    expect(heard).toEqual(['meanwhile', 'in-tx', 'after-commit']);

    // A rolled-back transaction notifies nobody.
    await dbh.db
      .transaction(async (tx) => {
        await tx.execute(`select pg_notify('${channel}', 'rolled-back')`);
        throw new Error('refused');
      })
      .catch(() => undefined);
    await marker('after-rollback');
    expect(heard).toEqual(['meanwhile', 'in-tx', 'after-commit', 'after-rollback']);

    await listener.close();
    await listener.close();
    await until(async () => (await listeners()).length === 0);
    // After close(): another listener hears a notification, the closed one does not.
    const witnessed: (string | undefined)[] = [];
    const witness = await dbh.listen(channel, (payload) => witnessed.push(payload));
    await marker('after-close', witnessed);
    await witness.close();
    expect(heard).toEqual(['meanwhile', 'in-tx', 'after-commit', 'after-rollback']);
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
