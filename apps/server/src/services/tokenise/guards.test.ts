import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountFeatures, tokenTiers } from '@connect/db';
import { getTier } from '@connect/contracts';
import {
  TOKEN_MESSAGES,
  type TCreateTokenResponse,
  type TLocationsResponse,
  type TTierCard,
  type TVerifyTokenResponse,
} from '@connect/shared';
import { putOnPlan } from '../../../test/plans.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { creditsOf, HOLDER, newTokenUser, settled, tiersOf, useTokenSuite, type TokenUser } from './test-support.ts';

/** The tokenise guards of spec §5, tier cards and form checks (spec §3–§5, §7). */
describe('tokenise: guards, tiers and verify', () => {
  const s = useTokenSuite({ mainnet: true });
  const { tierId, create, quant20, problem, invalidNames } = s;

  describe('guards', () => {
    const locations = (user: TokenUser) =>
      s.t.app.inject({ method: 'GET', url: '/api/tokenise/v2/orchestration/locations', headers: user.headers });
    const setUsed = (user: TokenUser, used: number) =>
      s.t.db.db
        .update(accountFeatures)
        .set({ used })
        .where(and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'tokens:create')));

    it('sends a user without networks to My networks', async () => {
      const user = await newTokenUser(s.t);
      const res = await locations(user);
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
      const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: 1 });
      await s.t.db.db
        .update(accountFeatures)
        .set({ used: 1 })
        .where(and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'tokens:create')));
      for (const res of [await locations(user), await create(user, quant20('base'))]) {
        expect(res.statusCode).toBe(409);
        expect(problem(res).detail).toBe(TOKEN_MESSAGES.quotaReached);
        expect(problem(res).code).toBe('TOKEN_QUOTA_REACHED');
      }
    });

    it('takes the allowance from the plan: the trial’s 5 used up, an upgrade to annual-standard allows 25 at once', async () => {
      const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
      await setUsed(user, 5);
      for (const res of [await locations(user), await create(user, quant20('base'))]) {
        expect(res.statusCode).toBe(409);
        expect(problem(res).code).toBe('TOKEN_QUOTA_REACHED');
      }
      await putOnPlan(s.t.db.db, user.accountId, 'annual-standard');
      expect((await locations(user)).statusCode).toBe(200);
      const created = await create(user, quant20('base'));
      expect(created.statusCode, created.body).toBe(201);
      const list = await s.t.app.inject({
        method: 'POST',
        url: '/api/tokenise/tokens',
        headers: user.headers,
        payload: {},
      });
      expect(list.json<{ quota: unknown }>().quota).toEqual({ deployed: 6, allowed: 25 });
      const features = await s.t.app.inject({ method: 'GET', url: '/api/connect/available', headers: user.headers });
      expect(
        features.json<{ availableFeatures: Record<string, unknown> }>().availableFeatures['tokens:create'],
      ).toEqual({
        t: 25,
        a: 6,
      });
    });

    it('refuses with PLAN_INACTIVE while the plan is not in service, in the guards and in the one-statement insert', async () => {
      const user = await newTokenUser(s.t, { networks: [s.ids.ethTest] });
      await putOnPlan(s.t.db.db, user.accountId, 'trial', { status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
      for (const res of [await locations(user), await create(user, quant20('base'))]) {
        expect(res.statusCode).toBe(403);
        expect(problem(res).code).toBe('PLAN_INACTIVE');
      }
      const [row] = await s.t.db.db
        .select({ used: accountFeatures.used })
        .from(accountFeatures)
        .where(and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'tokens:create')));
      expect(row!.used).toBe(0);
    });

    it('after a downgrade below its usage, keeps the tokens but deploys none until below the allowance', async () => {
      const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], quota: 3 });
      await setUsed(user, 4);
      const res = await create(user, quant20('base'));
      expect(res.statusCode).toBe(409);
      expect(problem(res).code).toBe('TOKEN_QUOTA_REACHED');
      await setUsed(user, 2);
      expect((await create(user, quant20('base'))).statusCode).toBe(201);
    });

    it('lists testnets with an RPC URL, and mainnets only with a verified identity', async () => {
      const unverified = await newTokenUser(s.t, { networks: [s.ids.ethTest, s.ids.polyTest, s.ids.ethMain] });
      const list = async (user: TokenUser) => {
        const res = await locations(user);
        expect(res.statusCode).toBe(200);
        return res.json<TLocationsResponse>().locations.map((l) => l.code);
      };
      // polygon-testnet has no RPC URL in this configuration.
      expect(await list(unverified)).toEqual(['ethereum-testnet']);
      const verified = await newTokenUser(s.t, {
        networks: [s.ids.ethTest, s.ids.ethMain],
        kycStatus: 'VERIFIED',
      });
      expect(await list(verified)).toEqual(['ethereum-testnet', 'ethereum-mainnet']);

      // An unverified user asking for mainnet tiers or creating there is told to verify.
      const res = await s.t.app.inject({
        method: 'GET',
        url: `/api/tokenise/v2/orchestration/tiers?networkId=${s.ids.ethMain}&tokenType=QRC20`,
        headers: unverified.headers,
      });
      expect(res.statusCode).toBe(409);
      expect(problem(res).title).toBe('Identity verification required');
      const onlyMainnet = await newTokenUser(s.t, { networks: [s.ids.ethMain] });
      const onlyMainnetLocations = await locations(onlyMainnet);
      expect(onlyMainnetLocations.statusCode).toBe(409);
      expect(problem(onlyMainnetLocations).title).toBe('Identity verification required');
    });

    it('refuses a deployment the credits do not cover', async () => {
      const user = await newTokenUser(s.t, { networks: [s.ids.ethTest], credits: 3 });
      const res = await create(user, quant20('base'));
      expect(res.statusCode).toBe(409);
      expect(problem(res).detail).toBe(TOKEN_MESSAGES.insufficientCredits(10, 3));
      expect(problem(res).code).toBe('INSUFFICIENT_CREDITS');
    });

    it('counts a pay-as-you-go credit limit as credits the account may spend', async () => {
      const within = await newTokenUser(s.t, { networks: [s.ids.ethTest], credits: 0 });
      await new LedgerRepository(s.t.db.db).setFloor(within.accountId, 'CREDIT', -10n);
      const created = await create(within, quant20('base'));
      expect(created.statusCode, created.body).toBe(201);
      const token = await settled(s.t, within, created.json<TCreateTokenResponse>().token.id);
      expect(token).toMatchObject({ status: 'ACTIVE', creditsCharged: 10 });
      expect(await creditsOf(s.t.db.db, within.accountId)).toBe(-10);

      const short = await newTokenUser(s.t, { networks: [s.ids.ethTest], credits: 0 });
      await new LedgerRepository(s.t.db.db).setFloor(short.accountId, 'CREDIT', -9n);
      const refused = await create(short, quant20('base'));
      expect(refused.statusCode).toBe(409);
      expect(problem(refused)).toMatchObject({
        code: 'INSUFFICIENT_CREDITS',
        detail: TOKEN_MESSAGES.insufficientCredits(10, 9),
      });
    });
  });

  describe('tiers', () => {
    it('answers tier cards sorted by name with the spec §4 short lists and credit amounts', async () => {
      expect(s.qrc20.map((c) => c.name)).toEqual(['Base', 'Flex', 'Vari']);
      const [base, flex, vari] = s.qrc20 as [TTierCard, TTierCard, TTierCard];
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
      expect(s.qrc721[0]!.attributes).toContain('tokenUri');
      const wallet = await tiersOf(s.t, s.owner, s.ids.ethTest, 'QRC20', 'META_MASK');
      expect(wallet.map((c) => c.creditAmount)).toEqual([5, 10, 15]);
    });

    it('skips tiers missing the credit amount the deployment method needs (spec §5)', async () => {
      const varId = tierId(s.qrc20, 'vari');
      await s.t.db.db.update(tokenTiers).set({ bytecodeCredits: null }).where(eq(tokenTiers.id, varId));
      try {
        expect((await tiersOf(s.t, s.owner, s.ids.ethTest, 'QRC20', 'META_MASK')).map((c) => c.type)).toEqual([
          'base',
          'flex',
        ]);
        expect((await tiersOf(s.t, s.owner, s.ids.ethTest, 'QRC20', 'QUANT')).map((c) => c.type)).toEqual([
          'base',
          'flex',
          'vari',
        ]);
        const res = await create(s.owner, { ...quant20('vari'), deploymentType: 'META_MASK' });
        expect(res.statusCode).toBe(400);
        expect(problem(res).invalidParams).toEqual([{ name: 'tierId', reason: TOKEN_MESSAGES.tierUnavailable }]);
        expect(problem(res).code).toBe('TOKEN_TIER_UNAVAILABLE');
      } finally {
        await s.t.db.db.update(tokenTiers).set({ bytecodeCredits: 15 }).where(eq(tokenTiers.id, varId));
      }
    });

    it('validates the query', async () => {
      const res = await s.t.app.inject({
        method: 'GET',
        url: `/api/tokenise/v2/orchestration/tiers?networkId=nope&tokenType=ERC1155`,
        headers: s.owner.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(invalidNames(res)).toEqual(['networkId', 'tokenType']);
    });
  });

  describe('verify', () => {
    const verify = (payload: Record<string, unknown>) =>
      s.t.app.inject({ method: 'POST', url: '/api/tokenise/token/verify', headers: s.owner.headers, payload });

    it('answers every field error by the tier’s rules without creating anything', async () => {
      const res = await verify({
        networkId: s.ids.ethTest,
        tierId: tierId(s.qrc20, 'flex'),
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
        networkId: s.ids.ethTest,
        tierId: tierId(s.qrc721, 'base'),
        tokenType: 'QRC721',
        name: 'Art Works',
        unit: 'ART',
        initialSupply: 12,
        supplyHolderAddress: HOLDER.toLowerCase(),
      };
      const bad = (await verify({ ...base, tokenUri: 'https://example.com/meta' })).json<TVerifyTokenResponse>();
      expect(bad.invalidParams).toEqual([{ name: 'tokenUri', reason: TOKEN_MESSAGES.tokenUriFormat }]);
      const good = (await verify({ ...base, tokenUri: 'https://example.com/meta/' })).json<TVerifyTokenResponse>();
      expect(good).toMatchObject({ valid: true, invalidParams: [], creditAmount: 15 });
    });

    it('refuses a tier of another token type or network', async () => {
      const res = await verify({ networkId: s.ids.ethTest, tierId: tierId(s.qrc721, 'base'), tokenType: 'QRC20' });
      expect(res.statusCode).toBe(400);
      expect(problem(res).invalidParams).toEqual([{ name: 'tierId', reason: TOKEN_MESSAGES.tierTokenType }]);
      expect(problem(res).code).toBe('TOKEN_TIER_TYPE');
      const bad = await verify({ networkId: s.ids.polyTest, tierId: tierId(s.qrc20, 'base'), tokenType: 'QRC20' });
      expect(bad.statusCode).toBe(400);
      expect(problem(bad).invalidParams).toEqual([{ name: 'networkId', reason: TOKEN_MESSAGES.locationUnavailable }]);
      expect(problem(bad).code).toBe('TOKEN_LOCATION_UNAVAILABLE');
    });

    it('answers invalidParams for a malformed body', async () => {
      const res = await verify({ networkId: 'x', tokenType: 'ERC20', deploymentType: 'FAX' });
      expect(res.statusCode).toBe(400);
      expect(invalidNames(res)).toEqual(['deploymentType', 'networkId', 'tierId', 'tokenType']);
    });
  });
});
