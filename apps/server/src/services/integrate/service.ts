import {
  blockchainIdOf,
  NETWORK_MESSAGES,
  type FeatureName,
  type TActivateNetworksResponse,
  type TCatalogueNetwork,
  type TCatalogueResponse,
  type TEnvironmentManagerResponse,
  type TNetworkType,
  type TPrivateNetworkRequest,
  type TPrivateNetworkValidation,
  type TUserNetwork,
} from '@connect/shared';
import { badRequest, notFound, problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import {
  networkAllowance,
  networkReason,
  selectionErrors,
  type Entitlements,
  type NetworkAccount,
} from '../entitlements/index.ts';
import type { ActivatedNetworkRow, IntegrateRepository, NetworkRow, PrivateNetworkRow } from './repository.ts';
import { checkPrivateNetworkRpc, privateNetworkProbe, type RpcProbeFn } from './rpc-check.ts';

/** The account as the network allowances see it, with its active networks' rows. */
type AccountState = Omit<NetworkAccount, 'activated'> & { activated: ActivatedNetworkRow[] };

/**
 * The integrate service (spec §2.3–§2.5, §5, §7): the network catalogue with what the caller may
 * activate, the account's networks, the environment manager, and private networks: their
 * submission and removal request (staff review them in review-service.ts).
 */
export class IntegrateService {
  private readonly entitlements: Entitlements;

  constructor(
    private readonly repo: IntegrateRepository,
    private readonly probe: RpcProbeFn = privateNetworkProbe({ allowPrivateAddresses: true }),
  ) {
    this.entitlements = repo.entitlements();
  }

  /** A feature the account does not have answers 404 FEATURE_UNAVAILABLE (see Entitlements.requireFeature). */
  async requireFeature(caller: PortalUser, feature: FeatureName): Promise<void> {
    await this.entitlements.requireFeature(caller.accountId, feature);
  }

  // ---- public networks -------------------------------------------------------------------

  async catalogue(caller: PortalUser): Promise<TCatalogueResponse> {
    const [state, catalogue] = await Promise.all([this.accountState(this.repo, caller), this.repo.catalogue()]);
    return { allowance: networkAllowance(state), networks: catalogue.map((row) => toCatalogueNetwork(row, state)) };
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
      if (!state.allowances.inService) throw problem('PLAN_INACTIVE');
      const found = new Map((await repo.networksByIds(ids)).map((row) => [row.id, row]));
      const activeIds = new Set(state.activated.map((row) => row.id));
      const selection = ids.flatMap((id, index) => {
        const row = found.get(id);
        if (row && activeIds.has(row.id)) return []; // kept as it is
        return [{ index, network: row ? { ...row, hasRpcUrl: Boolean(row.rpcUrl) } : null }];
      });
      const { errors, toActivate } = selectionErrors(state, selection);
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
      return {
        activated: activatedIds,
        networks: activated.map((row) => toUserNetwork(row, state.allowances.rateLimit)),
      };
    });
  }

  /** My networks: the account's activated networks of a type, or all (private ones only with the feature). */
  async userNetworks(caller: PortalUser, networkType?: TNetworkType): Promise<TUserNetwork[]> {
    if (networkType === 'private') {
      await this.requireFeature(caller, 'privateNetwork');
      return (await this.repo.privateNetworks(caller.accountId)).map(toPrivateUserNetwork);
    }
    const [activated, allowances] = await Promise.all([
      this.repo.activatedNetworks(caller.accountId, networkType),
      this.entitlements.allowances(caller.accountId),
    ]);
    const publicRows = activated.map((row) => toUserNetwork(row, allowances?.rateLimit ?? 0));
    if (networkType || !(await this.entitlements.hasFeature(caller.accountId, 'privateNetwork'))) return publicRows;
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
    const { errors, probe } = await checkPrivateNetworkRpc(this.probe, input);
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
    const { errors } = await checkPrivateNetworkRpc(this.probe, input);
    return this.repo.transaction(async (repo) => {
      const allowances = await repo.entitlements().allowances(caller.accountId, { forUpdate: true });
      if (!allowances) throw notFound('ACCOUNT_NOT_FOUND');
      // Nothing new while the plan is out of service; the networks the account has stay.
      if (!allowances.inService) throw problem('PLAN_INACTIVE');
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

  private async accountState(
    repo: IntegrateRepository,
    caller: PortalUser,
    options: { forUpdate?: boolean } = {},
  ): Promise<AccountState> {
    const allowances = await repo.entitlements().allowances(caller.accountId, options);
    if (!allowances) throw notFound('ACCOUNT_NOT_FOUND');
    const [kycStatus, activated] = await Promise.all([
      repo.kycStatus(caller.id),
      repo.activatedNetworks(caller.accountId),
    ]);
    return { allowances, kycStatus, activated };
  }
}

function toCatalogueNetwork(row: NetworkRow, state: AccountState): TCatalogueNetwork {
  const active = state.activated.find((a) => a.id === row.id);
  const reason = active ? null : networkReason({ ...row, hasRpcUrl: Boolean(row.rpcUrl) }, state);
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
    networkRateLimit: state.allowances.rateLimit,
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
