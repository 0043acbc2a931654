import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountNetworks, outboxEvents, tokens, tokenTiers, usageRecords } from '@connect/db';
import { TOKEN_MESSAGES, type TCreateTokenResponse, type TProblem } from '@connect/shared';
import { TRIAL_CREDITS } from '../../lib/trial-credits.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { UsageRecordRepository } from '../../repositories/usage-records.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { TokenRepository, type TierRow, type TokenRow } from './repository.ts';
import { settleDeployed, settleFailed, settleLost } from './settlement.ts';
import { creditEntries, creditsOf, networkId, newTokenUser, setCredits, type TokenUser } from './test-support.ts';

/*
 * How a deployment ends, without a chain: the settlement functions on tokens written straight to
 * the database. Each charge and refund is a ledger movement keyed by the token, and each ending
 * announces token.deployed or token.failed once, with the status change.
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

/** The base tier's platform deployment price (10 credits). */
const price = () => tier.deploymentCredits!;

const result = () => ({
  txHash: `0x${'ab'.repeat(32)}` as Hex,
  contractAddress: `0x${'12'.repeat(20)}` as Hex,
  blockNumber: 7n,
  from: `0x${'34'.repeat(20)}` as Hex,
  confirmedAt: new Date(),
});

/** The user's base-tier QRC20 token on the Ethereum testnet, as both inserts below write it. */
const greenBond = (user: TokenUser) =>
  ({
    externalId: randomUUID(),
    accountId: user.accountId,
    createdBy: user.sub,
    networkId: ethTest,
    tierId: tier.id,
    tokenType: 'QRC20',
    tierType: 'base',
    name: 'Green Bond',
    unit: 'GRB',
  }) as const;

async function pendingToken(user: TokenUser): Promise<TokenRow> {
  const [row] = await t.db.db
    .insert(tokens)
    .values({ ...greenBond(user), deploymentType: 'QUANT', status: 'PENDING' })
    .returning();
  return row!;
}

/** A token inserted as POST /v2/token inserts it: its credits taken in the same statement. */
async function chargedToken(user: TokenUser, deploymentType: 'QUANT' | 'META_MASK' = 'QUANT'): Promise<TokenRow> {
  await t.db.db.insert(accountNetworks).values({ accountId: user.accountId, networkId: ethTest }).onConflictDoNothing();
  const row = await repo.insertTokenIfAllowed(
    {
      ...greenBond(user),
      decimals: 18,
      initialSupply: '1000',
      remintable: false,
      deploymentType,
      status: 'PENDING',
    },
    price(),
  );
  if (typeof row === 'string') throw new Error(`the insert was ${row}`);
  return row;
}

const tokenRow = async (id: string) => (await t.db.db.select().from(tokens).where(eq(tokens.id, id)))[0]!;

/** The payloads of one token's events of a type, oldest first. */
const announced = async (type: string, tokenId: string) =>
  (
    await t.db.db
      .select({ payload: outboxEvents.payload })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.type, type), sql`${outboxEvents.payload}->>'tokenId' = ${tokenId}`))
      .orderBy(outboxEvents.seq)
  ).map((row) => row.payload);

const facts = (user: TokenUser, token: TokenRow) => ({
  accountId: user.accountId,
  tokenId: token.id,
  networkId: ethTest,
  createdBy: user.sub,
  name: 'Green Bond',
  unit: 'GRB',
  tokenType: 'QRC20',
  tierType: 'base',
});

/** The usage records of a token's deployment (`deployment:<id>`, `deployment:<id>:refund`). */
async function deploymentRecords(tokenId: string) {
  const rows = await t.db.db
    .select()
    .from(usageRecords)
    .where(sql`${usageRecords.id} like ${`deployment:${tokenId}%`}`)
    .orderBy(usageRecords.id);
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    method: r.method,
    methodClass: r.methodClass,
    applicationId: r.applicationId,
    networkId: r.networkId,
    calls: r.calls,
    microCredits: r.microCredits,
    isSameHour: r.hour.getTime() === r.billedHour.getTime() && r.hour.getTime() % 3_600_000 === 0,
  }));
}

