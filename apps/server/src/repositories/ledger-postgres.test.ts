import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, openDatabase, type Database, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { LedgerRepository, type MoveResult } from './ledger.ts';

/*
 * Concurrent consumers on the real PostgreSQL, each movement on a connection of its own (a pg
 * Pool of CONNECTIONS clients, all busy at once). PGlite has one connection and cannot show a
 * race, so this file needs DATABASE_URL (the CI's PostgreSQL pass sets it; locally
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
 */

const CONNECTIONS = 12;
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('ledger under concurrent connections — needs DATABASE_URL (PostgreSQL)', () => {
  let handle: DbHandle;
  let pool: DbHandle;
  let ledger: LedgerRepository;
  beforeAll(async () => {
    handle = await createTestDatabase();
    // A second pool on the same test database, wide enough for every consumer to hold a connection.
    const [row] = (await handle.query('select current_database() as name')).rows;
    const url = new URL(databaseUrl!);
    url.pathname = `/${String(row!.name)}`;
    pool = await openDatabase({ databaseUrl: url.toString(), poolSize: CONNECTIONS });
    ledger = new LedgerRepository(pool.db);
  });
  afterAll(async () => {
    await pool?.close();
    await handle?.close();
  });

  async function newAccount(): Promise<string> {
    const [row] = await pool.db.insert(accounts).values({}).returning({ id: accounts.id });
    return row!.id;
  }
  const ref = (what: string) => ({ reason: what, reference: `race:${what}:${randomUUID()}` });
  const count = (answers: MoveResult[], outcome: MoveResult['outcome']) =>
    answers.filter((a) => a.outcome === outcome).length;

  /** Entries add up to the balance row, each running balance is right, and none passed `floor`. */
  async function expectConsistent(accountId: string, floor: bigint) {
    const entries = await ledger.entries(accountId, 'CREDIT');
    let sum = 0n;
    for (const entry of entries) {
      sum += entry.amount;
      expect(entry.balanceAfter).toBe(sum);
      expect(entry.balanceAfter >= floor).toBe(true);
    }
    expect((await ledger.balance(accountId, 'CREDIT')).balance).toBe(sum);
    return { entries, balance: sum };
  }

  it('runs the consumers on separate connections', async () => {
    // Asked for at once, the pool opens a client for each (none is idle): one backend each.
    const pids = await Promise.all(
      Array.from({ length: CONNECTIONS }, () =>
        pool.db.transaction(async (tx) => {
          const result = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
            rows: { pid: number }[];
          };
          return result.rows[0]!.pid;
        }),
      ),
    );
    expect(new Set(pids).size).toBe(CONNECTIONS);
  });

  it('never lets concurrent consumers pass a prepaid floor of 0', async () => {
    for (let round = 0; round < 5; round++) {
      const account = await newAccount();
      await ledger.grant(account, 'CREDIT', 100n, ref('trial'));
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => ledger.consume(account, 'CREDIT', 7n, ref(`charge-${i}`))),
      );
      expect(count(answers, 'applied')).toBe(14); // 14 × 7 = 98
      expect(count(answers, 'insufficient')).toBe(26);
      const { entries, balance } = await expectConsistent(account, 0n);
      expect(balance).toBe(2n);
      expect(entries).toHaveLength(15);
    }
  });

  it('never lets concurrent consumers pass a pay-as-you-go credit limit', async () => {
    const account = await newAccount();
    await ledger.setFloor(account, 'CREDIT', -60n);
    await ledger.grant(account, 'CREDIT', 10n, ref('opening'));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => ledger.consume(account, 'CREDIT', BigInt(1 + (i % 4)), ref(`c-${i}`))),
    );
    const { balance } = await expectConsistent(account, -60n);
    expect(balance >= -60n).toBe(true);
    // The refused ones would each have passed the limit from where the balance ended.
    for (const a of answers.filter((a) => a.outcome === 'insufficient')) expect(a.balance - 4n < -60n).toBe(true);
    expect(count(answers, 'applied')).toBeGreaterThan(0);
  });

  it('moves once when the same reference arrives on many connections at once', async () => {
    const account = await newAccount();
    await ledger.grant(account, 'CREDIT', 100n, ref('trial'));
    const charge = ref('charge');
    const refund = ref('refund');
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, () => ledger.consume(account, 'CREDIT', 20n, charge)),
      ...Array.from({ length: 15 }, () => ledger.refund(account, 'CREDIT', 5n, refund)),
    ]);
    expect(count(answers.slice(0, 15), 'applied')).toBe(1);
    expect(count(answers.slice(0, 15), 'duplicate')).toBe(14);
    expect(count(answers.slice(15), 'applied')).toBe(1);
    expect(count(answers.slice(15), 'duplicate')).toBe(14);
    const { entries, balance } = await expectConsistent(account, 0n);
    expect(balance).toBe(85n);
    expect(entries.map((e) => e.amount).sort()).toEqual([-20n, 100n, 5n].sort());
  });

  it('creates a missing balance row once when its first movements race', async () => {
    const account = await newAccount();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => ledger.grant(account, 'CREDIT', BigInt(i + 1), ref(`g-${i}`))),
    );
    expect(count(answers, 'applied')).toBe(24);
    const { balance } = await expectConsistent(account, 0n);
    expect(balance).toBe(300n); // 1 + 2 + … + 24
  });

  it('keeps the running balance right when grants and consumptions interleave inside longer transactions', async () => {
    const account = await newAccount();
    await ledger.grant(account, 'CREDIT', 50n, ref('trial'));
    const work = Array.from({ length: 36 }, (_, i) =>
      pool.db.transaction(async (tx) => {
        const inside = new LedgerRepository(tx as unknown as Database);
        // A read before the movement: the transaction's earlier statements saw an older balance.
        await inside.balance(account, 'CREDIT');
        return i % 3 === 0
          ? inside.grant(account, 'CREDIT', 4n, ref(`g-${i}`))
          : inside.consume(account, 'CREDIT', 5n, ref(`c-${i}`));
      }),
    );
    const answers = await Promise.all(work);
    const { balance } = await expectConsistent(account, 0n);
    const applied = answers.filter((a) => a.outcome === 'applied').length;
    expect(applied).toBeGreaterThan(12);
    expect(balance >= 0n).toBe(true);
  });
});
