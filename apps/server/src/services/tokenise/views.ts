import { toChecksumAddress, type TCreateTokenResponse, type TToken, type TTokenForm } from '@connect/shared';
import { deploymentData } from './deployment-data.ts';
import type { TokenFormColumns, TokenWithRefs } from './repository.ts';

/* A token row as the API shows it, and the token form as the row stores it. */

/** The columns of a parsed form; addresses in their EIP-55 checksum form. */
export function formColumns(form: TTokenForm): TokenFormColumns {
  const address = (value: string | undefined) => (value ? toChecksumAddress(value) : null);
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
export function walletDeployment({ token, network }: TokenWithRefs): TCreateTokenResponse['deployment'] {
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
