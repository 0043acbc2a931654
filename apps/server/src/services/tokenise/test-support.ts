import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createWalletClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { accountNetworks, networks, platformKeys, users, type Database } from '@connect/db';
import { TEST_WALLET_PRIVATE_KEY } from '@connect/devchain';
import type { KycStatus, TCreateTokenResponse, TProblem, TTierCard, TTokenDetails } from '@connect/shared';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { PLENTY, setAllowances } from '../../../test/plans.ts';

/** Test helpers of the tokenise suites (not loaded by the app). */

export const HOLDER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export async function newTokenUser(
  t: TestContext,
  options: { kycStatus?: KycStatus; credits?: number; quota?: number | null; networks?: string[] } = {},
) {
  const user = await signInAs(t);
  const me = await t.app.inject({ method: 'GET', url: `/api/connect/user/${user.sub}`, headers: user.headers });
  expect(me.statusCode).toBe(200);
  const accountId = me.json<{ accountId: string }>().accountId;
  if (options.kycStatus)
    await t.db.db.update(users).set({ kycStatus: options.kycStatus }).where(eq(users.id, user.sub));
  // The plan's tokens allowance (null: as many as the tests need).
  if (options.quota !== undefined) await setAllowances(t.db.db, accountId, { tokens: options.quota ?? PLENTY });
  if (options.networks?.length) await activate(t, accountId, options.networks);
  // The account got its trial credits when it was created (above), so a balance set below is exactly as asked.
  const list = await t.app.inject({ method: 'POST', url: '/api/tokenise/tokens', headers: user.headers, payload: {} });
  expect(list.statusCode).toBe(200);
  if (options.credits !== undefined) await setCredits(t.db.db, accountId, options.credits);
  return { ...user, accountId };
}
export type TokenUser = Awaited<ReturnType<typeof newTokenUser>>;

/** An account's CREDIT balance (a number: the test amounts are small). */
export async function creditsOf(db: Database, accountId: string): Promise<number> {
  return Number((await new LedgerRepository(db).balance(accountId, 'CREDIT')).balance);
}

/** An account's CREDIT entries, oldest first, amounts as numbers. */
export async function creditEntries(db: Database, accountId: string) {
  const rows = await new LedgerRepository(db).entries(accountId, 'CREDIT');
  return rows.map((row) => ({ ...row, amount: Number(row.amount), balanceAfter: Number(row.balanceAfter) }));
}

/**
 * Moves an account's CREDIT balance to exactly `credits` through the ledger (a grant or a
 * consumption of the difference), so its entries still add up to its balance.
 */
export async function setCredits(db: Database, accountId: string, credits: number): Promise<void> {
  const ledger = new LedgerRepository(db);
  const difference = BigInt(credits) - (await ledger.balance(accountId, 'CREDIT')).balance;
  const movement = { reason: 'Test balance', reference: `test:credits:${randomUUID()}` };
  const result =
    difference > 0n
      ? await ledger.grant(accountId, 'CREDIT', difference, movement)
      : difference < 0n
        ? await ledger.consume(accountId, 'CREDIT', -difference, movement)
        : null;
  if (result) expect(result.outcome).toBe('applied');
}

export async function networkId(t: TestContext, code: string): Promise<string> {
  const [row] = await t.db.db.select({ id: networks.id }).from(networks).where(eq(networks.code, code));
  return row!.id;
}

export async function activate(t: TestContext, accountId: string, networkIds: string[]) {
  await t.db.db
    .insert(accountNetworks)
    .values(networkIds.map((id) => ({ accountId, networkId: id })))
    .onConflictDoNothing();
}

