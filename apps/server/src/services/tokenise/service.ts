import { and, eq, isNull, or } from 'drizzle-orm';
import { encodeFunctionData, getAddress, type Abi, type Hex } from 'viem';
import { tokens } from '@connect/db';
import { getTier } from '@connect/contracts';
import {
  buildTierList,
  explorerLink,
  tierCreditAmount,
  tierOffered,
  tokenFormErrors,
  tokenFormFields,
  tokenFormSchema,
  TOKEN_MESSAGES,
  type TCancelTrackingRequest,
  type TCreateTokenResponse,
  type TDeploymentType,
  type TTierCard,
  type TToken,
  type TTokenDetails,
  type TTokenForm,
  type TTokenLocation,
  type TTokenOnChain,
  type TTokensPage,
  type TTokenType,
  type TVerifyTokenResponse,
} from '@connect/shared';
import type { SignedPlatformTx } from '../../adapters/chains/platform-sender.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { ExpiringCache } from '../../lib/expiring-cache.ts';
import { badRequest, fieldProblem, problem, ProblemError } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import { isIdentityVerified, requireVerifiedIdentity } from '../connect/index.ts';
import { chargeToken, deploymentData, type DeploymentEngine } from './deployment.ts';
import type { NetworkRow, TierRow, TokenRepository, TokenRow, TokenWithRefs } from './repository.ts';
import { seedTokenTiers } from './tiers.ts';

/** How long a node keeps a tier and its network for new tokens (see TokeniseService.tierWithNetwork). */
export const TIER_CACHE_MS = 5_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** INSUFFICIENT_CREDITS, saying what the deployment costs and what the account has. */
const insufficientCredits = (needed: number, available: number) =>
  problem('INSUFFICIENT_CREDITS', { detail: TOKEN_MESSAGES.insufficientCredits(needed, available) });

type Caller = Pick<PortalUser, 'id' | 'accountId' | 'kycStatus'>;
type Target = { networkId: string; tierId: string; tokenType: TTokenType; deploymentType: TDeploymentType };

/** The tokenise service (spec §7): the account's tokens, their tiers and locations, deployments. */
export class TokeniseService {
  constructor(
    private readonly repo: TokenRepository,
    private readonly engine: DeploymentEngine,
  ) {}

  // -- guards and lookups ----------------------------------------------------------------------

  /**
   * Tiers with their networks, as read for new tokens, kept for TIER_CACHE_MS: catalogue data that
   * changes rarely (staff re-pricing, a network's RPC URL), read on every deployment's critical
   * path. A change reaches new deployments of this node within that time (docs/decisions.md).
   */
  private readonly tierCache = new ExpiringCache<{ tier: TierRow; network: NetworkRow } | null>(1_000);

  private async tierWithNetwork(tierId: string): Promise<{ tier: TierRow; network: NetworkRow } | null> {
    if (!UUID.test(tierId)) return null;
    const cached = this.tierCache.get(tierId);
    if (cached !== undefined) return cached;
    const located = await this.repo.tierWithNetwork(tierId);
    this.tierCache.set(tierId, located, Date.now() + TIER_CACHE_MS);
    return located;
  }

  /** Spec §5: no tokens:create quota left → back to Token Flow. */
  private async requireQuota(accountId: string): Promise<void> {
    const quota = await this.repo.quota(accountId);
    if (!quota || (quota.total !== null && quota.total - quota.used <= 0)) {
      throw problem('TOKEN_QUOTA_REACHED');
    }
  }

  /**
   * Where the account can deploy: its activated networks with an RPC URL; mainnets only with a
   * verified identity. None activated → the configure-networks guard (spec §5).
   */
  private async usableNetworks(caller: Caller, known?: NetworkRow[]): Promise<NetworkRow[]> {
    const activated = known ?? (await this.repo.activatedNetworks(caller.accountId));
    const reachable = activated.filter((n) => n.rpcUrl);
    const usable = reachable.filter((n) => n.networkType !== 'mainnet' || isIdentityVerified(caller));
    if (usable.length) return usable;
    if (reachable.length) requireVerifiedIdentity(caller); // only mainnets, identity not verified
    throw problem('NETWORKS_NOT_CONFIGURED');
  }

