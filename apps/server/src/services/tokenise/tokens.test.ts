import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { createWalletClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFeatures, accounts, creditTransactions, platformKeys, tokens, tokenTiers } from '@connect/db';
import { deployData, getTier } from '@connect/contracts';
import { DEV_ACCOUNTS, TEST_WALLET_ADDRESS, TEST_WALLET_PRIVATE_KEY } from '@connect/devchain';
import {
  TOKEN_MESSAGES,
  type TCreateTokenResponse,
  type TLocationsResponse,
  type TProblem,
  type TTierCard,
  type TTokensPage,
  type TVerifyTokenResponse,
} from '@connect/shared';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { TRIAL_CREDITS } from '../../lib/trial-credits.ts';
import {
  HOLDER,
  details,
  networkId,
  newTokenUser,
  qrc20Form,
  settled,
  tiersOf,
  type TokenUser,
} from './test-support.ts';

/** The tokenise service against real local chains (spec §3–§5, §7). */
describe('tokenise', () => {
  let t: TestContext;
  let chain: TestChain;
  let mainChain: TestChain;
  const ids = { ethTest: '', polyTest: '', ethMain: '' };
  let qrc20: TTierCard[];
  let qrc721: TTierCard[];
  let owner: TokenUser;
  /** The installation's deployer on the local chains (generated on first start). */
  let deployer: string;

  beforeAll(async () => {
    [chain, mainChain] = await Promise.all([startTestChain(), startTestChain()]);
    t = await createTestApp({
      NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
      NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
      NETWORK_RPC_ETHEREUM_MAINNET: mainChain.rpcUrl,
      NETWORK_CHAIN_ID_ETHEREUM_MAINNET: String(mainChain.chainId),
    });
    ids.ethTest = await networkId(t, 'ethereum-testnet');
    ids.polyTest = await networkId(t, 'polygon-testnet');
    ids.ethMain = await networkId(t, 'ethereum-mainnet');
    deployer = (await t.db.db.select({ address: platformKeys.address }).from(platformKeys))[0]!.address;
    owner = await newTokenUser(t, { networks: [ids.ethTest], quota: null, credits: 10_000 });
    qrc20 = await tiersOf(t, owner, ids.ethTest, 'QRC20');
    qrc721 = await tiersOf(t, owner, ids.ethTest, 'QRC721');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([chain?.stop(), mainChain?.stop()]);
  });

  const tierId = (cards: TTierCard[], type: string) => cards.find((c) => c.type === type)!.id;
  const create = (user: TokenUser, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/tokenise/v2/token', headers: user.headers, payload });
  const quant20 = (tier: string, extra: Record<string, unknown> = {}) => ({
    externalId: randomUUID(),
    networkId: ids.ethTest,
    tierId: tierId(qrc20, tier),
    tokenType: 'QRC20',
    deploymentType: 'QUANT',
    ...qrc20Form(),
    ...extra,
  });
  const problem = (res: { json: () => unknown }) => res.json() as TProblem;
  const creditRows = (accountId: string) =>
    t.db.db.select().from(creditTransactions).where(eq(creditTransactions.accountId, accountId));
  const creditsOf = async (accountId: string) =>
    (await t.db.db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.credits;

  describe('guards', () => {
    it('sends a user without networks to My networks', async () => {
      const user = await newTokenUser(t);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/tokenise/v2/orchestration/locations',
        headers: user.headers,
      });
      expect(res.statusCode).toBe(409);
      expect(problem(res).detail).toBe('Please configure your networks before you can deploy tokens');
      const created = await create(user, quant20('base'));
      expect(created.statusCode).toBe(409);
      expect(problem(created).detail).toBe(TOKEN_MESSAGES.configureNetworks);
      expect([problem(res).code, problem(created).code]).toEqual([
        'NETWORKS_NOT_CONFIGURED',
        'NETWORKS_NOT_CONFIGURED',
      ]);
    });

    it('refuses with the quota message when tokens:create is used up', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest], quota: 1 });
      await t.db.db
        .update(accountFeatures)
        .set({ used: 1 })
        .where(and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'tokens:create')));
      for (const res of [
        await t.app.inject({ method: 'GET', url: '/api/tokenise/v2/orchestration/locations', headers: user.headers }),
        await create(user, quant20('base')),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(problem(res).detail).toBe(TOKEN_MESSAGES.quotaReached);
        expect(problem(res).code).toBe('TOKEN_QUOTA_REACHED');
      }
    });

    it('lists testnets with an RPC URL, and mainnets only with a verified identity', async () => {
      const unverified = await newTokenUser(t, { networks: [ids.ethTest, ids.polyTest, ids.ethMain] });
      const list = async (user: TokenUser) => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/tokenise/v2/orchestration/locations',
          headers: user.headers,
        });
        expect(res.statusCode).toBe(200);
        return res.json<TLocationsResponse>().locations.map((l) => l.code);
      };
      // polygon-testnet has no RPC URL in this configuration.
      expect(await list(unverified)).toEqual(['ethereum-testnet']);
      const verified = await newTokenUser(t, {
        networks: [ids.ethTest, ids.ethMain],
        kycStatus: 'VERIFIED',
      });
      expect(await list(verified)).toEqual(['ethereum-testnet', 'ethereum-mainnet']);

      // An unverified user asking for mainnet tiers or creating there is told to verify.
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/tokenise/v2/orchestration/tiers?networkId=${ids.ethMain}&tokenType=QRC20`,
        headers: unverified.headers,
      });
      expect(res.statusCode).toBe(409);
      expect(problem(res).title).toBe('Identity verification required');
      const onlyMainnet = await newTokenUser(t, { networks: [ids.ethMain] });
      const locations = await t.app.inject({
        method: 'GET',
        url: '/api/tokenise/v2/orchestration/locations',
        headers: onlyMainnet.headers,
      });
      expect(locations.statusCode).toBe(409);
      expect(problem(locations).title).toBe('Identity verification required');
    });

    it('refuses a deployment the credits do not cover', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest], credits: 3 });
      const res = await create(user, quant20('base'));
      expect(res.statusCode).toBe(409);
      expect(problem(res).detail).toBe(TOKEN_MESSAGES.insufficientCredits(10, 3));
      expect(problem(res).code).toBe('INSUFFICIENT_CREDITS');
    });
  });

  describe('tiers', () => {
    it('answers tier cards sorted by name with the spec §4 short lists and credit amounts', async () => {
      expect(qrc20.map((c) => c.name)).toEqual(['Base', 'Flex', 'Vari']);
      const [base, flex, vari] = qrc20 as [TTierCard, TTierCard, TTierCard];
      expect(base.functions).toEqual(getTier('QRC20', 'base').functions);
      expect(base.refererTier).toBe('');
      expect(base.shortListFunctions).toEqual(base.functions);
      expect(flex.refererTier).toBe('Base');
      expect(flex.shortListFunctions).toEqual(flex.functions.filter((f) => !base.functions.includes(f)));
      expect(flex.shortListFunctions).toContain('mint');
      expect(vari.shortListFunctions).toContain('pause');
      expect(base).toMatchObject({
        creditAmount: 10,
        tokenType: 'QRC20',
        technology: 'Ethereum',
        networkType: 'testnet',
        selected: false,
        attributes: ['name', 'unit', 'decimal', 'initialSupply', 'supplyHolderAddress'],
      });
      expect(qrc721[0]!.attributes).toContain('tokenUri');
      const wallet = await tiersOf(t, owner, ids.ethTest, 'QRC20', 'META_MASK');
      expect(wallet.map((c) => c.creditAmount)).toEqual([5, 10, 15]);
    });

    it('skips tiers missing the credit amount the deployment method needs (spec §5)', async () => {
      const varId = tierId(qrc20, 'vari');
      await t.db.db.update(tokenTiers).set({ bytecodeCredits: null }).where(eq(tokenTiers.id, varId));
      try {
        expect((await tiersOf(t, owner, ids.ethTest, 'QRC20', 'META_MASK')).map((c) => c.type)).toEqual([
          'base',
          'flex',
        ]);
        expect((await tiersOf(t, owner, ids.ethTest, 'QRC20', 'QUANT')).map((c) => c.type)).toEqual([
          'base',
          'flex',
          'vari',
        ]);
        const res = await create(owner, { ...quant20('vari'), deploymentType: 'META_MASK' });
        expect(res.statusCode).toBe(400);
        expect(problem(res).invalidParams).toEqual([{ name: 'tierId', reason: TOKEN_MESSAGES.tierUnavailable }]);
        expect(problem(res).code).toBe('TOKEN_TIER_UNAVAILABLE');
      } finally {
        await t.db.db.update(tokenTiers).set({ bytecodeCredits: 15 }).where(eq(tokenTiers.id, varId));
      }
    });

    it('validates the query', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/tokenise/v2/orchestration/tiers?networkId=nope&tokenType=ERC1155`,
        headers: owner.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(
        problem(res)
          .invalidParams!.map((p) => p.name)
          .sort(),
      ).toEqual(['networkId', 'tokenType']);
    });
  });

  describe('verify', () => {
    const verify = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/tokenise/token/verify', headers: owner.headers, payload });

    it('answers every field error by the tier’s rules without creating anything', async () => {
      const res = await verify({
        networkId: ids.ethTest,
        tierId: tierId(qrc20, 'flex'),
        tokenType: 'qrc20',
        name: 'Sterling GBP',
        unit: 'usdx',
        decimal: 19,
        initialSupply: 1_000_000_001,
        supplyHolderAddress: '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        minter: '0x123',
        maxSupply: -5,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<TVerifyTokenResponse>();
      expect(body.valid).toBe(false);
      expect(Object.fromEntries(body.invalidParams.map((p) => [p.name, p.reason]))).toEqual({
        name: TOKEN_MESSAGES.nameCurrency('GBP'),
        unit: TOKEN_MESSAGES.unitCurrency('USD'),
        decimal: TOKEN_MESSAGES.decimals,
        initialSupply: TOKEN_MESSAGES.initialSupply,
        supplyHolderAddress: TOKEN_MESSAGES.addressChecksum,
        minter: TOKEN_MESSAGES.addressFormat,
        maxSupply: TOKEN_MESSAGES.nonNegative,
      });
      expect(body.creditAmount).toBe(20);
    });

    it('checks the base URI of a QRC721 tier and accepts a valid form', async () => {
      const base = {
        networkId: ids.ethTest,
        tierId: tierId(qrc721, 'base'),
        tokenType: 'QRC721',
        name: 'Art Works',
        unit: 'ART',
        initialSupply: '12',
        supplyHolderAddress: HOLDER.toLowerCase(),
      };
      const bad = (await verify({ ...base, tokenUri: 'https://example.com/meta' })).json<TVerifyTokenResponse>();
      expect(bad.invalidParams).toEqual([{ name: 'tokenUri', reason: TOKEN_MESSAGES.tokenUriFormat }]);
      const good = (await verify({ ...base, tokenUri: 'https://example.com/meta/' })).json<TVerifyTokenResponse>();
      expect(good).toMatchObject({ valid: true, invalidParams: [], creditAmount: 15 });
    });

    it('refuses a tier of another token type or network', async () => {
      const res = await verify({ networkId: ids.ethTest, tierId: tierId(qrc721, 'base'), tokenType: 'QRC20' });
      expect(res.statusCode).toBe(400);
      expect(problem(res).invalidParams).toEqual([{ name: 'tierId', reason: TOKEN_MESSAGES.tierTokenType }]);
      expect(problem(res).code).toBe('TOKEN_TIER_TYPE');
      const bad = await verify({ networkId: ids.polyTest, tierId: tierId(qrc20, 'base'), tokenType: 'QRC20' });
      expect(bad.statusCode).toBe(400);
      expect(problem(bad).invalidParams).toEqual([{ name: 'networkId', reason: TOKEN_MESSAGES.locationUnavailable }]);
      expect(problem(bad).code).toBe('TOKEN_LOCATION_UNAVAILABLE');
    });

    it('answers invalidParams for a malformed body', async () => {
      const res = await verify({ networkId: 'x', tokenType: 'ERC20', deploymentType: 'FAX' });
      expect(res.statusCode).toBe(400);
      expect(
        problem(res)
          .invalidParams!.map((p) => p.name)
          .sort(),
      ).toEqual(['deploymentType', 'networkId', 'tierId', 'tokenType']);
    });
  });

  describe('platform deployment (QUANT)', () => {
    it('deploys to ACTIVE, with code on chain, live supply and credits charged once', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest] });
      expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS);
      const payload = quant20('flex', { minter: HOLDER, maxSupply: 5000, remintable: true });
      const res = await create(user, payload);
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json<TCreateTokenResponse>();
      expect(created.token).toMatchObject({
        status: 'PENDING',
        tokenName: 'Green Bond',
        tierName: 'Flex',
        isLocal: true,
      });
      expect(created.deployment).toBeNull();

      // The same externalId answers the same token and never deploys twice.
      const again = await create(user, payload);
      expect(again.statusCode).toBe(200);
      expect(again.json<TCreateTokenResponse>().token.id).toBe(created.token.id);

      const token = await settled(t, user, created.token.id);
      expect(token.status).toBe('ACTIVE');
      expect(token.smartContractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(token.transactionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(token.deployerAddress?.toLowerCase()).toBe(deployer.toLowerCase());
      expect(DEV_ACCOUNTS.map((a) => a.address)).not.toContain(token.deployerAddress); // no public key
      expect(token.creditsCharged).toBe(20);
      const code = await rpcCall<string>(chain.rpcUrl, 'eth_getCode', [token.smartContractAddress, 'latest']);
      expect(code.length).toBeGreaterThan(100);

      const live = await details(t, user, created.token.id, `?holder=${HOLDER}`);
      expect(live.onChain).toMatchObject({
        totalSupply: (1000n * 10n ** 18n).toString(),
        holder: HOLDER,
        holderBalance: (1000n * 10n ** 18n).toString(),
        error: null,
      });
      expect(live.functions).toContain('mint');
      expect(live.explorer).toEqual({ contractUrl: null, transactionUrl: null });
      // By externalId too.
      expect((await details(t, user, payload.externalId)).id).toBe(created.token.id);

      expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS - 20);
      const charges = (await creditRows(user.accountId)).filter((r) => r.reference === `token:${token.id}`);
      expect(charges).toHaveLength(1);
      expect(charges[0]!.amount).toBe(-20);

      // The job running again (a retry, another node) charges nothing more.
      await t.app.deps.jobs.send('token-deploy', { tokenId: token.id });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS - 20);
      expect((await creditRows(user.accountId)).filter((r) => r.amount < 0)).toHaveLength(1);
      expect((await t.db.db.select().from(tokens).where(eq(tokens.externalId, payload.externalId))).length).toBe(1);
    });

    it('fails a deployment the contract refuses, and charges nothing', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest] });
      // A zero supply holder: the contract's constructor reverts (ERC20InvalidReceiver).
      const res = await create(
        user,
        quant20('base', { supplyHolderAddress: '0x0000000000000000000000000000000000000000' }),
      );
      expect(res.statusCode).toBe(201);
      const token = await settled(t, user, res.json<TCreateTokenResponse>().token.id);
      expect(token.status).toBe('FAILED');
      expect(token.failureReason).toMatch(/cannot be deployed/);
      expect(token.creditsCharged).toBe(0);
      expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS);
      const quota = await t.db.db
        .select()
        .from(accountFeatures)
        .where(and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'tokens:create')));
      expect(quota[0]!.used).toBe(0);
    });

    it('deploys 20 tokens at once with no nonce collisions', async () => {
      const before = BigInt(await rpcCall<string>(chain.rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => create(owner, quant20('base', { name: `Batch ${i}`, unit: `B${i}` }))),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
      const settledTokens = await Promise.all(
        responses.map((r) => settled(t, owner, r.json<TCreateTokenResponse>().token.id, 60_000)),
      );
      expect(settledTokens.map((tk) => tk.status)).toEqual(Array(20).fill('ACTIVE'));
      expect(new Set(settledTokens.map((tk) => tk.smartContractAddress)).size).toBe(20);
      const after = BigInt(await rpcCall<string>(chain.rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
      expect(after - before).toBe(20n);
    });

    it('signs a repeat deployment ahead with the last gas and fees, and signs again when they no longer cover it', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest], quota: null, credits: 1_000 });
      type ChainTx = { gas: Hex; maxFeePerGas: Hex; input: Hex };
      const deploy = async (extra: Record<string, unknown> = {}) => {
        const res = await create(user, quant20('base', extra));
        expect(res.statusCode, res.body).toBe(201);
        const token = await settled(t, user, res.json<TCreateTokenResponse>().token.id);
        const tx = token.transactionId
          ? await rpcCall<ChainTx>(chain.rpcUrl, 'eth_getTransactionByHash', [token.transactionId])
          : null;
        return { token, tx };
      };
      const estimate = async (input: Hex) =>
        BigInt(await rpcCall<Hex>(chain.rpcUrl, 'eth_estimateGas', [{ from: deployer, data: input }]));

      // The first deployment leaves this contract's gas and the fees as hints (if earlier ones did not).
      const first = await deploy();
      expect(first.token.status).toBe('ACTIVE');
      // The next one is signed with the hints before its own estimate is back: 1.5 × the last estimate.
      const second = await deploy();
      expect(second.token.status).toBe('ACTIVE');
      const gas = await estimate(second.tx!.input);
      expect(BigInt(second.tx!.gas)).toBe((gas * 3n) / 2n);

      // Fees rose above the hint: the guess no longer covers them, so it is signed again with the
      // fresh fees (its gas limit was confirmed by running the deployment with it).
      await rpcCall(chain.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [`0x${(100n * 10n ** 9n).toString(16)}`]);
      await rpcCall(chain.rpcUrl, 'evm_mine', []);
      const third = await deploy();
      expect(third.token.status).toBe('ACTIVE');
      expect(BigInt(third.tx!.gas)).toBe((gas * 3n) / 2n);
      expect(BigInt(third.tx!.maxFeePerGas)).toBeGreaterThanOrEqual(150n * 10n ** 9n);

      // A guessed deployment that reverts is never sent: its run fails, and so does its estimate.
      const nonce = () => rpcCall<Hex>(chain.rpcUrl, 'eth_getTransactionCount', [deployer, 'pending']);
      const before = await nonce();
      const refused = await deploy({ supplyHolderAddress: '0x0000000000000000000000000000000000000000' });
      expect(refused.token).toMatchObject({ status: 'FAILED', transactionId: null });
      expect(refused.token.failureReason).toMatch(/cannot be deployed/);
      expect(await nonce()).toBe(before);
    });

    it('signs a guess again after an estimate when one run at the guessed gas limit runs out of gas', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest], quota: null, credits: 1_000 });
      type ChainTx = { gas: Hex; input: Hex };
      const deploy = async (tokenUri: string) => {
        const res = await create(user, {
          externalId: randomUUID(),
          networkId: ids.ethTest,
          tierId: tierId(qrc721, 'base'),
          tokenType: 'QRC721',
          deploymentType: 'QUANT',
          name: 'Long Uris',
          unit: 'URI',
          initialSupply: 7,
          supplyHolderAddress: HOLDER,
          tokenUri,
        });
        expect(res.statusCode, res.body).toBe(201);
        const token = await settled(t, user, res.json<TCreateTokenResponse>().token.id);
        expect(token.status).toBe('ACTIVE');
        return rpcCall<ChainTx>(chain.rpcUrl, 'eth_getTransactionByHash', [token.transactionId]);
      };
      const estimate = async (input: Hex) =>
        BigInt(await rpcCall<Hex>(chain.rpcUrl, 'eth_estimateGas', [{ from: deployer, data: input }]));

      // A short base URI leaves this contract's hint; a 500-character one stores 15 more words.
      const short = await deploy('https://example.com/a/');
      const guess = ((await estimate(short.input)) * 3n) / 2n;
      const long = await deploy(`https://example.com/${'x'.repeat(479)}/`);
      const needed = await estimate(long.input);
      // The run at the guess's limit keeps a fifth in hand: it must fail for this test to mean anything.
      expect(needed).toBeGreaterThan((guess * 5n) / 6n);
      expect(BigInt(long.gas)).toBe((needed * 12n) / 10n);
    });

    it('deploys a QRC721 base token', async () => {
      const res = await create(owner, {
        externalId: randomUUID(),
        networkId: ids.ethTest,
        tierId: tierId(qrc721, 'base'),
        tokenType: 'QRC721',
        deploymentType: 'QUANT',
        name: 'Art Works',
        unit: 'ART',
        initialSupply: 7,
        supplyHolderAddress: HOLDER,
        tokenUri: 'https://example.com/art/',
      });
      expect(res.statusCode, res.body).toBe(201);
      const token = await settled(t, owner, res.json<TCreateTokenResponse>().token.id);
      expect(token.status).toBe('ACTIVE');
      const live = await details(t, owner, token.id, `?holder=${HOLDER}`);
      expect(live.onChain).toMatchObject({ totalSupply: '7', holderBalance: '7' });
    });
  });

  describe('wallet deployment (META_MASK)', () => {
    const wallet = () =>
      createWalletClient({
        account: privateKeyToAccount(TEST_WALLET_PRIVATE_KEY),
        chain: defineChain({
          id: chain.chainId,
          name: 'test',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: [chain.rpcUrl] } },
        }),
        transport: http(chain.rpcUrl),
      });
    const track = (user: TokenUser, externalId: string, txHash: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token/deploy/track',
        headers: user.headers,
        payload: { externalId, txHash },
      });

    it('answers the exact deployment data; the wallet’s transaction makes it ACTIVE', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest] });
      const payload = {
        ...quant20('flex', { minter: TEST_WALLET_ADDRESS, maxSupply: 0 }),
        deploymentType: 'META_MASK',
        supplyHolderAddress: TEST_WALLET_ADDRESS,
      };
      const res = await create(user, payload);
      expect(res.statusCode, res.body).toBe(201);
      const { token, deployment } = res.json<TCreateTokenResponse>();
      expect(deployment).not.toBeNull();
      expect(deployment!.chainId).toBe(chain.chainId);
      expect(deployment!.data).toBe(
        deployData('QRC20', 'flex', {
          name: 'Green Bond',
          symbol: 'GRB',
          decimals: 18,
          initialSupply: 1000n * 10n ** 18n,
          supplyHolder: TEST_WALLET_ADDRESS,
          minter: TEST_WALLET_ADDRESS,
          maxSupply: 0n,
          remintable: false,
        }),
      );
      // Nothing is deployed until the wallet reports its transaction.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await details(t, user, token.id)).status).toBe('PENDING');

      const hash = await wallet().sendTransaction({ data: deployment!.data as Hex });
      const tracked = await track(user, payload.externalId, hash);
      expect(tracked.statusCode, tracked.body).toBe(200);
      // Reporting the same hash again is harmless.
      expect((await track(user, payload.externalId, hash)).statusCode).toBe(200);

      const done = await settled(t, user, token.id);
      expect(done.status).toBe('ACTIVE');
      expect(done.deployerAddress?.toLowerCase()).toBe(TEST_WALLET_ADDRESS.toLowerCase());
      expect(done.creditsCharged).toBe(10); // the flex bytecode amount
      expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS - 10);
      const live = await details(t, user, token.id, `?holder=${TEST_WALLET_ADDRESS}`);
      expect(live.onChain?.totalSupply).toBe((1000n * 10n ** 18n).toString());
      expect(live.deployment).toBeNull();

      // A transaction hash tracks one token only.
      const other = await create(user, { ...payload, externalId: randomUUID() });
      const reused = await track(user, other.json<TCreateTokenResponse>().token.externalId, hash);
      expect(reused.statusCode).toBe(409);
      expect(problem(reused).detail).toBe(TOKEN_MESSAGES.txHashTaken);
      expect(problem(reused)).toMatchObject({
        code: 'TX_HASH_TAKEN',
        invalidParams: [{ name: 'txHash', reason: TOKEN_MESSAGES.txHashTaken }],
      });
    });

    it('fails a transaction that did not deploy the prepared data, and charges nothing', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest] });
      const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
      const res = await create(user, payload);
      const { token, deployment } = res.json<TCreateTokenResponse>();
      // The wallet deploys something else: the same contract with a different supply.
      const forged = deployData('QRC20', 'base', {
        name: 'Green Bond',
        symbol: 'GRB',
        decimals: 18,
        initialSupply: 999_999n * 10n ** 18n,
        supplyHolder: TEST_WALLET_ADDRESS,
      });
      expect(forged).not.toBe(deployment!.data);
      const hash = await wallet().sendTransaction({ data: forged });
      expect((await track(user, payload.externalId, hash)).statusCode).toBe(200);
      const done = await settled(t, user, token.id);
      expect(done.status).toBe('FAILED');
      expect(done.failureReason).toMatch(/did not deploy the prepared contract/);
      expect(done.creditsCharged).toBe(0);
      expect(await creditsOf(user.accountId)).toBe(TRIAL_CREDITS);
    });

    it('fails a tracked transaction that is not a contract creation', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest] });
      const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
      const { token } = (await create(user, payload)).json<TCreateTokenResponse>();
      const hash = await wallet().sendTransaction({ to: HOLDER, value: 1n });
      expect((await track(user, payload.externalId, hash)).statusCode).toBe(200);
      const done = await settled(t, user, token.id);
      expect(done).toMatchObject({ status: 'FAILED', failureReason: 'The transaction is not a contract deployment.' });
    });

    it('records a cancelled or denied wallet request, and edits an unsent deployment', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest] });
      const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
      const { token, deployment } = (await create(user, payload)).json<TCreateTokenResponse>();

      const edit = await t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token',
        headers: user.headers,
        payload: { id: token.id, ...qrc20Form({ name: 'Renamed Bond', unit: 'RNB' }) },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      const edited = edit.json<TCreateTokenResponse>();
      expect(edited.token.tokenName).toBe('Renamed Bond');
      expect(edited.deployment!.data).not.toBe(deployment!.data);
      const badEdit = await t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token',
        headers: user.headers,
        payload: { id: token.id, ...qrc20Form({ decimal: 40 }) },
      });
      expect(badEdit.statusCode).toBe(400);
      expect(problem(badEdit).invalidParams).toEqual([{ name: 'decimal', reason: TOKEN_MESSAGES.decimals }]);

      const cancel = await t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token/deploy/track/cancel',
        headers: user.headers,
        payload: { externalId: payload.externalId, reason: 'DENIED' },
      });
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json<TCreateTokenResponse>().token).toMatchObject({
        status: 'FAILED',
        failureReason: 'User denied transaction signature.',
      });
    });

    it('refuses a status change the token cannot make, and tracking anything but an unsent wallet deployment', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest] });
      const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
      const { token } = (await create(user, payload)).json<TCreateTokenResponse>();
      const deprecate = await t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token',
        headers: user.headers,
        payload: { id: token.id, status: 'DEPRECATED' },
      });
      expect(deprecate.statusCode).toBe(409);
      expect(problem(deprecate)).toMatchObject({
        code: 'TOKEN_STATUS_CHANGE',
        detail: TOKEN_MESSAGES.statusChange('PENDING', 'DEPRECATED'),
      });

      const platform = (await create(user, quant20('base'))).json<TCreateTokenResponse>().token;
      const notWallet = await track(user, platform.externalId, `0x${'cd'.repeat(32)}`);
      expect(notWallet.statusCode).toBe(409);
      expect(problem(notWallet)).toMatchObject({
        code: 'NOT_WALLET_DEPLOYMENT',
        detail: TOKEN_MESSAGES.notWalletDeployment,
      });

      // A hash the chain has never seen: followed, but the token is no longer editable or cancellable.
      expect((await track(user, payload.externalId, `0x${'ef'.repeat(32)}`)).statusCode).toBe(200);
      const again = await track(user, payload.externalId, `0x${'fe'.repeat(32)}`);
      expect(again.statusCode).toBe(409);
      expect(problem(again)).toMatchObject({ code: 'TOKEN_ALREADY_TRACKED', detail: TOKEN_MESSAGES.alreadyTracked });
      const cancel = await t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token/deploy/track/cancel',
        headers: user.headers,
        payload: { externalId: payload.externalId },
      });
      expect(cancel.statusCode).toBe(409);
      expect(problem(cancel)).toMatchObject({
        code: 'DEPLOYMENT_NOT_CANCELLABLE',
        detail: TOKEN_MESSAGES.cannotCancel,
      });
    });
  });

  describe('cancel, status changes and other accounts', () => {
    it('deletes a deployment not sent yet and gives its quota back', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest], quota: 1 });
      const payload = { ...quant20('base'), deploymentType: 'META_MASK' };
      expect((await create(user, payload)).statusCode).toBe(201);
      // The one allowed token is taken.
      expect(problem(await create(user, { ...payload, externalId: randomUUID() })).detail).toBe(
        TOKEN_MESSAGES.quotaReached,
      );
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/tokenise/token/${payload.externalId}`,
        headers: user.headers,
      });
      expect(del.statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/tokenise/token/${payload.externalId}`, headers: user.headers }))
          .statusCode,
      ).toBe(404);
      expect((await create(user, { ...payload, externalId: randomUUID() })).statusCode).toBe(201);
    });

    it('deprecates an active token and reactivates it; refuses other changes', async () => {
      const res = await create(owner, quant20('base', { name: 'Old Bond', unit: 'OLD' }));
      const token = await settled(t, owner, res.json<TCreateTokenResponse>().token.id);
      const put = (status: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/tokenise/token',
          headers: owner.headers,
          payload: { id: token.id, status },
        });
      const deprecated = await put('DEPRECATED');
      expect(deprecated.statusCode).toBe(200);
      expect(deprecated.json<TCreateTokenResponse>().token.status).toBe('DEPRECATED');
      expect((await put('ACTIVE')).json<TCreateTokenResponse>().token.status).toBe('ACTIVE');
      const edit = await t.app.inject({
        method: 'PUT',
        url: '/api/tokenise/token',
        headers: owner.headers,
        payload: { id: token.id, ...qrc20Form() },
      });
      expect(edit.statusCode).toBe(409);
      expect(problem(edit).detail).toBe(TOKEN_MESSAGES.notEditable);
      expect(problem(edit).code).toBe('TOKEN_NOT_EDITABLE');
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/tokenise/token/${token.externalId}`,
        headers: owner.headers,
      });
      expect(del.statusCode).toBe(409);
      expect(problem(del).detail).toBe(TOKEN_MESSAGES.cannotCancel);
      expect(problem(del).code).toBe('DEPLOYMENT_NOT_CANCELLABLE');
    });

    it('answers 404 for another account’s token on every endpoint', async () => {
      const res = await create(owner, { ...quant20('base'), deploymentType: 'META_MASK' });
      const { token } = res.json<TCreateTokenResponse>();
      const stranger = await newTokenUser(t, { networks: [ids.ethTest] });
      const calls = [
        { method: 'GET' as const, url: `/api/tokenise/token/${token.id}` },
        { method: 'GET' as const, url: `/api/tokenise/token/${token.externalId}` },
        { method: 'PUT' as const, url: '/api/tokenise/token', payload: { id: token.id, status: 'DEPRECATED' } },
        { method: 'DELETE' as const, url: `/api/tokenise/token/${token.externalId}` },
        {
          method: 'PUT' as const,
          url: '/api/tokenise/token/deploy/track',
          payload: { externalId: token.externalId, txHash: `0x${'ab'.repeat(32)}` },
        },
        {
          method: 'PUT' as const,
          url: '/api/tokenise/token/deploy/track/cancel',
          payload: { externalId: token.externalId },
        },
      ];
      for (const call of calls) {
        const answer = await t.app.inject({ ...call, headers: stranger.headers });
        expect(answer.statusCode, `${call.method} ${call.url}`).toBe(404);
        expect(problem(answer).code, `${call.method} ${call.url}`).toBe('TOKEN_NOT_FOUND');
      }
      // Its externalId cannot be reused by another account either.
      const reuse = await create(stranger, { ...quant20('base'), externalId: token.externalId });
      expect(reuse.statusCode).toBe(409);
      expect(problem(reuse)).toMatchObject({
        code: 'EXTERNAL_ID_TAKEN',
        invalidParams: [{ name: 'externalId', reason: TOKEN_MESSAGES.externalIdTaken }],
      });
      const list = await t.app.inject({
        method: 'POST',
        url: '/api/tokenise/tokens',
        headers: stranger.headers,
        payload: {},
      });
      expect(list.json<TTokensPage>().content).toEqual([]);
    });
  });

  describe('list', () => {
    it('searches by name or unit, filters and pages, with the counter', async () => {
      const user = await newTokenUser(t, { networks: [ids.ethTest], quota: 10, credits: 1_000 });
      const made = [];
      for (const [name, unit, tokenType] of [
        ['Alpha Coin', 'ALP', 'QRC20'],
        ['Beta Coin', 'BET', 'QRC20'],
        ['Gamma Art', 'GAM', 'QRC721'],
      ] as const) {
        const tier = tokenType === 'QRC20' ? tierId(qrc20, 'base') : tierId(qrc721, 'base');
        const res = await create(user, {
          externalId: randomUUID(),
          networkId: ids.ethTest,
          tierId: tier,
          tokenType,
          deploymentType: 'META_MASK',
          name,
          unit,
          decimal: 0,
          initialSupply: 1,
          supplyHolderAddress: HOLDER,
          tokenUri: 'https://example.com/',
        });
        expect(res.statusCode, res.body).toBe(201);
        made.push(res.json<TCreateTokenResponse>().token);
      }
      const list = async (payload: Record<string, unknown>) => {
        const res = await t.app.inject({ method: 'POST', url: '/api/tokenise/tokens', headers: user.headers, payload });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<TTokensPage>();
      };
      const all = await list({});
      expect(all.content.map((tk) => tk.tokenName)).toEqual(['Gamma Art', 'Beta Coin', 'Alpha Coin']);
      expect(all.quota).toEqual({ deployed: 3, allowed: 10 });
      expect(all.blockchains).toEqual(['Ethereum']);
      expect((await list({ search: 'coin' })).totalElements).toBe(2);
      expect((await list({ search: 'gam' })).content[0]!.tokenUnit).toBe('GAM');
      expect((await list({ tokenType: 'QRC721' })).totalElements).toBe(1);
      expect((await list({ status: 'ACTIVE' })).totalElements).toBe(0);
      expect((await list({ status: 'PENDING', blockchain: 'ethereum', tierType: 'base' })).totalElements).toBe(3);
      const page = await list({ size: 5, page: 0, search: '%' });
      expect(page.totalElements).toBe(0);
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/tokenise/tokens',
        headers: user.headers,
        payload: { size: 7, status: 'LOST' },
      });
      expect(bad.statusCode).toBe(400);
      expect(
        problem(bad)
          .invalidParams!.map((p) => p.name)
          .sort(),
      ).toEqual(['size', 'status']);
    });
  });
});
