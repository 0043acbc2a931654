import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens, tokenTiers } from '@connect/db';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { literal } from './repository-insert.ts';
import { TokenRepository, type TierRow } from './repository.ts';
import { creditEntries, creditsOf, networkId, newTokenUser, type TokenUser } from './test-support.ts';

/*
 * The token's insert statement on the embedded database: prepared once and run by EXECUTE with its
 * values as literals. What it writes and answers is what Drizzle's statement writes and answers.
 */

let t: TestContext;
let repo: TokenRepository;
let ethTest: string;
let tier: TierRow;
beforeAll(async () => {
  t = await createTestApp();
  repo = new TokenRepository(t.app.deps.db, t.app.deps.events);
  ethTest = await networkId(t, 'ethereum-testnet');
  const tiers = await t.db.db
    .select()
    .from(tokenTiers)
    .where(and(eq(tokenTiers.networkId, ethTest), eq(tokenTiers.tokenType, 'QRC20'), eq(tokenTiers.tierType, 'base')));
  tier = tiers[0]!;
});
afterAll(() => t?.close());

const values = (user: TokenUser, name: string, unit: string) =>
  ({
    externalId: randomUUID(),
    accountId: user.accountId,
    createdBy: user.sub,
    networkId: ethTest,
    tierId: tier.id,
    tokenType: 'QRC20',
    tierType: 'base',
    name,
    unit,
    decimals: 18,
    initialSupply: '1000',
    remintable: false,
    deploymentType: 'QUANT',
    status: 'PENDING',
  }) as const;

describe('literal', () => {
  it('quotes as node-postgres does', () => {
    expect(literal(null)).toBe('null');
    expect(literal(undefined)).toBe('null');
    expect(literal(7)).toBe('7');
    expect(literal(-2)).toBe('-2');
    expect(literal(true)).toBe('true');
    expect(literal("Bob's")).toBe("'Bob''s'");
    expect(literal('a\\b')).toBe("E'a\\\\b'");
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal({})).toThrow();
  });
});

describe('insertTokenIfAllowed on the embedded database', () => {
  it('stores quotes, backslashes and SQL in a name as they are, and answers the row as stored', async () => {
    const user = await newTokenUser(t, { credits: 100, quota: null, networks: [ethTest] });
    const name = "Bob's \\ Bond'); drop table tokens; --";
    const row = await repo.insertTokenIfAllowed(values(user, name, "B'\\B"), 10, {
      networkId: ethTest,
      from: `0x${'34'.repeat(20)}`,
      nonce: 3n,
      hash: `0x${'ab'.repeat(32)}`,
      raw: `0x${'cd'.repeat(100)}`,
      reference: 'unused',
    });
    if (typeof row === 'string') throw new Error(`the insert was ${row}`);
    const [stored] = await t.db.db.select().from(tokens).where(eq(tokens.id, row.id));
    expect(row).toEqual(stored);
    expect(row).toMatchObject({ name, unit: "B'\\B", creditsCharged: 10, txHash: `0x${'ab'.repeat(32)}` });
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(await creditsOf(t.db.db, user.accountId)).toBe(90);
    expect((await creditEntries(t.db.db, user.accountId)).at(-1)).toMatchObject({
      amount: -10,
      reason: `Token deployment: ${name} (B'\\B)`,
      reference: `token:${row.id}`,
    });
  });

  it('refuses without credits, and inserts in a transaction too', async () => {
    const poor = await newTokenUser(t, { credits: 5, quota: null, networks: [ethTest] });
    expect(await repo.insertTokenIfAllowed(values(poor, 'Poor', 'POOR'), 10)).toBe('refused');
    expect(await creditsOf(t.db.db, poor.accountId)).toBe(5);

    const user = await newTokenUser(t, { credits: 100, quota: null, networks: [ethTest] });
    const row = await repo.transaction((tx) => tx.insertTokenIfAllowed(values(user, 'In a tx', 'TX'), 10));
    if (typeof row === 'string') throw new Error(`the insert was ${row}`);
    expect(row).toEqual((await t.db.db.select().from(tokens).where(eq(tokens.id, row.id)))[0]);
    expect(await creditsOf(t.db.db, user.accountId)).toBe(90);
  });
});
