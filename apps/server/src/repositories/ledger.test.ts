import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, type Database, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { LedgerRepository, type LedgerAsset } from './ledger.ts';

/*
 * The ledger on the test database (PGlite here; PostgreSQL in the CI's PostgreSQL pass). Races
 * between separate connections are in ledger-postgres.test.ts.
 */

let handle: DbHandle;
let db: Database;
let ledger: LedgerRepository;
beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  ledger = new LedgerRepository(db);
});
afterAll(() => handle?.close());

/** An account with no ledger rows at all (made directly, so no trial grant). */
async function newAccount(): Promise<string> {
  const [row] = await db.insert(accounts).values({}).returning({ id: accounts.id });
  return row!.id;
}

const ref = (what: string) => ({ reason: what, reference: `test:${what}:${randomUUID()}` });

/** Each entry's running balance is the previous one plus its amount, and the last is the balance row's. */
async function expectConsistent(accountId: string, asset: LedgerAsset) {
  const entries = await ledger.entries(accountId, asset);
  let sum = 0n;
  for (const entry of entries) {
    sum += entry.amount;
    expect(entry.balanceAfter).toBe(sum);
  }
  expect((await ledger.balance(accountId, asset)).balance).toBe(sum);
  return entries;
}

describe('LedgerRepository', () => {
  it('records each kind with its sign, reason and reference, and moves the balance by it', async () => {
    const account = await newAccount();
    const moves = [
      ['grant', 100n],
      ['purchase', 250n],
      ['consume', 30n],
      ['refund', 30n],
      ['payment', 5n],
      ['claim', 55n],
    ] as const;
    const answers = [];
    for (const [kind, amount] of moves) answers.push(await ledger[kind](account, 'CREDIT', amount, ref(kind)));
    expect(answers.map((a) => a.outcome)).toEqual(Array(6).fill('applied'));
    expect(answers.map((a) => a.balance)).toEqual([100n, 350n, 320n, 350n, 355n, 300n]);
    const entries = await expectConsistent(account, 'CREDIT');
    expect(entries.map((e) => [e.kind, e.amount, e.reason])).toEqual([
      ['grant', 100n, 'grant'],
      ['purchase', 250n, 'purchase'],
      ['consume', -30n, 'consume'],
      ['refund', 30n, 'refund'],
      ['payment', 5n, 'payment'],
      ['claim', -55n, 'claim'],
    ]);
    expect(entries.every((e) => e.asset === 'CREDIT' && e.accountId === account)).toBe(true);
    expect(await ledger.balance(account, 'CREDIT')).toEqual({ balance: 300n, floor: 0n, available: 300n });
  });

  it('answers zero for an account that never moved, and creates its balance row on the first movement', async () => {
    const account = await newAccount();
    expect(await ledger.balance(account, 'QNT')).toEqual({ balance: 0n, floor: 0n, available: 0n });
    expect(await ledger.entries(account, 'QNT')).toEqual([]);
    expect(await ledger.grant(account, 'QNT', 1n, ref('first'))).toEqual({ outcome: 'applied', balance: 1n });
    expect(await ledger.balance(account, 'QNT')).toEqual({ balance: 1n, floor: 0n, available: 1n });
  });

  it('keeps assets apart, with amounts beyond a double (wei)', async () => {
    const account = await newAccount();
    const wei = 123_456_789_012_345_678_901_234_567n;
    await ledger.payment(account, 'QNT', wei, ref('over-payment'));
    await ledger.grant(account, 'REWARD_QNT', 10n ** 18n, ref('reward'));
    await ledger.grant(account, 'CREDIT', 7n, ref('credits'));
    expect(await ledger.claim(account, 'REWARD_QNT', 4n * 10n ** 17n, ref('claimed'))).toMatchObject({
      outcome: 'applied',
      balance: 6n * 10n ** 17n,
    });
    expect((await ledger.balance(account, 'QNT')).balance).toBe(wei);
    expect((await ledger.balance(account, 'CREDIT')).balance).toBe(7n);
    for (const asset of ['CREDIT', 'QNT', 'REWARD_QNT'] as const) {
      expect(await expectConsistent(account, asset)).toHaveLength(asset === 'REWARD_QNT' ? 2 : 1);
    }
  });

  describe('floors', () => {
    it('refuses a prepaid consumption past 0 and writes nothing; the last credit may be spent', async () => {
      const account = await newAccount();
      await ledger.grant(account, 'CREDIT', 10n, ref('trial'));
      expect(await ledger.consume(account, 'CREDIT', 11n, ref('too much'))).toEqual({
        outcome: 'insufficient',
        balance: 10n,
      });
      expect(await ledger.claim(account, 'CREDIT', 11n, ref('too much'))).toMatchObject({ outcome: 'insufficient' });
      expect(await ledger.consume(account, 'CREDIT', 10n, ref('all'))).toEqual({ outcome: 'applied', balance: 0n });
      expect(await ledger.consume(account, 'CREDIT', 1n, ref('one more'))).toMatchObject({ outcome: 'insufficient' });
      expect((await expectConsistent(account, 'CREDIT')).map((e) => e.amount)).toEqual([10n, -10n]);
    });

    it('lets a pay-as-you-go account go down to its credit limit, not below', async () => {
      const account = await newAccount();
      await ledger.setFloor(account, 'CREDIT', -50n);
      expect(await ledger.balance(account, 'CREDIT')).toEqual({ balance: 0n, floor: -50n, available: 50n });
      expect(await ledger.consume(account, 'CREDIT', 30n, ref('a'))).toEqual({ outcome: 'applied', balance: -30n });
      expect(await ledger.consume(account, 'CREDIT', 21n, ref('b'))).toEqual({
        outcome: 'insufficient',
        balance: -30n,
      });
      expect(await ledger.consume(account, 'CREDIT', 20n, ref('c'))).toEqual({ outcome: 'applied', balance: -50n });
      expect(await ledger.balance(account, 'CREDIT')).toEqual({ balance: -50n, floor: -50n, available: 0n });
      // The month-end bill is paid: back to zero.
      expect(await ledger.payment(account, 'CREDIT', 50n, ref('bill'))).toMatchObject({ balance: 0n });
      await expectConsistent(account, 'CREDIT');
    });

    it('keeps a balance that a raised floor leaves below it, refusing only further taking', async () => {
      const account = await newAccount();
      await ledger.setFloor(account, 'CREDIT', -50n);
      await ledger.consume(account, 'CREDIT', 40n, ref('used'));
      await ledger.setFloor(account, 'CREDIT', 0n);
      expect(await ledger.balance(account, 'CREDIT')).toEqual({ balance: -40n, floor: 0n, available: -40n });
      expect(await ledger.consume(account, 'CREDIT', 1n, ref('more'))).toMatchObject({ outcome: 'insufficient' });
      expect(await ledger.grant(account, 'CREDIT', 5n, ref('goodwill'))).toMatchObject({
        outcome: 'applied',
        balance: -35n,
      });
    });

    it('charges metered use past the floor (the calls were served), once per reference, as a consumption', async () => {
      const account = await newAccount();
      await ledger.grant(account, 'CREDIT', 3n, ref('trial'));
      const hour = ref('gateway hour');
      expect(await ledger.meter(account, 'CREDIT', 5n, hour)).toEqual({ outcome: 'applied', balance: -2n });
      expect(await ledger.meter(account, 'CREDIT', 5n, hour)).toEqual({ outcome: 'duplicate', balance: -2n });
      expect(await ledger.balance(account, 'CREDIT')).toEqual({ balance: -2n, floor: 0n, available: -2n });
      // Other taking is still held at the floor.
      expect(await ledger.consume(account, 'CREDIT', 1n, ref('deployment'))).toMatchObject({ outcome: 'insufficient' });
      const entries = await expectConsistent(account, 'CREDIT');
      expect(entries.map((e) => [e.kind, e.amount])).toEqual([
        ['grant', 3n],
        ['consume', -5n],
      ]);
      await expect(ledger.meter(account, 'CREDIT', 0n, ref('nothing'))).rejects.toThrow(RangeError);
    });

    it('refuses a floor above zero', async () => {
      const account = await newAccount();
      await expect(ledger.setFloor(account, 'CREDIT', 1n)).rejects.toThrow(RangeError);
      expect((await ledger.balance(account, 'CREDIT')).floor).toBe(0n);
    });
  });

  describe('references', () => {
    it('moves once per reference, whatever the kind or amount of the repeat', async () => {
      const account = await newAccount();
      const movement = ref('charge');
      await ledger.grant(account, 'CREDIT', 100n, ref('trial'));
      expect(await ledger.consume(account, 'CREDIT', 20n, movement)).toEqual({ outcome: 'applied', balance: 80n });
      expect(await ledger.consume(account, 'CREDIT', 20n, movement)).toEqual({ outcome: 'duplicate', balance: 80n });
      expect(await ledger.refund(account, 'CREDIT', 20n, movement)).toEqual({ outcome: 'duplicate', balance: 80n });
      expect(await ledger.grant(account, 'QNT', 5n, movement)).toMatchObject({ outcome: 'duplicate' });
      expect(await expectConsistent(account, 'CREDIT')).toHaveLength(2);
      expect(await ledger.entries(account, 'QNT')).toEqual([]);
    });

    it('answers duplicate, not insufficient, for a repeat the balance no longer covers', async () => {
      const account = await newAccount();
      const movement = ref('charge');
      await ledger.grant(account, 'CREDIT', 20n, ref('trial'));
      await ledger.consume(account, 'CREDIT', 20n, movement);
      expect(await ledger.consume(account, 'CREDIT', 20n, movement)).toEqual({ outcome: 'duplicate', balance: 0n });
    });

    it('moves once when the same movement is made concurrently', async () => {
      const account = await newAccount();
      const movement = ref('grant');
      const answers = await Promise.all([1, 2, 3, 4].map(() => ledger.grant(account, 'CREDIT', 9n, movement)));
      expect(answers.map((a) => a.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate', 'duplicate']);
      expect((await expectConsistent(account, 'CREDIT')).map((e) => e.amount)).toEqual([9n]);
    });
  });

  it('is append-only: refused and repeated movements leave every earlier entry as it was', async () => {
    const account = await newAccount();
    await ledger.grant(account, 'CREDIT', 10n, ref('trial'));
    const charge = ref('charge');
    await ledger.consume(account, 'CREDIT', 4n, charge);
    const before = await ledger.entries(account, 'CREDIT');
    await ledger.consume(account, 'CREDIT', 100n, ref('refused'));
    await ledger.consume(account, 'CREDIT', 4n, charge);
    await ledger.refund(account, 'CREDIT', 4n, ref('refund'));
    const after = await ledger.entries(account, 'CREDIT');
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.map((e) => e.amount)).toEqual([10n, -4n, 4n]);
    expect(after.map((e) => e.id)).toEqual([...after.map((e) => e.id)].sort((a, b) => a - b));
    await expectConsistent(account, 'CREDIT');
  });

  it('refuses amounts that are not positive, writing nothing', async () => {
    const account = await newAccount();
    for (const amount of [0n, -5n]) {
      await expect(ledger.grant(account, 'CREDIT', amount, ref('bad'))).rejects.toThrow(RangeError);
      await expect(ledger.consume(account, 'CREDIT', amount, ref('bad'))).rejects.toThrow(RangeError);
    }
    expect(await ledger.entries(account, 'CREDIT')).toEqual([]);
  });

  it("moves inside the caller's transaction: rolled back with it", async () => {
    const account = await newAccount();
    await ledger.grant(account, 'CREDIT', 10n, ref('trial'));
    const movement = ref('charge');
    await expect(
      db.transaction(async (tx) => {
        const inside = new LedgerRepository(tx as unknown as Database);
        expect(await inside.consume(account, 'CREDIT', 3n, movement)).toMatchObject({ outcome: 'applied' });
        expect((await inside.balance(account, 'CREDIT')).balance).toBe(7n);
        throw new Error('the caller fails after the movement');
      }),
    ).rejects.toThrow('the caller fails');
    expect((await ledger.balance(account, 'CREDIT')).balance).toBe(10n);
    // The reference is free again: the movement never happened.
    expect(await ledger.consume(account, 'CREDIT', 3n, movement)).toMatchObject({ outcome: 'applied', balance: 7n });
    await expectConsistent(account, 'CREDIT');
  });
});