  private async location(caller: Caller, networkId: string, known?: NetworkRow[]): Promise<NetworkRow> {
    const activated = known ?? (await this.repo.activatedNetworks(caller.accountId));
    const network = activated.find((n) => n.id === networkId && n.rpcUrl);
    if (!network) {
      if (!activated.length) throw problem('NETWORKS_NOT_CONFIGURED');
      throw fieldProblem('TOKEN_LOCATION_UNAVAILABLE', 'networkId');
    }
    if (network.networkType === 'mainnet') requireVerifiedIdentity(caller);
    return network;
  }

  /** The tier, checked against the location, the token type and the deployment method (spec §5). */
  private async tierFor(network: NetworkRow, target: Target, known?: TierRow | null): Promise<TierRow> {
    const tier = known === undefined ? await this.repo.tier(target.tierId) : known;
    if (!tier || tier.networkId !== network.id || !tier.isActive) {
      throw fieldProblem('TOKEN_TIER_UNAVAILABLE', 'tierId');
    }
    if (tier.tokenType !== target.tokenType.toUpperCase()) {
      throw fieldProblem('TOKEN_TIER_TYPE', 'tierId');
    }
    if (!tierOffered(tier, target.deploymentType)) {
      throw fieldProblem('TOKEN_TIER_UNAVAILABLE', 'tierId');
    }
    if (target.deploymentType === 'QUANT' && !this.engine.deployerKeyFor(network)) {
      throw fieldProblem('NO_PLATFORM_DEPLOYER', 'deploymentType');
    }
    return tier;
  }

  private async requireCredits(accountId: string, amount: number): Promise<number> {
    const credits = await this.repo.credits(accountId);
    if (credits < amount) throw insufficientCredits(amount, credits);
    return credits;
  }

  private parseForm(tier: TierRow, body: Record<string, unknown>): TTokenForm {
    const errors = tokenFormErrors(tier.tokenType, tier.tierType, body);
    if (errors.length) throw badRequest(errors);
    return tokenFormSchema(tier.tokenType, tier.tierType).parse(body);
  }

  private async owned(caller: Caller, idOrExternalId: string): Promise<TokenWithRefs> {
    const row =
      (UUID.test(idOrExternalId) ? await this.repo.token(caller.accountId, idOrExternalId) : null) ??
      (await this.repo.tokenByExternalId(caller.accountId, idOrExternalId));
    if (!row) throw problem('TOKEN_NOT_FOUND');
    return row;
  }

  // -- endpoints -------------------------------------------------------------------------------

  async list(
    caller: Caller,
    query: {
      page: number;
      size: number;
      search?: string | undefined;
      blockchain?: string | undefined;
      networkId?: string | undefined;
      tokenType?: TTokenType | undefined;
      tierType?: TToken['tierType'] | undefined;
      status?: TToken['status'] | undefined;
    },
  ): Promise<TTokensPage> {
    const { page, size, ...filter } = query;
    const [{ rows, total }, quota, blockchains, credits] = await Promise.all([
      this.repo.listTokens({ accountId: caller.accountId, ...filter }, page, size),
      this.repo.quota(caller.accountId),
      this.repo.tokenBlockchains(caller.accountId),
      this.repo.credits(caller.accountId),
    ]);
    return {
      content: rows.map(toToken),
      totalElements: total,
      totalPages: Math.ceil(total / size),
      number: page,
      size,
      quota: { deployed: quota?.used ?? 0, allowed: quota ? quota.total : 0 },
      blockchains,
      credits,
    };
  }

  /** GET /v2/orchestration/locations: guards first (quota, then networks), so the stepper can redirect. */
  async locations(caller: Caller): Promise<{ locations: TTokenLocation[] }> {
    await this.requireQuota(caller.accountId);
    const usable = await this.usableNetworks(caller);
    return {
      locations: usable.map((n) => ({
        networkId: n.id,
        technology: n.technology,
        network: n.name,
        code: n.code,
        networkType: n.networkType,
        chainId: n.chainId,
        explorerUrl: n.explorerUrl,
        isLocal: n.isLocal,
      })),
    };
  }

