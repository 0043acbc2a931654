import type { Hex } from 'viem';
import { getTier } from '@connect/contracts';
import {
  buildTierList,
  explorerLink,
  tierCreditAmount,
  tierOffered,
  tokenFormErrors,
  tokenFormFields,
  TOKEN_MESSAGES,
  type TCancelTrackingRequest,
  type TCreateTokenResponse,
  type TDeploymentType,
  type TTierCard,
  type TToken,
  type TTokenDetails,
  type TTokenLocation,
  type TTokenOnChain,
  type TTokensPage,
  type TTokenType,
  type TVerifyTokenResponse,
} from '@connect/shared';
import type { SignedPlatformTx } from '../../adapters/chains/sender/index.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { ExpiringCache } from '../../lib/expiring-cache.ts';
import { fieldProblem, problem, ProblemError } from '../../lib/errors.ts';
import type { DeploymentEngine, DeploymentSchedule } from './deployment.ts';
import { insufficientCredits, TokenGuards, type Caller, type Target } from './guards.ts';
import { readOnChain } from './on-chain.ts';
import type { NetworkRow, TierRow, TokenFilter, TokenRepository, TokenRow, TokenWithRefs } from './repository.ts';
import { chargeToken, refundCharge } from './settlement.ts';
import { seedTokenTiers } from './tiers.ts';
import { formColumns, toToken, walletDeployment } from './views.ts';

/** How long a node keeps a tier and its network for new tokens (see TokeniseService.tierWithNetwork). */
export const TIER_CACHE_MS = 5_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tokenise service (spec §7): the account's tokens, their tiers and locations, deployments. */
export class TokeniseService {
  private readonly guards: TokenGuards;

  constructor(
    private readonly repo: TokenRepository,
    private readonly engine: DeploymentEngine,
    /** Where a reported wallet transaction is followed from (the scheduler). */
    private readonly schedule: Pick<DeploymentSchedule, 'kick'>,
  ) {
    this.guards = new TokenGuards(repo, engine);
  }

  // -- lookups ---------------------------------------------------------------------------------

  /**
   * Tiers with their networks, as read for new tokens, kept for TIER_CACHE_MS: catalogue data that
   * changes rarely (staff re-pricing, a network's RPC URL), read on every deployment's critical
   * path. A change reaches new deployments of this node within that time (docs/decisions/tokens-and-chains.md).
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
    query: Omit<TokenFilter, 'accountId'> & { page: number; size: number },
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
    await this.guards.requireQuota(caller.accountId);
    const usable = await this.guards.usableNetworks(caller);
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
    const network = await this.guards.location(caller, query.networkId);
    await seedTokenTiers(this.repo, [network.id]); // a network added after start-up
    if (query.deploymentType === 'QUANT' && !this.engine.deployerFor(network)) return { tiers: [] };
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
    await this.guards.requireQuota(caller.accountId);
    const activated = await this.repo.activatedNetworks(caller.accountId);
    await this.guards.usableNetworks(caller, activated);
    const network = await this.guards.location(caller, body.networkId, activated);
    const tier = await this.guards.tierFor(network, body);
    const invalidParams = tokenFormErrors(tier.tokenType, tier.tierType, body, 'json');
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
          await this.guards.inOrder(caller, body); // throws the refusal, in the spec's order
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
    const form = located && this.guards.checkLocally(caller, body, located);
    if (!located || !form) {
      await this.guards.inOrder(caller, body, located?.tier ?? null);
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
        await this.repo.changeStatus(token.id, 'ACTIVE', 'DEPRECATED');
      } else if (to === 'ACTIVE' && from === 'DEPRECATED') {
        await this.repo.changeStatus(token.id, 'DEPRECATED', 'ACTIVE');
      } else if (to === 'ACTIVE' && from === 'UNPAID') {
        const amount = tierCreditAmount(tier, token.deploymentType) ?? 0;
        await this.guards.requireCredits(caller.accountId, amount);
        const paid = await this.repo.transaction(async (repo) => {
          const current = await repo.lockUnpaid(token.id);
          if (!current) return true;
          if (amount > 0) return chargeToken(repo, current, amount);
          await repo.changeStatus(token.id, 'UNPAID', 'ACTIVE');
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
    const form = this.guards.parseForm(tier, body);
    const updated = await this.repo.editUnsent(token.id, formColumns(form));
    if (!updated) throw problem('TOKEN_NOT_EDITABLE');
    return this.withDeployment((await this.repo.token(caller.accountId, token.id))!);
  }

  /**
   * DELETE /token/{externalId}: cancels a deployment not sent yet (or removes a failed one). An
   * unsent platform deployment gives its credits back; an unsent wallet deployment does not: its
   * bytecode — what the wallet method costs (spec §5) — was handed out when it was created, and
   * the customer may have deployed it themselves (issue 27 review).
   */
  async remove(caller: Caller, externalId: string): Promise<void> {
    const row = await this.repo.tokenByExternalId(caller.accountId, externalId);
    if (!row) throw problem('TOKEN_NOT_FOUND');
    const deleted = await this.repo.transaction(async (repo) => {
      const gone = await repo.deleteCancellable(caller.accountId, row.token.id);
      // A failed token gave its credits and its tokens:create unit back when it failed.
      if (gone && gone.status === 'PENDING') {
        if (!bytecodeHandedOut(gone)) await refundCharge(repo, gone, 'cancelled');
        await repo.releaseQuota(caller.accountId);
      }
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
      updated = await this.repo.trackWalletTx(token.id, body.txHash);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw fieldProblem('TX_HASH_TAKEN', 'txHash');
      }
      throw err;
    }
    if (!updated) throw problem('TOKEN_ALREADY_TRACKED');
    this.schedule.kick(token.id);
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

/**
 * A wallet deployment hands its bytecode to the customer when it is created (its create answer,
 * and every read while unsent, carry it): what it was charged for was delivered, so deleting it
 * unsent refunds nothing.
 */
function bytecodeHandedOut(token: TokenRow): boolean {
  return token.deploymentType === 'META_MASK';
}
