import {
  blockchainIdOf,
  NETWORK_MESSAGES,
  unavailableReason,
  type KycStatus,
  type TInvalidParam,
  type TNetworkAllowance,
  type TNetworkUnavailableReason,
} from '@connect/shared';
import type { Allowances } from './repository.ts';

/*
 * The network allowances (spec §2.3, §9): blockchains (0 means all), mainnets and testnets,
 * counted with the networks the account has active, and mainnets only with a verified identity.
 * Integrate asks here before it activates; its catalogue shows the same answers.
 */

/** A catalogue network as the allowances see it. */
export type NetworkFacts = { id: string; name: string; networkType: 'testnet' | 'mainnet'; technology: string };
/** The account as the network allowances see it: its allowances, its user's identity, its active networks. */
export type NetworkAccount = {
  allowances: Allowances;
  kycStatus: KycStatus;
  activated: Pick<NetworkFacts, 'id' | 'networkType' | 'technology'>[];
};

function blockchainsInUse(account: NetworkAccount): string[] {
  return [...new Set(account.activated.map((row) => blockchainIdOf(row.technology)))];
}

/** The account's active catalogue networks of one type (what the mainnets and testnets allowances count). */
function networksOfType(account: NetworkAccount, type: 'testnet' | 'mainnet'): number {
  return account.activated.filter((row) => row.networkType === type).length;
}

/** Why a network cannot be activated, in words, with the allowances' figures. */
export function reasonMessage(reason: TNetworkUnavailableReason, allowances: Allowances): string {
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
      return NETWORK_MESSAGES.mainnetAllowance(allowances.mainnets);
    case 'TESTNET_ALLOWANCE':
      return NETWORK_MESSAGES.testnetAllowance(allowances.testnets);
    case 'BLOCKCHAIN_ALLOWANCE':
      return NETWORK_MESSAGES.blockchainAllowance(allowances.blockchains);
  }
}

/** The allowance line of the catalogue and the environment manager. */
export function networkAllowance(account: NetworkAccount): TNetworkAllowance {
  const used = blockchainsInUse(account).length;
  const { blockchains, mainnets, testnets, rateLimit } = account.allowances;
  return {
    blockchainAllowance: blockchains,
    blockchainsUsed: used,
    blockchainsLeft: blockchains > 0 ? Math.max(0, blockchains - used) : null,
    mainnetsAllowed: mainnets > 0,
    mainnetAllowance: mainnets,
    testnetAllowance: testnets,
    rateLimit,
    kycStatus: account.kycStatus,
  };
}

/** Why one more network (not active yet) cannot be activated now, or null when it can. */
export function networkReason(
  network: NetworkFacts & { hasRpcUrl: boolean },
  account: NetworkAccount,
): TNetworkUnavailableReason | null {
  const { allowances } = account;
  return unavailableReason(network, {
    inService: allowances.inService,
    mainnetsAllowed: allowances.mainnets > 0,
    kycStatus: account.kycStatus,
    blockchainAllowance: allowances.blockchains,
    blockchainsInUse: blockchainsInUse(account),
    mainnetAllowance: allowances.mainnets,
    mainnetsInUse: networksOfType(account, 'mainnet'),
    testnetAllowance: allowances.testnets,
    testnetsInUse: networksOfType(account, 'testnet'),
  });
}

/**
 * Whether a selection of networks may be activated together. Each entry is a network not active
 * yet (null: no such network): it must have an RPC URL and, for mainnets, be allowed by the plan
 * and follow a verified identity (field errors `networkIds.<index>`); together with the active ones
 * they must fit the blockchains, mainnets and testnets allowances (errors on `networkIds`). Only
 * additions are counted: after a downgrade below an allowance, what the account has stays, and
 * more networks of the blockchains in use stay possible. Answers the errors (none: the selection
 * fits). The caller holds the account's lock (EntitlementsRepository.allowances with forUpdate)
 * until it has written the activation, so two selections are checked one after the other.
 */
export function selectionErrors<N extends NetworkFacts & { hasRpcUrl: boolean }>(
  account: NetworkAccount,
  selection: { index: number; network: N | null }[],
): { errors: TInvalidParam[]; toActivate: N[] } {
  const { allowances } = account;
  const errors: TInvalidParam[] = [];
  const toActivate: N[] = [];
  for (const { index, network } of selection) {
    const name = `networkIds.${index}`;
    if (!network) {
      errors.push({ name, reason: NETWORK_MESSAGES.unknownNetwork });
      continue;
    }
    // The allowances are applied below to the whole selection, not one network at a time.
    const reason = unavailableReason(network, {
      mainnetsAllowed: allowances.mainnets > 0,
      kycStatus: account.kycStatus,
      blockchainAllowance: 0,
      blockchainsInUse: [],
    });
    if (reason) errors.push({ name, reason: `${network.name}: ${reasonMessage(reason, allowances)}` });
    else toActivate.push(network);
  }
  const inUse = new Set(blockchainsInUse(account));
  const wanted = new Set([...inUse, ...toActivate.map((row) => blockchainIdOf(row.technology))]);
  const { blockchains } = allowances;
  if (blockchains > 0 && wanted.size > inUse.size && wanted.size > blockchains) {
    errors.push({
      name: 'networkIds',
      reason: `${NETWORK_MESSAGES.blockchainAllowance(blockchains)}: this selection would use ${wanted.size}`,
    });
  }
  for (const [type, allowance, message] of [
    ['mainnet', allowances.mainnets, NETWORK_MESSAGES.mainnetAllowance],
    ['testnet', allowances.testnets, NETWORK_MESSAGES.testnetAllowance],
  ] as const) {
    const added = toActivate.filter((row) => row.networkType === type).length;
    const total = networksOfType(account, type) + added;
    // Mainnets none at all are said per network (PLAN_MAINNETS) above.
    if (added > 0 && total > allowance && !(type === 'mainnet' && allowance === 0)) {
      errors.push({ name: 'networkIds', reason: `${message(allowance)}: this selection would use ${total}` });
    }
  }
  return { errors, toActivate };
}