  async tiers(
    caller: Caller,
    query: { networkId: string; tokenType: TTokenType; deploymentType: TDeploymentType },
  ): Promise<{ tiers: TTierCard[] }> {
    const network = await this.location(caller, query.networkId);
    await seedTokenTiers(this.repo, [network.id]); // a network added after start-up
    if (query.deploymentType === 'QUANT' && !this.engine.deployerKeyFor(network)) return { tiers: [] };
    const rows = (await this.repo.tiers(network.id, query.tokenType)).filter((tier) =>
      tierOffered(tier, query.deploymentType),
    );
    const cards = rows.map((tier) => ({
      id: tier.id,
      type: tier.tierType,
      tokenType: tier.tokenType,
      technology: network.technology,
      network: network.name,
      networkId: network.id,
      networkType: network.networkType,
      name: tier.name,
      description: tier.description,
      functions: getTier(tier.tokenType, tier.tierType).functions,
      creditAmount: tierCreditAmount(tier, query.deploymentType) ?? 0,
      deploymentCredits: tier.deploymentCredits,
      bytecodeCredits: tier.bytecodeCredits,
      selected: false,
      attributes: tokenFormFields(tier.tokenType, tier.tierType),
    }));
    return { tiers: buildTierList(cards) };
  }

  /** POST /token/verify: every problem of the form for this location and tier, nothing created. */
  async verify(caller: Caller, body: Target & Record<string, unknown>): Promise<TVerifyTokenResponse> {
    await this.requireQuota(caller.accountId);
    const activated = await this.repo.activatedNetworks(caller.accountId);
    await this.usableNetworks(caller, activated);
    const network = await this.location(caller, body.networkId, activated);
    const tier = await this.tierFor(network, body);
    const invalidParams = tokenFormErrors(tier.tokenType, tier.tierType, body);
    const creditAmount = tierCreditAmount(tier, body.deploymentType) ?? 0;
    const credits = await this.repo.credits(caller.accountId);
    return { valid: invalidParams.length === 0, invalidParams, creditAmount, credits };
  }

  /**
   * POST /v2/token: create and deploy; the same externalId answers the same token (201 then 200).
   * On the usual path the account is not read before the insert: the tier and its network are
   * checked in memory, and the insert itself checks quota, network and credits (one statement);
   * only a refusal runs the guards one by one, for the message. A platform deployment is signed
   * and sent before the answer: its gas and fees are asked of the chain as soon as the tier is
   * known, and the token row (with the transaction's hash) is inserted just before the
   * transaction is broadcast (DeploymentEngine.deployNew).
   */
  async create(
    caller: Caller,
    body: Target & { externalId: string } & Record<string, unknown>,
  ): Promise<{ created: boolean; response: TCreateTokenResponse }> {
    const existing = async () => {
      const row = await this.repo.tokenByExternalId(caller.accountId, body.externalId);
      return row ? { created: false, response: await this.withDeployment(row) } : null;
    };
    try {
      const { network, tier, values, creditsNeeded, plan } = await this.draft(caller, body);
      const insert = async (sent?: SignedPlatformTx): Promise<TokenRow | null> => {
        const row = await this.repo.insertTokenIfAllowed(values, creditsNeeded, sent);
        if (row === 'exists') return null;
        if (row === 'refused') {
          await this.guards(caller, body); // throws the refusal, in the spec's order
          throw problem('TOKEN_QUOTA_REACHED'); // the last unit went to a concurrent request
        }
        return row;
      };
      const inserted = plan ? await this.engine.deployNew({ network, tier }, plan, insert) : await insert();
      if (inserted) return { created: true, response: await this.withDeployment({ token: inserted, network, tier }) };
    } catch (err) {
      // A retry of a token created before answers that token, whatever the guards say now.
      if (!(err instanceof ProblemError)) throw err;
      const answer = await existing();
      if (answer) return answer;
      throw err;
    }
    // The externalId exists: this account's (a retry racing the first call) or another's.
    const answer = await existing();
    if (answer) return answer;
    throw fieldProblem('EXTERNAL_ID_TAKEN', 'externalId');
  }

