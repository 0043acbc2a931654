import {
  blockchainIdOf,
  isFeatureAvailable,
  NETWORK_MESSAGES,
  unavailableReason,
  type FeatureName,
  type KycStatus,
  type TActivateNetworksResponse,
  type TCatalogueNetwork,
  type TCatalogueResponse,
  type TEnvironmentManagerResponse,
  type TInvalidParam,
  type TNetworkAllowance,
  type TNetworkUnavailableReason,
  type TNetworkType,
  type TPrivateNetworkRequest,
  type TPrivateNetworkReviewRequest,
  type TPrivateNetworkStatus,
  type TPrivateNetworkValidation,
  type TUserNetwork,
} from '@connect/shared';
import type { Resolver } from '../../adapters/chains/address-policy.ts';
import { probeRpc, RpcError, type RpcProbe } from '../../adapters/chains/rpc.ts';
import { badRequest, notFound, problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type {
  AccountPlanRow,
  ActivatedNetworkRow,
  IntegrateRepository,
  NetworkRow,
  PrivateNetworkRow,
} from './repository.ts';

/** How the server reads an RPC URL before accepting a private network (tests may replace it). */
export type RpcProbeFn = (url: string) => Promise<RpcProbe>;

/** Largest answer read from a user's node: a latest block with transaction hashes fits easily. */
const PROBE_MAX_RESPONSE_BYTES = 1024 * 1024;
const PROBE_TIMEOUT_MS = 5_000;

/**
 * The real probe of a user's RPC URL: at most 5 s and 1 MiB per call, and, unless private
 * addresses are allowed (PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES), only public addresses, the one
 * checked being the one connected to, no redirects.
 */
export function privateNetworkProbe(options: {
  allowPrivateAddresses: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
}): RpcProbeFn {
  return (url) =>
    probeRpc(url, {
      timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
      maxResponseBytes: PROBE_MAX_RESPONSE_BYTES,
      allowPrivateAddresses: options.allowPrivateAddresses,
      resolve: options.resolve,
    });
}

/** Why a network cannot be activated, in words, with the plan's figures. */
function reasonMessage(reason: TNetworkUnavailableReason, plan: AccountPlanRow): string {
  switch (reason) {
    case 'NO_RPC_URL':
      return NETWORK_MESSAGES.noRpcUrl;
    case 'PLAN_INACTIVE':
      return NETWORK_MESSAGES.planInactive;
    case 'PLAN_MAINNETS':
      return NETWORK_MESSAGES.planMainnets;
    case 'KYC_REQUIRED':
      return NETWORK_MESSAGES.kycRequired;
    case 'MAINNET_ALLOWANCE':
      return NETWORK_MESSAGES.mainnetAllowance(plan.mainnets);
    case 'TESTNET_ALLOWANCE':
      return NETWORK_MESSAGES.testnetAllowance(plan.testnets);
    case 'BLOCKCHAIN_ALLOWANCE':
      return NETWORK_MESSAGES.blockchainAllowance(plan.blockchains);
  }
}

type AccountState = {
  plan: AccountPlanRow;
  kycStatus: KycStatus;
  activated: ActivatedNetworkRow[];
};

/**
 * The integrate service (spec §2.3–§2.5, §5, §7): the network catalogue with what the caller may
 * activate, the account's networks, the environment manager, and private networks with their
 * review and removal lifecycle.
 */
export class IntegrateService {
  constructor(
    private readonly repo: IntegrateRepository,
    private readonly probe: RpcProbeFn = privateNetworkProbe({ allowPrivateAddresses: true }),
  ) {}

  /**
   * A feature the account does not have answers 404, as the SPA's routes do (spec §4): a 403
   * would sign the user out (spec §8), which is wrong for a plan that lacks a feature.
   */
  async requireFeature(caller: PortalUser, feature: FeatureName): Promise<void> {
    const rows = await this.repo.accountFeatures(caller.accountId);
    const features = Object.fromEntries(rows.map((row) => [row.feature, { t: row.total, a: row.used }]));
    if (!isFeatureAvailable(features, feature)) throw notFound('FEATURE_UNAVAILABLE');
  }

  private async hasFeature(caller: PortalUser, feature: FeatureName): Promise<boolean> {
    try {
      await this.requireFeature(caller, feature);
      return true;
    } catch {
      return false;
    }
  }

  // ---- public networks -------------------------------------------------------------------

  async catalogue(caller: PortalUser): Promise<TCatalogueResponse> {
    const [state, catalogue] = await Promise.all([this.accountState(this.repo, caller), this.repo.catalogue()]);
    return { allowance: allowanceOf(state), networks: catalogue.map((row) => toCatalogueNetwork(row, state)) };
  }

  /**
   * Activates every selected network for the account, or none: each must exist, have an RPC URL,
   * and (for mainnets) be allowed by the plan and follow a verified identity; together they must
   * fit the plan's allowances — blockchains (spec §9: 0 means all), mainnets and testnets, counted
   * with the networks already active. Already active networks are kept as they are, so sending the
   * same selection twice is harmless; and they stay active when a downgrade leaves the account
   * above an allowance (only new ones are refused). A plan out of service activates nothing.
   */
  async activate(caller: PortalUser, networkIds: string[]): Promise<TActivateNetworksResponse> {
    const ids = [...new Set(networkIds.map((id) => id.toLowerCase()))];
    return this.repo.transaction(async (repo) => {
      const state = await this.accountState(repo, caller, { forUpdate: true });
      if (!state.plan.inService) throw problem('PLAN_INACTIVE');
      const found = new Map((await repo.networksByIds(ids)).map((row) => [row.id, row]));
      const activeIds = new Set(state.activated.map((row) => row.id));
      const inUse = new Set(state.activated.map((row) => blockchainIdOf(row.technology)));
      const errors: TInvalidParam[] = [];
      const toActivate: NetworkRow[] = [];
      ids.forEach((id, index) => {
        const name = `networkIds.${index}`;
        const row = found.get(id);
        if (!row) return errors.push({ name, reason: NETWORK_MESSAGES.unknownNetwork });
        if (activeIds.has(row.id)) return;
        // The allowances are applied below to the whole selection, not one network at a time.
        const reason = unavailableReason(
          { networkType: row.networkType, technology: row.technology, hasRpcUrl: Boolean(row.rpcUrl) },
          {
            mainnetsAllowed: state.plan.mainnets > 0,
            kycStatus: state.kycStatus,
            blockchainAllowance: 0,
            blockchainsInUse: [],
          },
        );
        if (reason) return errors.push({ name, reason: `${row.name}: ${reasonMessage(reason, state.plan)}` });
        toActivate.push(row);
      });
      const { blockchains, mainnets, testnets } = state.plan;
      const wanted = new Set([...inUse, ...toActivate.map((row) => blockchainIdOf(row.technology))]);
      // Only a selection that adds blockchains is counted: after a downgrade below the allowance,
      // more networks of the blockchains in use stay possible.
      if (blockchains > 0 && wanted.size > inUse.size && wanted.size > blockchains) {
        errors.push({
          name: 'networkIds',
          reason: `${NETWORK_MESSAGES.blockchainAllowance(blockchains)}: this selection would use ${wanted.size}`,
        });
      }
      for (const [type, allowance, message] of [
        ['mainnet', mainnets, NETWORK_MESSAGES.mainnetAllowance],
        ['testnet', testnets, NETWORK_MESSAGES.testnetAllowance],
      ] as const) {
        const added = toActivate.filter((row) => row.networkType === type).length;
        const total = networksOfType(state, type) + added;
        // Mainnets none at all are said per network (PLAN_MAINNETS) above.
        if (added > 0 && total > allowance && !(type === 'mainnet' && allowance === 0)) {
          errors.push({ name: 'networkIds', reason: `${message(allowance)}: this selection would use ${total}` });
        }
      }
      if (errors.length) throw badRequest(errors);
      const activatedIds = toActivate.map((row) => row.id);
      await repo.activate(caller.accountId, caller.id, activatedIds);
      if (activatedIds.length) {
        await repo.announce('network.activated', {
          accountId: caller.accountId,
          userId: caller.id,
          networkIds: activatedIds,
        });
      }
      const activated = await repo.activatedNetworks(caller.accountId);
      return { activated: activatedIds, networks: activated.map((row) => toUserNetwork(row, state.plan.rateLimit)) };
    });
  }

  /** My networks: the account's activated networks of a type, or all (private ones only with the feature). */
  async userNetworks(caller: PortalUser, networkType?: TNetworkType): Promise<TUserNetwork[]> {
    if (networkType === 'private') {
      await this.requireFeature(caller, 'privateNetwork');
      return (await this.repo.privateNetworks(caller.accountId)).map(toPrivateUserNetwork);
    }
    const [activated, plan] = await Promise.all([
      this.repo.activatedNetworks(caller.accountId, networkType),
      this.repo.account(caller.accountId),
    ]);
    const publicRows = activated.map((row) => toUserNetwork(row, plan?.rateLimit ?? 0));
    if (networkType || !(await this.hasFeature(caller, 'privateNetwork'))) return publicRows;
    return [...publicRows, ...(await this.repo.privateNetworks(caller.accountId)).map(toPrivateUserNetwork)];
  }

  /** The environment manager's blockchains (spec §3 Integrate state), each with its networks. */
  async environmentManager(caller: PortalUser, accountId: string): Promise<TEnvironmentManagerResponse> {
    // Only the caller's own account exists here; any other id, real or not, is "not found".
    if (accountId.toLowerCase() !== caller.accountId.toLowerCase()) throw notFound('ACCOUNT_NOT_FOUND');
    const { allowance, networks } = await this.catalogue(caller);
    const groups = new Map<string, TCatalogueNetwork[]>();
    for (const network of networks) {
      const key = blockchainIdOf(network.technology);
      groups.set(key, [...(groups.get(key) ?? []), network]);
    }
    return {
      accountId: caller.accountId,
      allowance,
      blockchains: [...groups.entries()].map(([externalId, members]) => ({
        externalId,
        blockchain: members[0]!.technology,
        technology: members[0]!.technology,
        description: members.find((n) => n.description)?.description ?? '',
        blockchainCount: members.length,
        selected: members.some((n) => n.activated),
        networks: members,
      })),
    };
  }

  // ---- private networks ------------------------------------------------------------------

  /** Checks a private network's details and its RPC URL without saving anything. */
  async validatePrivateNetwork(caller: PortalUser, input: TPrivateNetworkRequest): Promise<TPrivateNetworkValidation> {
    await this.requireFeature(caller, 'privateNetwork');
    const nameTaken = await this.repo.privateNameTaken(caller.accountId, input.name);
    const { errors, probe } = await this.checkRpc(input);
    if (nameTaken) errors.unshift({ name: 'name', reason: NETWORK_MESSAGES.nameTaken });
    if (errors.length || !probe) throw badRequest(errors);
    return {
      valid: true,
      chainId: probe.chainId,
      latestBlock: Number(probe.latestBlock),
      eip1559: probe.baseFeePerGas !== null,
    };
  }

  /**
   * Submits a private network for review (spec §5: answer within 5 working days). The RPC URL is
   * read first, outside the transaction, so no lock is held while a slow node answers; the name
   * is checked again under the account lock so two submissions cannot take one name.
   */
  async createPrivateNetwork(caller: PortalUser, input: TPrivateNetworkRequest): Promise<TUserNetwork> {
    await this.requireFeature(caller, 'privateNetwork');
    const { errors } = await this.checkRpc(input);
    return this.repo.transaction(async (repo) => {
      const plan = await repo.account(caller.accountId, { forUpdate: true });
      if (!plan) throw notFound('ACCOUNT_NOT_FOUND');
      // Nothing new while the plan is out of service; the networks the account has stay.
      if (!plan.inService) throw problem('PLAN_INACTIVE');
      if (await repo.privateNameTaken(caller.accountId, input.name)) {
        errors.unshift({ name: 'name', reason: NETWORK_MESSAGES.nameTaken });
      }
      if (errors.length) throw badRequest(errors);
      return toPrivateUserNetwork(await repo.insertPrivateNetwork(caller.accountId, caller.id, input));
    });
  }

  /**
   * Asks for a private network's removal (spec §5: 2–5 working days; staff complete it). A
   * rejected network was never set up, so it is removed at once.
   */
  async requestRemoval(caller: PortalUser, id: string): Promise<TUserNetwork> {
    await this.requireFeature(caller, 'privateNetwork');
    return this.repo.transaction(async (repo) => {
      const row = await repo.privateNetwork(id, caller.accountId, { forUpdate: true });
      if (!row) throw notFound('NETWORK_NOT_FOUND');
      const now = new Date();
      switch (row.status) {
        case 'UNDER_REVIEW':
        case 'ACTIVE':
          return toPrivateUserNetwork(
            await repo.updatePrivateNetwork(row.id, { status: 'REMOVAL_REQUESTED', removalRequestedAt: now }),
          );
        case 'REJECTED':
          return toPrivateUserNetwork(
            await repo.updatePrivateNetwork(row.id, { status: 'REMOVED', removalRequestedAt: now, removedAt: now }),
          );
        case 'REMOVAL_REQUESTED':
          throw problem('NETWORK_REMOVAL_REQUESTED');
        case 'REMOVED':
          throw problem('NETWORK_REMOVED');
      }
    });
  }

  async reviewQueue(status?: TPrivateNetworkStatus) {
    const rows = await this.repo.allPrivateNetworks(status);
    return rows.map((row) => ({ ...toPrivateUserNetwork(row), accountId: row.accountId }));
  }

  /**
   * Staff decisions: approve or reject a network under review (announced, so the submitter is
   * told), or complete a requested removal.
   */
  async review(id: string, input: TPrivateNetworkReviewRequest) {
    return this.repo.transaction(async (repo) => {
      const row = await repo.privateNetwork(id, null, { forUpdate: true });
      if (!row) throw notFound('NETWORK_NOT_FOUND');
      const now = new Date();
      const note = input.note ?? null;
      let updated: PrivateNetworkRow;
      if (input.decision === 'COMPLETE_REMOVAL') {
        if (row.status !== 'REMOVAL_REQUESTED') {
          throw problem('NETWORK_NOT_REMOVABLE', {
            detail: `Only a network whose removal was requested can be removed (this one is ${row.status}).`,
          });
        }
        updated = await repo.updatePrivateNetwork(row.id, { status: 'REMOVED', removedAt: now });
      } else {
        if (row.status !== 'UNDER_REVIEW') {
          throw problem('NETWORK_NOT_UNDER_REVIEW', {
            detail: `Only a network under review can be approved or rejected (this one is ${row.status}).`,
          });
        }
        updated = await repo.updatePrivateNetwork(row.id, {
          status: input.decision === 'APPROVE' ? 'ACTIVE' : 'REJECTED',
          reviewedAt: now,
          reviewNote: note,
        });
        await repo.announce('network.review_decided', {
          accountId: updated.accountId,
          networkId: updated.id,
          networkName: updated.name,
          requestedBy: updated.createdBy,
          decision: input.decision === 'APPROVE' ? 'APPROVED' : 'REJECTED',
          note,
        });
      }
      return { ...toPrivateUserNetwork(updated), accountId: updated.accountId };
    });
  }

  /**
   * Reads the RPC URL for real: it must answer JSON-RPC, report the entered chain id, and have a
   * base fee in its latest block exactly when EIP-1559 is switched on. Each failure is a field error.
   */
  private async checkRpc(input: TPrivateNetworkRequest): Promise<{ errors: TInvalidParam[]; probe: RpcProbe | null }> {
    let probe: RpcProbe;
    try {
      probe = await this.probe(input.url);
    } catch (err) {
      if (err instanceof RpcError && err.kind === 'BLOCKED') {
        return { errors: [{ name: 'url', reason: NETWORK_MESSAGES.urlPrivateAddress }], probe: null };
      }
      // Whatever else failed (refused, timed out, not JSON-RPC), the user can only fix the URL or the node.
      return { errors: [{ name: 'url', reason: NETWORK_MESSAGES.rpcUnreachable }], probe: null };
    }
    const errors: TInvalidParam[] = [];
    if (probe.chainId !== input.chainId) {
      errors.push({ name: 'chainId', reason: NETWORK_MESSAGES.chainIdMismatch(probe.chainId, input.chainId) });
    }
    const hasBaseFee = probe.baseFeePerGas !== null;
    if (input.eip1559 && !hasBaseFee) errors.push({ name: 'eip1559', reason: NETWORK_MESSAGES.eip1559Unsupported });
    if (!input.eip1559 && hasBaseFee) errors.push({ name: 'eip1559', reason: NETWORK_MESSAGES.eip1559Supported });
    return { errors, probe };
  }

  private async accountState(
    repo: IntegrateRepository,
    caller: PortalUser,
    options: { forUpdate?: boolean } = {},
  ): Promise<AccountState> {
    const plan = await repo.account(caller.accountId, options);
    if (!plan) throw notFound('ACCOUNT_NOT_FOUND');
    const [kycStatus, activated] = await Promise.all([
      repo.kycStatus(caller.id),
      repo.activatedNetworks(caller.accountId),
    ]);
    return { plan, kycStatus, activated };
  }
}

function blockchainsInUse(state: AccountState): string[] {
  return [...new Set(state.activated.map((row) => blockchainIdOf(row.technology)))];
}

/** The account's active catalogue networks of one type (what the mainnets and testnets allowances count). */
function networksOfType(state: AccountState, type: 'testnet' | 'mainnet'): number {
  return state.activated.filter((row) => row.networkType === type).length;
}

function allowanceOf(state: AccountState): TNetworkAllowance {
  const used = blockchainsInUse(state).length;
  const allowance = state.plan.blockchains;
  return {
    blockchainAllowance: allowance,
    blockchainsUsed: used,
    blockchainsLeft: allowance > 0 ? Math.max(0, allowance - used) : null,
    mainnetsAllowed: state.plan.mainnets > 0,
    mainnetAllowance: state.plan.mainnets,
    testnetAllowance: state.plan.testnets,
    rateLimit: state.plan.rateLimit,
    kycStatus: state.kycStatus,
  };
}

function toCatalogueNetwork(row: NetworkRow, state: AccountState): TCatalogueNetwork {
  const active = state.activated.find((a) => a.id === row.id);
  const reason = active
    ? null
    : unavailableReason(
        { networkType: row.networkType, technology: row.technology, hasRpcUrl: Boolean(row.rpcUrl) },
        {
          inService: state.plan.inService,
          mainnetsAllowed: state.plan.mainnets > 0,
          kycStatus: state.kycStatus,
          blockchainAllowance: state.plan.blockchains,
          blockchainsInUse: blockchainsInUse(state),
          mainnetAllowance: state.plan.mainnets,
          mainnetsInUse: networksOfType(state, 'mainnet'),
          testnetAllowance: state.plan.testnets,
          testnetsInUse: networksOfType(state, 'testnet'),
        },
      );
  return {
    id: row.id,
    code: row.code,
    network: row.name,
    networkType: row.networkType,
    technology: row.technology,
    description: row.description,
    chainId: row.chainId,
    explorerUrl: row.explorerUrl,
    // What the gateway enforces for this account, not the network's own (unenforced) column.
    networkRateLimit: state.plan.rateLimit,
    isLocal: row.isLocal,
    status: row.rpcUrl ? row.health : 'NOT_CONFIGURED',
    latestBlock: row.latestBlock,
    activated: Boolean(active),
    activatedDate: active ? active.activatedAt.toISOString() : null,
    activatable: !active && reason === null,
    reason,
  };
}

/**
 * A catalogue network as My networks lists it. `rateLimit` is what the gateway enforces for the
 * account on it: the plan's requests a second per network, shared by its applications (the
 * network's own `rate_limit` column is not enforced, so it is not shown).
 */
function toUserNetwork(row: ActivatedNetworkRow, rateLimit: number): TUserNetwork {
  return {
    id: row.id,
    networkType: row.networkType,
    network: row.name,
    technology: row.technology,
    chainId: row.chainId,
    status: row.rpcUrl ? row.health : 'NOT_CONFIGURED',
    activatedDate: row.activatedAt.toISOString(),
    networkRateLimit: rateLimit,
    latestBlock: row.latestBlock,
    healthCheckedAt: row.healthCheckedAt?.toISOString() ?? null,
    explorerUrl: row.explorerUrl,
    isLocal: row.isLocal,
    private: null,
  };
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

function toPrivateUserNetwork(row: PrivateNetworkRow): TUserNetwork {
  const wasApproved = row.status === 'ACTIVE' || (row.status !== 'REJECTED' && row.reviewedAt !== null);
  return {
    id: row.id,
    networkType: 'private',
    network: row.name,
    // A private network is any EVM chain the customer runs; its family is not asked for (spec §3).
    technology: 'EVM',
    chainId: row.chainId,
    status: row.status,
    activatedDate: wasApproved ? iso(row.reviewedAt) : null,
    networkRateLimit: null,
    latestBlock: null,
    healthCheckedAt: null,
    explorerUrl: null,
    isLocal: false,
    private: {
      environment: row.environment,
      url: row.rpcUrl,
      eip1559: row.eip1559,
      numberOfBlocks: row.blocksForSuccess,
      tokenSymbol: row.tokenSymbol,
      tokenDecimals: row.tokenDecimals,
      nodeType: row.nodeType,
      submittedAt: row.createdAt.toISOString(),
      reviewedAt: iso(row.reviewedAt),
      reviewNote: row.reviewNote,
      removalRequestedAt: iso(row.removalRequestedAt),
      removedAt: iso(row.removedAt),
    },
  };
}