export async function tiersOf(
  t: TestContext,
  user: TokenUser,
  networkIdValue: string,
  tokenType: 'QRC20' | 'QRC721',
  deploymentType: 'QUANT' | 'META_MASK' = 'QUANT',
): Promise<TTierCard[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/tokenise/v2/orchestration/tiers?networkId=${networkIdValue}&tokenType=${tokenType}&deploymentType=${deploymentType}`,
    headers: user.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ tiers: TTierCard[] }>().tiers;
}

export async function details(t: TestContext, user: TokenUser, id: string, query = ''): Promise<TTokenDetails> {
  const res = await t.app.inject({ method: 'GET', url: `/api/tokenise/token/${id}${query}`, headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TTokenDetails>();
}

/** Polls the token until it leaves PENDING. */
export async function settled(t: TestContext, user: TokenUser, id: string, timeoutMs = 30_000) {
  return vi.waitFor(
    async () => {
      const token = await details(t, user, id);
      if (token.status === 'PENDING') throw new Error(`token ${id} still PENDING after ${timeoutMs} ms`);
      return token;
    },
    { timeout: timeoutMs, interval: 200 },
  );
}

export const qrc20Form = (extra: Record<string, unknown> = {}) => ({
  name: 'Green Bond',
  unit: 'GRB',
  decimal: 18,
  initialSupply: 1000,
  supplyHolderAddress: HOLDER,
  ...extra,
});

/**
 * POST /v2/token of a QRC20 with a fresh externalId (QUANT unless `deploymentType` says otherwise);
 * `form` replaces fields of the default form. Returns the response, unchecked.
 */
export function postToken(
  t: TestContext,
  user: TokenUser,
  target: { networkId: string; tierId: string; deploymentType?: 'QUANT' | 'META_MASK' },
  form: Record<string, unknown> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/tokenise/v2/token',
    headers: user.headers,
    payload: {
      externalId: randomUUID(),
      tokenType: 'QRC20',
      deploymentType: 'QUANT',
      ...target,
      ...qrc20Form(form),
    },
  });
}

/** A platform deployment of a QRC20, followed until it is ACTIVE. */
export async function deployActive(
  t: TestContext,
  user: TokenUser,
  target: { networkId: string; tierId: string },
  form: Record<string, unknown> = {},
): Promise<TTokenDetails> {
  const res = await postToken(t, user, target, form);
  expect(res.statusCode, res.body).toBe(201);
  const token = await settled(t, user, res.json<TCreateTokenResponse>().token.id);
  expect(token.status).toBe('ACTIVE');
  return token;
}

/** The journeys' test wallet on a chain, as the user's browser wallet would send from it. */
export function testWallet(chain: { rpcUrl: string; chainId: number }) {
  return createWalletClient({
    account: privateKeyToAccount(TEST_WALLET_PRIVATE_KEY),
    chain: defineChain({
      id: chain.chainId,
      name: 'test',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    }),
    transport: http(chain.rpcUrl),
  });
}

/**
 * Sends a wallet deployment's transaction data from the journeys' test wallet, as the user's
 * browser wallet would, and tells the server its hash (PUT /token/deploy/track). Returns the hash.
 */
export async function deployFromTestWallet(
  t: TestContext,
  user: TokenUser,
  chain: { rpcUrl: string; chainId: number },
  token: { externalId: string; data: string },
): Promise<Hex> {
  const hash = await testWallet(chain).sendTransaction({ data: token.data as Hex, gas: 3_000_000n });
  const tracked = await t.app.inject({
    method: 'PUT',
    url: '/api/tokenise/token/deploy/track',
    headers: user.headers,
    payload: { externalId: token.externalId, txHash: hash },
  });
  expect(tracked.statusCode, tracked.body).toBe(200);
  return hash;
}

/**
 * What the tokenise suites share: an app whose Ethereum testnet is a local chain (and, with
 * `mainnet`, its Ethereum mainnet another one), the catalogue ids, an owner with networks and
 * credits, the owner's QRC20 and QRC721 tier cards, and the installation's deployer address.
 */
type TokenSuite = {
  t: TestContext;
  chain: TestChain;
  mainChain: TestChain | null;
  ids: { ethTest: string; polyTest: string; ethMain: string };
  qrc20: TTierCard[];
  qrc721: TTierCard[];
  owner: TokenUser;
  deployer: string;
};

async function startTokenSuite(options: { mainnet?: boolean } = {}): Promise<TokenSuite> {
  const [chain, mainChain] = await Promise.all([
    startTestChain(),
    options.mainnet ? startTestChain() : Promise.resolve(null),
  ]);
  const t = await createTestApp({
    NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
    NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
    ...(mainChain
      ? {
          NETWORK_RPC_ETHEREUM_MAINNET: mainChain.rpcUrl,
          NETWORK_CHAIN_ID_ETHEREUM_MAINNET: String(mainChain.chainId),
        }
      : {}),
  });
  const ids = {
    ethTest: await networkId(t, 'ethereum-testnet'),
    polyTest: await networkId(t, 'polygon-testnet'),
    ethMain: await networkId(t, 'ethereum-mainnet'),
  };
  const deployer = (await t.db.db.select({ address: platformKeys.address }).from(platformKeys))[0]!.address;
  const owner = await newTokenUser(t, { networks: [ids.ethTest], quota: null, credits: 10_000 });
  const qrc20 = await tiersOf(t, owner, ids.ethTest, 'QRC20');
  const qrc721 = await tiersOf(t, owner, ids.ethTest, 'QRC721');
  return { t, chain, mainChain, ids, qrc20, qrc721, owner, deployer };
}

async function stopTokenSuite(suite: TokenSuite | undefined): Promise<void> {
  await suite?.t.close();
  await Promise.all([suite?.chain.stop(), suite?.mainChain?.stop()]);
}

/**
 * The shared suite of a test file: started before its tests (beforeAll) and stopped after them.
 * Its fields read the started suite, so they are used inside tests (`s.t`, `s.ids.ethTest`);
 * its shorthands may be taken apart at once (`const { create, problem } = s`).
 */
export function useTokenSuite(options: { mainnet?: boolean } = {}) {
  let started: TokenSuite | undefined;
  beforeAll(async () => {
    started = await startTokenSuite(options);
  }, 120_000);
  afterAll(() => stopTokenSuite(started));
  const suite = (): TokenSuite => {
    if (!started) throw new Error('The token suite is used before it started (beforeAll).');
    return started;
  };
  const tierId = (cards: TTierCard[], type: string) => cards.find((c) => c.type === type)!.id;
  const problem = (res: { json: () => unknown }) => res.json() as TProblem;
  const shorthands = {
    tierId,
    create: (user: TokenUser, payload: Record<string, unknown>) =>
      suite().t.app.inject({ method: 'POST', url: '/api/tokenise/v2/token', headers: user.headers, payload }),
    /** A QRC20 of the tier on the Ethereum testnet, deployed by the platform, with a fresh externalId. */
    quant20: (tier: string, extra: Record<string, unknown> = {}) => ({
      externalId: randomUUID(),
      networkId: suite().ids.ethTest,
      tierId: tierId(suite().qrc20, tier),
      tokenType: 'QRC20',
      deploymentType: 'QUANT',
      ...qrc20Form(),
      ...extra,
    }),
    problem,
    /** The names of a refusal's invalidParams, sorted. */
    invalidNames: (res: { json: () => unknown }) => (problem(res).invalidParams ?? []).map((p) => p.name).sort(),
    /** The account's CREDIT ledger entries (amounts as numbers). */
    creditRows: (accountId: string) => creditEntries(suite().t.db.db, accountId),
    creditsOf: (accountId: string) => creditsOf(suite().t.db.db, accountId),
  };
  const fields = ['t', 'chain', 'ids', 'qrc20', 'qrc721', 'owner', 'deployer'] as const;
  return Object.defineProperties(
    shorthands,
    Object.fromEntries(fields.map((field) => [field, { get: () => suite()[field], enumerable: true }])),
  ) as typeof shorthands & Omit<Readonly<TokenSuite>, 'mainChain'>;
}