  /**
   * A new token's row, checked as far as memory can: the tier and its network (one read), the
   * location, tier and form rules. When those fail, the account's guards run in the spec's order
   * and throw. A platform deployment's preparation (gas, fees) starts here.
   */
  private async draft(caller: Caller, body: Target & { externalId: string } & Record<string, unknown>) {
    const located = await this.tierWithNetwork(body.tierId);
    const form = located && this.checkLocally(caller, body, located);
    if (!located || !form) {
      await this.guards(caller, body, located?.tier ?? null);
      throw fieldProblem('TOKEN_TIER_UNAVAILABLE', 'tierId'); // not reached
    }
    const { network, tier } = located;
    const values = {
      externalId: body.externalId,
      accountId: caller.accountId,
      createdBy: caller.id,
      networkId: network.id,
      tierId: tier.id,
      tokenType: tier.tokenType,
      tierType: tier.tierType,
      deploymentType: body.deploymentType,
      status: 'PENDING' as const,
      ...formColumns(form),
    };
    const creditsNeeded = tierCreditAmount(tier, body.deploymentType) ?? 0;
    const plan = body.deploymentType === 'QUANT' ? this.engine.plan(values, network) : null;
    plan?.final.catch(() => undefined); // settled by deployNew, or dropped when the insert is refused
    return { network, tier, values, creditsNeeded, plan };
  }

  /** The location, tier and form rules that need no read of the account: the parsed form, or null. */
  private checkLocally(
    caller: Caller,
    body: Target & Record<string, unknown>,
    { network, tier }: { network: NetworkRow; tier: TierRow },
  ): TTokenForm | null {
    if (network.id !== body.networkId || !network.rpcUrl) return null;
    if (network.networkType === 'mainnet' && !isIdentityVerified(caller)) return null;
    if (!tier.isActive || tier.tokenType !== body.tokenType.toUpperCase() || !tierOffered(tier, body.deploymentType)) {
      return null;
    }
    if (body.deploymentType === 'QUANT' && !this.engine.deployerKeyFor(network)) return null;
    const parsed = tokenFormSchema(tier.tokenType, tier.tierType).safeParse(body);
    return parsed.success ? parsed.data : null;
  }

  /**
   * The guards of spec §5 in order — quota, networks, location, tier, form, credits — reading the
   * account's quota, networks and credits together. Throws the first refusal.
   */
  private async guards(caller: Caller, body: Target & Record<string, unknown>, knownTier?: TierRow | null) {
    const [quota, activated, credits] = await Promise.all([
      this.repo.quota(caller.accountId),
      this.repo.activatedNetworks(caller.accountId),
      this.repo.credits(caller.accountId),
    ]);
    if (!quota || (quota.total !== null && quota.total - quota.used <= 0)) {
      throw problem('TOKEN_QUOTA_REACHED');
    }
    await this.usableNetworks(caller, activated);
    const network = await this.location(caller, body.networkId, activated);
    const tier = await this.tierFor(network, body, knownTier);
    this.parseForm(tier, body);
    const amount = tierCreditAmount(tier, body.deploymentType) ?? 0;
    if (credits < amount) throw insufficientCredits(amount, credits);
  }

  private async withDeployment(row: TokenWithRefs): Promise<TCreateTokenResponse> {
    return { token: toToken(row), deployment: walletDeployment(row) };
  }

  async details(caller: Caller, idOrExternalId: string, holder?: string): Promise<TTokenDetails> {
    const row = await this.owned(caller, idOrExternalId);
    const { token, network } = row;
    const tier = getTier(token.tokenType, token.tierType);
    let onChain: TTokenOnChain | null = null;
    if (token.contractAddress && network.rpcUrl) {
      onChain = await readOnChain(network.rpcUrl, tier.abi, token.contractAddress as Hex, holder);
    }
    return {
      ...toToken(row),
      functions: tier.functions,
      explorer: {
        contractUrl: explorerLink(network.explorerUrl, 'address', token.contractAddress),
        transactionUrl: explorerLink(network.explorerUrl, 'tx', token.txHash),
      },
      onChain,
      deployment: walletDeployment(row),
    };
  }

