import { decodeErrorResult, type Hex } from 'viem';
import { deployData, getTier, type TokenParams } from '@connect/contracts';
import type { TokenFormColumns, TokenRow } from './repository.ts';

/** The columns of a token its deployment data is built from (a row, or one about to be inserted). */
export type DeployableToken = TokenFormColumns & Pick<TokenRow, 'tokenType' | 'tierType'>;

/** Constructor parameters of a token as stored: amounts scale by decimals for QRC20. */
export function tokenParams(token: DeployableToken): TokenParams {
  const scale = token.tokenType === 'QRC20' ? 10n ** BigInt(token.decimals) : 1n;
  const params: TokenParams = {
    name: token.name,
    symbol: token.unit,
    initialSupply: BigInt(token.initialSupply) * scale,
    supplyHolder: token.supplyHolderAddress as Hex,
  };
  if (token.tokenType === 'QRC20') params.decimals = token.decimals;
  else params.baseUri = token.tokenUri ?? '';
  if (token.tierType !== 'base') {
    params.minter = token.minterAddress as Hex;
    params.maxSupply = BigInt(token.maxSupply ?? '0') * scale;
    params.remintable = token.remintable;
  }
  if (token.tierType === 'vari') params.owner = token.ownerAddress as Hex;
  return params;
}

/** The exact data of the deployment transaction: creation bytecode + ABI-encoded constructor arguments. */
export function deploymentData(token: DeployableToken): Hex {
  return deployData(token.tokenType, token.tierType, tokenParams(token));
}

/** The contract's custom error of a revert (e.g. `ERC20InvalidReceiver(0x0000…)`), when it decodes. */
export function describeRevert(token: DeployableToken, data: unknown): string | null {
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]{8}/.test(data)) return null;
  try {
    const { errorName, args } = decodeErrorResult({
      abi: getTier(token.tokenType, token.tierType).abi,
      data: data as Hex,
    });
    return `${errorName}(${(args ?? []).map(String).join(', ')})`;
  } catch {
    return null;
  }
}
