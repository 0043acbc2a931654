import {
  tierCreditAmount,
  tierOffered,
  tokenFormErrors,
  tokenFormSchema,
  TOKEN_MESSAGES,
  type TDeploymentType,
  type TTokenForm,
  type TTokenType,
} from '@connect/shared';
import { badRequest, fieldProblem, problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import { isIdentityVerified, requireVerifiedIdentity } from '../entitlements/index.ts';
import type { DeploymentEngine } from './deployment.ts';
import type { NetworkRow, TierRow, TokenQuota, TokenRepository } from './repository.ts';

export type Caller = Pick<PortalUser, 'id' | 'accountId' | 'kycStatus'>;
/** Where and what a new token deploys. */
export type Target = { networkId: string; tierId: string; tokenType: TTokenType; deploymentType: TDeploymentType };

/** INSUFFICIENT_CREDITS, saying what the deployment costs and what the account has. */
export const insufficientCredits = (needed: number, available: number) =>
  problem('INSUFFICIENT_CREDITS', { detail: TOKEN_MESSAGES.insufficientCredits(needed, available) });

/**
 * The quota guard: the plan must be in service (PLAN_INACTIVE), and its tokens allowance above
 * what the account has (TOKEN_QUOTA_REACHED; also after a downgrade below its usage).
 */
function requireQuotaLeft(quota: TokenQuota | null): void {
  if (quota && !quota.inService) throw problem('PLAN_INACTIVE');
  if (!quota || quota.used >= quota.total) throw problem('TOKEN_QUOTA_REACHED');
}

/**
 * The guards of a new token (spec §5), in the spec's order: tokens:create quota, configured
 * networks, location (mainnets need a verified identity), tier, form, credits. Each throws its
 * refusal's problem code.
 */
export class TokenGuards {
  constructor(
    private readonly repo: TokenRepository,
    private readonly deployers: Pick<DeploymentEngine, 'deployerFor'>,
  ) {}

  /** Spec §5: no tokens:create quota left → back to Token Flow; a plan out of service → PLAN_INACTIVE. */
  async requireQuota(accountId: string): Promise<void> {
    requireQuotaLeft(await this.repo.quota(accountId));
  }

  /**
   * Where the account can deploy: its activated networks with an RPC URL; mainnets only with a
   * verified identity. None activated → the configure-networks guard (spec §5).
   */
  async usableNetworks(caller: Caller, known?: NetworkRow[]): Promise<NetworkRow[]> {
    const activated = known ?? (await this.repo.activatedNetworks(caller.accountId));
    const reachable = activated.filter((n) => n.rpcUrl);
    const usable = reachable.filter((n) => n.networkType !== 'mainnet' || isIdentityVerified(caller));
    if (usable.length) return usable;
    if (reachable.length) requireVerifiedIdentity(caller); // only mainnets, identity not verified
    throw problem('NETWORKS_NOT_CONFIGURED');
  }

  async location(caller: Caller, networkId: string, known?: NetworkRow[]): Promise<NetworkRow> {
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
  async tierFor(network: NetworkRow, target: Target, known?: TierRow | null): Promise<TierRow> {
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
    if (target.deploymentType === 'QUANT' && !this.deployers.deployerFor(network)) {
      throw fieldProblem('NO_PLATFORM_DEPLOYER', 'deploymentType');
    }
    return tier;
  }

  async requireCredits(accountId: string, amount: number): Promise<number> {
    const credits = await this.repo.credits(accountId);
    if (credits < amount) throw insufficientCredits(amount, credits);
    return credits;
  }

  parseForm(tier: TierRow, body: Record<string, unknown>): TTokenForm {
    const errors = tokenFormErrors(tier.tokenType, tier.tierType, body, 'json');
    if (errors.length) throw badRequest(errors);
    return tokenFormSchema(tier.tokenType, tier.tierType, 'json').parse(body);
  }

  /** The location, tier and form rules that need no read of the account: the parsed form, or null. */
  checkLocally(
    caller: Caller,
    body: Target & Record<string, unknown>,
    { network, tier }: { network: NetworkRow; tier: TierRow },
  ): TTokenForm | null {
    if (network.id !== body.networkId || !network.rpcUrl) return null;
    if (network.networkType === 'mainnet' && !isIdentityVerified(caller)) return null;
    if (!tier.isActive || tier.tokenType !== body.tokenType.toUpperCase() || !tierOffered(tier, body.deploymentType)) {
      return null;
    }
    if (body.deploymentType === 'QUANT' && !this.deployers.deployerFor(network)) return null;
    const parsed = tokenFormSchema(tier.tokenType, tier.tierType, 'json').safeParse(body);
    return parsed.success ? parsed.data : null;
  }

  /**
   * The guards of spec §5 in order — quota, networks, location, tier, form, credits — reading the
   * account's quota, networks and credits together. Throws the first refusal.
   */
  async inOrder(caller: Caller, body: Target & Record<string, unknown>, knownTier?: TierRow | null) {
    const [quota, activated, credits] = await Promise.all([
      this.repo.quota(caller.accountId),
      this.repo.activatedNetworks(caller.accountId),
      this.repo.credits(caller.accountId),
    ]);
    requireQuotaLeft(quota);
    await this.usableNetworks(caller, activated);
    const network = await this.location(caller, body.networkId, activated);
    const tier = await this.tierFor(network, body, knownTier);
    this.parseForm(tier, body);
    const amount = tierCreditAmount(tier, body.deploymentType) ?? 0;
    if (credits < amount) throw insufficientCredits(amount, credits);
  }
}