  /**
   * PUT /token: DEPRECATED from Active and back; ACTIVE from Unpaid once the credits cover it; or
   * the form of a wallet deployment that has not been sent yet.
   */
  async update(
    caller: Caller,
    body: { id: string; status?: 'ACTIVE' | 'DEPRECATED' | undefined } & Record<string, unknown>,
  ): Promise<TCreateTokenResponse> {
    const row = await this.owned(caller, body.id);
    const { token, tier } = row;
    if (body.status) {
      const from = token.status;
      const to = body.status;
      if (from === to) return this.withDeployment(row);
      if (to === 'DEPRECATED' && from === 'ACTIVE') {
        await this.repo.updateToken(token.id, { status: 'DEPRECATED' }, eq(tokens.status, 'ACTIVE'));
      } else if (to === 'ACTIVE' && from === 'DEPRECATED') {
        await this.repo.updateToken(token.id, { status: 'ACTIVE' }, eq(tokens.status, 'DEPRECATED'));
      } else if (to === 'ACTIVE' && from === 'UNPAID') {
        const amount = tierCreditAmount(tier, token.deploymentType) ?? 0;
        await this.requireCredits(caller.accountId, amount);
        const paid = await this.repo.transaction(async (repo) => {
          const current = await repo.updateToken(token.id, {}, eq(tokens.status, 'UNPAID'));
          if (!current) return true;
          if (amount > 0) return chargeToken(repo, current, amount);
          await repo.updateToken(token.id, { status: 'ACTIVE' });
          return true;
        });
        if (!paid) throw insufficientCredits(amount, await this.repo.credits(caller.accountId));
      } else {
        throw problem('TOKEN_STATUS_CHANGE', { detail: TOKEN_MESSAGES.statusChange(from, to) });
      }
      return this.withDeployment((await this.repo.token(caller.accountId, token.id))!);
    }
    if (token.deploymentType !== 'META_MASK' || token.status !== 'PENDING' || token.txHash) {
      throw problem('TOKEN_NOT_EDITABLE');
    }
    const form = this.parseForm(tier, body);
    const updated = await this.repo.updateToken(
      token.id,
      formColumns(form),
      and(eq(tokens.status, 'PENDING'), isNull(tokens.txHash)),
    );
    if (!updated) throw problem('TOKEN_NOT_EDITABLE');
    return this.withDeployment((await this.repo.token(caller.accountId, token.id))!);
  }

  /** DELETE /token/{externalId}: cancels a deployment not sent yet (or removes a failed one). */
  async remove(caller: Caller, externalId: string): Promise<void> {
    const row = await this.repo.tokenByExternalId(caller.accountId, externalId);
    if (!row) throw problem('TOKEN_NOT_FOUND');
    const deleted = await this.repo.transaction(async (repo) => {
      const gone = await repo.deleteToken(
        caller.accountId,
        row.token.id,
        or(and(eq(tokens.status, 'PENDING'), isNull(tokens.txHash)), eq(tokens.status, 'FAILED'))!,
      );
      // A failed token gave its tokens:create unit back when it failed.
      if (gone && gone.status === 'PENDING') await repo.releaseQuota(caller.accountId);
      return gone;
    });
    if (!deleted) throw problem('DEPLOYMENT_NOT_CANCELLABLE');
  }

  /** PUT /token/deploy/track: the wallet sent the deployment; follow it. */
  async track(caller: Caller, body: { externalId: string; txHash: string }): Promise<{ token: TToken }> {
    const row = await this.repo.tokenByExternalId(caller.accountId, body.externalId);
    if (!row) throw problem('TOKEN_NOT_FOUND');
    const { token } = row;
    if (token.deploymentType !== 'META_MASK') throw problem('NOT_WALLET_DEPLOYMENT');
    if (token.txHash === body.txHash) return { token: toToken(row) };
    if (token.txHash || token.status !== 'PENDING') throw problem('TOKEN_ALREADY_TRACKED');
    let updated: TokenRow | null;
    try {
      updated = await this.repo.updateToken(
        token.id,
        { txHash: body.txHash },
        and(eq(tokens.status, 'PENDING'), isNull(tokens.txHash)),
      );
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw fieldProblem('TX_HASH_TAKEN', 'txHash');
      }
      throw err;
    }
    if (!updated) throw problem('TOKEN_ALREADY_TRACKED');
    this.engine.kick(token.id);
    return { token: toToken((await this.repo.token(caller.accountId, token.id))!) };
  }

  /** PUT /token/deploy/track/cancel: the user cancelled or denied in the wallet. */
  async cancelTracking(caller: Caller, body: Required<TCancelTrackingRequest>): Promise<{ token: TToken }> {
    const row = await this.repo.tokenByExternalId(caller.accountId, body.externalId);
    if (!row) throw problem('TOKEN_NOT_FOUND');
    const { token } = row;
    if (token.deploymentType !== 'META_MASK') throw problem('NOT_WALLET_DEPLOYMENT');
    if (token.status === 'PENDING') {
      if (token.txHash) throw problem('DEPLOYMENT_NOT_CANCELLABLE');
      const reason = {
        CANCELLED: TOKEN_MESSAGES.deploymentCancelled,
        DENIED: TOKEN_MESSAGES.walletDenied,
        NO_WALLET: TOKEN_MESSAGES.walletMissing,
        ERROR: TOKEN_MESSAGES.deploymentFailed,
      }[body.reason];
      await this.engine.fail(token, reason);
    } else if (token.status !== 'FAILED') {
      throw problem('DEPLOYMENT_NOT_CANCELLABLE');
    }
    return { token: toToken((await this.repo.token(caller.accountId, token.id))!) };
  }
}