describe('tokenise settlement through the ledger', () => {
  it('charges a deployment once (consume, token:<id>) and announces token.deployed ACTIVE once', async () => {
    const user = await newTokenUser(t);
    const token = await pendingToken(user);
    expect(await settleDeployed(repo, token, tier, result())).toBe('ACTIVE');
    // Another attempt (another node) finds it settled: nothing more.
    expect(await settleDeployed(repo, token, tier, result())).toBeNull();

    expect(await tokenRow(token.id)).toMatchObject({ status: 'ACTIVE', creditsCharged: price() });
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS - price());
    const charges = (await creditEntries(t.db.db, user.accountId)).filter((e) => e.reference === `token:${token.id}`);
    expect(charges.map((e) => [e.kind, e.amount, e.reason])).toEqual([
      ['consume', -price(), 'Token deployment: Green Bond (GRB)'],
    ]);
    // Traced as one usage record of the account (no application), in the charge's hour.
    const record = {
      id: `deployment:${token.id}`,
      source: 'DEPLOYMENT',
      method: 'deployment',
      methodClass: 'deployment',
      applicationId: null,
      networkId: token.networkId,
      calls: 1,
      microCredits: price() * 1_000_000,
      isSameHour: true,
    };
    expect(await deploymentRecords(token.id)).toEqual([record]);
    // Replayed: stored again, nothing new.
    const stored = await t.db.db.select().from(usageRecords).where(eq(usageRecords.id, record.id));
    expect(await new UsageRecordRepository(t.db.db).add(stored.map(({ createdAt: _c, ...row }) => row))).toBe(0);
    expect(await deploymentRecords(token.id)).toEqual([record]);
    expect(await announced('token.deployed', token.id)).toEqual([
      {
        ...facts(user, token),
        status: 'ACTIVE',
        contractAddress: result().contractAddress,
        creditsCharged: price(),
      },
    ]);
  });

  it('leaves a deployment UNPAID when the credits no longer cover it, and says so in token.deployed', async () => {
    const user = await newTokenUser(t);
    const token = await pendingToken(user);
    await setCredits(t.db.db, user.accountId, price() - 1);
    expect(await settleDeployed(repo, token, tier, result())).toBe('UNPAID');
    expect(await tokenRow(token.id)).toMatchObject({ status: 'UNPAID', creditsCharged: 0 });
    expect(await creditsOf(t.db.db, user.accountId)).toBe(price() - 1);
    expect((await creditEntries(t.db.db, user.accountId)).some((e) => e.reference === `token:${token.id}`)).toBe(false);
    expect(await announced('token.deployed', token.id)).toMatchObject([{ status: 'UNPAID', creditsCharged: 0 }]);
    expect(await deploymentRecords(token.id)).toEqual([]);
  });

  it('pays an UNPAID deployment through PUT /token once the credits cover it', async () => {
    const user = await newTokenUser(t);
    const token = await pendingToken(user); // created before issue 27: nothing charged at creation
    await setCredits(t.db.db, user.accountId, 4);
    expect(await settleDeployed(repo, token, tier, result())).toBe('UNPAID');
    const pay = () =>
      t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token',
        headers: user.headers,
        payload: { id: token.id, status: 'ACTIVE' },
      });
    const refused = await pay();
    expect(refused.statusCode).toBe(409);
    expect(refused.json<TProblem>()).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      detail: TOKEN_MESSAGES.insufficientCredits(price(), 4),
    });
    await setCredits(t.db.db, user.accountId, 50);
    const paid = await pay();
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<TCreateTokenResponse>().token).toMatchObject({ status: 'ACTIVE', creditsCharged: price() });
    expect(await creditsOf(t.db.db, user.accountId)).toBe(50 - price());
  });

  it('does not charge again a deployment whose credits were taken at creation', async () => {
    const user = await newTokenUser(t, { quota: null });
    const token = await chargedToken(user);
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS - price());
    expect(await settleDeployed(repo, token, tier, result())).toBe('ACTIVE');
    expect(await tokenRow(token.id)).toMatchObject({ status: 'ACTIVE', creditsCharged: price() });
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS - price());
    expect(await announced('token.deployed', token.id)).toMatchObject([{ status: 'ACTIVE', creditsCharged: price() }]);
  });

  it('gives the credits taken at creation back once when the deployment fails', async () => {
    const user = await newTokenUser(t, { quota: null });
    const token = await chargedToken(user);
    await settleFailed(repo, token, 'reverted');
    await settleFailed(repo, token, 'again');
    await settleLost(repo, await tokenRow(token.id), 'Nonce taken.');
    expect(await tokenRow(token.id)).toMatchObject({ status: 'FAILED', creditsCharged: 0 });
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS);
    const refunds = (await creditEntries(t.db.db, user.accountId)).filter((e) => e.kind === 'refund');
    expect(refunds.map((e) => [e.amount, e.reference])).toEqual([[price(), `refund:token:${token.id}`]]);
    expect((await deploymentRecords(token.id)).map((r) => [r.id, r.calls])).toEqual([
      [`deployment:${token.id}`, 1],
      [`deployment:${token.id}:refund`, -1],
    ]);
  });

  it('gives the credits back once when an unsent deployment is deleted', async () => {
    const user = await newTokenUser(t, { quota: null });
    const token = await chargedToken(user);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/tokenise/token/${token.externalId}`,
      headers: user.headers,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS);
    const refunds = (await creditEntries(t.db.db, user.accountId)).filter((e) => e.kind === 'refund');
    expect(refunds.map((e) => [e.amount, e.reference])).toEqual([[price(), `refund:token:${token.id}`]]);
  });

  it('keeps the credits of a wallet deployment deleted unsent: its bytecode was handed out when it was created', async () => {
    // Deleted before any transaction was reported: the customer may have deployed the bytecode
    // themselves (issue 27 review).
    const user = await newTokenUser(t, { quota: null });
    const deleted = await chargedToken(user, 'META_MASK');
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/tokenise/token/${deleted.externalId}`,
      headers: user.headers,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS - price());
    expect((await creditEntries(t.db.db, user.accountId)).filter((e) => e.kind === 'refund')).toEqual([]);
    // A platform deployment deleted unsent still gives its credits back (the test above).
  });

  it('charges a pay-as-you-go account below zero, down to its credit limit', async () => {
    const user = await newTokenUser(t);
    await setCredits(t.db.db, user.accountId, 0);
    await new LedgerRepository(t.db.db).setFloor(user.accountId, 'CREDIT', -BigInt(price()));
    const first = await pendingToken(user);
    expect(await settleDeployed(repo, first, tier, result())).toBe('ACTIVE');
    expect(await creditsOf(t.db.db, user.accountId)).toBe(-price());
    const second = await pendingToken(user);
    expect(await settleDeployed(repo, second, tier, result())).toBe('UNPAID');
    expect(await creditsOf(t.db.db, user.accountId)).toBe(-price());
  });

  it('announces token.failed once when a deployment fails, charging nothing', async () => {
    const user = await newTokenUser(t);
    const token = await pendingToken(user);
    await settleFailed(repo, token, 'reverted:\u0000 out of gas');
    await settleFailed(repo, token, 'again');
    expect(await tokenRow(token.id)).toMatchObject({ status: 'FAILED', failureReason: 'reverted: out of gas' });
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS);
    expect(await announced('token.failed', token.id)).toEqual([
      { ...facts(user, token), reason: 'reverted: out of gas' },
    ]);
  });

  it('refunds a lost deployment once (refund, refund:token:<id>) and announces token.failed once', async () => {
    const user = await newTokenUser(t);
    const pending = await pendingToken(user);
    await settleDeployed(repo, pending, tier, result());
    const active = await tokenRow(pending.id);
    expect(await settleLost(repo, active, 'Nonce taken.')).toBe(true);
    expect(await settleLost(repo, active, 'Nonce taken.')).toBe(false);

    expect(await tokenRow(active.id)).toMatchObject({ status: 'FAILED', creditsCharged: 0 });
    expect(await creditsOf(t.db.db, user.accountId)).toBe(TRIAL_CREDITS);
    const refunds = (await creditEntries(t.db.db, user.accountId)).filter((e) => e.kind === 'refund');
    expect(refunds.map((e) => [e.amount, e.reference])).toEqual([[price(), `refund:token:${active.id}`]]);
    // The charge's usage record stays; the refund is a record of its own, negative: they sum to nothing (calls too).
    expect((await deploymentRecords(active.id)).map((r) => [r.id, r.calls, r.microCredits])).toEqual([
      [`deployment:${active.id}`, 1, price() * 1_000_000],
      [`deployment:${active.id}:refund`, -1, -price() * 1_000_000],
    ]);
    const failed = await announced('token.failed', active.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ ...facts(user, active) });
    expect((failed[0] as { reason: string }).reason).toMatch(/^The deployment was lost by the network\. Nonce taken\./);
  });

  it('announces with the transaction of the status change: rolled back with it', async () => {
    const user = await newTokenUser(t);
    const token = await pendingToken(user);
    const failing = new TokenRepository(t.app.deps.db, t.app.deps.events);
    // The settlement fails right after its announcement: the status change and the event go together.
    failing.transaction = (work) =>
      t.app.deps.db.transaction((tx) => {
        const inner = new TokenRepository(tx as never, t.app.deps.events);
        inner.announce = async (type, payload) => {
          await TokenRepository.prototype.announce.call(inner, type, payload);
          throw new Error('the node stopped');
        };
        return work(inner);
      });
    await expect(settleFailed(failing, token, 'reverted')).rejects.toThrow('the node stopped');
    expect((await tokenRow(token.id)).status).toBe('PENDING');
    expect(await announced('token.failed', token.id)).toEqual([]);
  });
});