function formColumns(form: TTokenForm) {
  const address = (value: string | undefined) => (value ? getAddress(value) : null);
  return {
    name: form.name,
    unit: form.unit,
    decimals: form.decimal ?? 0,
    initialSupply: String(form.initialSupply),
    maxSupply: form.maxSupply === undefined ? null : String(form.maxSupply),
    remintable: form.remintable ?? false,
    supplyHolderAddress: address(form.supplyHolderAddress),
    minterAddress: address(form.minter),
    ownerAddress: address(form.ownerAddress),
    tokenUri: form.tokenUri ?? null,
  };
}

/** A wallet deployment not sent yet: the exact transaction data to send. */
function walletDeployment({ token, network }: TokenWithRefs): TCreateTokenResponse['deployment'] {
  if (token.deploymentType !== 'META_MASK' || token.status !== 'PENDING' || token.txHash) return null;
  return { chainId: network.chainId, data: deploymentData(token) };
}

export function toToken({ token, network, tier }: TokenWithRefs): TToken {
  return {
    id: token.id,
    externalId: token.externalId,
    tokenName: token.name,
    tokenUnit: token.unit,
    decimalPlaces: token.decimals,
    tokenSupply: token.initialSupply,
    maxSupply: token.maxSupply,
    remintable: token.remintable,
    supplyHolderAddress: token.supplyHolderAddress,
    minter: token.minterAddress,
    ownerAddress: token.ownerAddress,
    tokenUri: token.tokenUri,
    tokenType: token.tokenType,
    tierType: token.tierType,
    tierName: tier.name,
    tierId: tier.id,
    networkId: network.id,
    blockchain: network.technology,
    technology: network.technology,
    network: network.name,
    networkType: network.networkType,
    chainId: network.chainId,
    isLocal: network.isLocal,
    deploymentType: token.deploymentType,
    status: token.status,
    smartContractAddress: token.contractAddress,
    transactionId: token.txHash,
    deployerAddress: token.deployerAddress,
    blockNumber: token.blockNumber,
    creditsCharged: token.creditsCharged,
    failureReason: token.failureReason,
    createdAt: token.createdAt.toISOString(),
    deployedAt: token.deployedAt?.toISOString() ?? null,
  };
}

/** Total supply and a holder's balance, read live from the chain at one block. */
async function readOnChain(rpcUrl: string, abi: Abi, address: Hex, holder?: string): Promise<TTokenOnChain> {
  const options = { timeoutMs: 5_000 };
  try {
    const blockHex = await rpcCall<Hex>(rpcUrl, 'eth_blockNumber', [], options);
    const read = async (functionName: string, args: unknown[]) =>
      BigInt(
        await rpcCall<Hex>(
          rpcUrl,
          'eth_call',
          [{ to: address, data: encodeFunctionData({ abi, functionName, args }) }, blockHex],
          options,
        ),
      ).toString();
    const [totalSupply, holderBalance] = await Promise.all([
      read('totalSupply', []),
      holder ? read('balanceOf', [holder]) : Promise.resolve(null),
    ]);
    return {
      totalSupply,
      holder: holder ?? null,
      holderBalance,
      blockNumber: BigInt(blockHex).toString(),
      error: null,
    };
  } catch (err) {
    return {
      totalSupply: null,
      holder: holder ?? null,
      holderBalance: null,
      blockNumber: null,
      error: `The network could not be read: ${(err as Error).message}`,
    };
  }
}
