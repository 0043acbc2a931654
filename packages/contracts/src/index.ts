import { encodeDeployData, type Abi, type Hex } from 'viem';
import { loadArtifactsFile, type AbiItem, type ArtifactsFile, type CompiledContract } from './compile.ts';

export { compileSources, loadArtifactsFile, ARTIFACTS_FILE, COMPILER_SETTINGS } from './compile.ts';
export type { AbiItem, CompiledContract, ArtifactsFile } from './compile.ts';

/** QRC20: fungible; QRC721: non-fungible. */
export const TOKEN_TYPES = ['QRC20', 'QRC721'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];
/**
 * Smart-contract tiers, each adding to the one before: base → flex → vari.
 *
 * The QRC20 and QRC721 tiers repeat their minter and maximum-supply code (QRC20Flex.sol ~
 * QRC721Flex.sol, the review's duplicate D5) on purpose: each contract is deployed standalone and
 * audited one by one, its errors carry its standard's prefix (QRC20MaxSupplyExceeded,
 * QRC721MaxSupplyExceeded), and the sources are frozen — the compiled runtime code ends in a hash
 * of the source, so even a comment in a .sol file would stop matchesDeployedCode recognising the
 * tokens already on chain. A shared base contract would change every tier's bytecode and ABI.
 */
export const TIER_TYPES = ['base', 'flex', 'vari'] as const;
export type TierType = (typeof TIER_TYPES)[number];

const TIER_INFO: Record<TierType, { name: string; description: Record<TokenType, string> }> = {
  base: {
    name: 'Base',
    description: {
      QRC20: 'A fixed supply issued to one holder at deployment; tokens can be transferred.',
      QRC721:
        'A fixed set of tokens issued to one holder at deployment; tokens can be transferred. Each token has a URI under the base URI.',
    },
  },
  flex: {
    name: 'Flex',
    description: {
      QRC20:
        'Base, plus minting by the minter up to a maximum supply, burning, and a remint option that lets burnt tokens be minted again.',
      QRC721:
        'Base, plus minting by the minter up to a maximum supply, burning, and a remint option that lets burnt tokens be minted again.',
    },
  },
  vari: {
    name: 'Vari',
    description: {
      QRC20: 'Flex, plus an owner who can pause and resume transfers, appoint the minter and hand over ownership.',
      QRC721:
        'Flex, plus an owner who can pause and resume transfers, appoint the minter, change the base URI and hand over ownership.',
    },
  },
};

export type TokenTier = {
  tokenType: TokenType;
  type: TierType;
  /** Display name: Base, Flex, Vari. */
  name: string;
  description: string;
  contractName: string;
  /** The contract's function names from its compiled ABI, sorted. */
  functions: string[];
  abi: Abi;
  bytecode: Hex;
  compiled: CompiledContract;
};

export const contractName = (tokenType: TokenType, type: TierType) =>
  `${tokenType}${type[0]!.toUpperCase()}${type.slice(1)}`;

/** Function names of an ABI (overloads once), sorted case-insensitively. */
export function tierFunctions(abi: readonly AbiItem[] | Abi): string[] {
  const names = new Set<string>();
  for (const item of abi as readonly AbiItem[]) if (item.type === 'function' && item.name) names.add(item.name);
  return [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b));
}

/**
 * The tiers built so far, per artefacts file: reading the sources to check the cache key (what
 * loadArtifactsFile does) costs milliseconds, and a deployment asks for its tier several times.
 */
const tiers = new Map<string, TokenTier>();
let tiersOf: ArtifactsFile | undefined;

/** One tier with its compiled contract (compiled on first use; see compile.ts; then kept by this process). */
export function getTier(tokenType: TokenType, type: TierType): TokenTier {
  const name = contractName(tokenType, type);
  const known = tiers.get(name);
  if (known) return known;
  const artifacts = loadArtifactsFile();
  if (artifacts !== tiersOf) {
    tiers.clear();
    tiersOf = artifacts;
  }
  const compiled = artifacts.contracts[name];
  if (!compiled) throw new Error(`Contract ${name} is missing from the compiled artefacts`);
  const tier: TokenTier = {
    tokenType,
    type,
    name: TIER_INFO[type].name,
    description: TIER_INFO[type].description[tokenType],
    contractName: name,
    functions: tierFunctions(compiled.abi),
    abi: compiled.abi as Abi,
    bytecode: compiled.bytecode,
    compiled,
  };
  tiers.set(name, tier);
  return tier;
}

/** The tiers of one token type (or all), in tier order. */
export function listTiers(tokenType?: TokenType): TokenTier[] {
  const types = tokenType ? [tokenType] : TOKEN_TYPES;
  return types.flatMap((t) => TIER_TYPES.map((tier) => getTier(t, tier)));
}

/** The QNT ERC-20 of the local chains (contracts/QNT.sol): "Quant", QNT, 18 decimals. */
export type QntContract = { abi: Abi; bytecode: Hex; compiled: CompiledContract };

/** The compiled QNT contract (compiled on first use; see compile.ts). */
export function getQntContract(): QntContract {
  const compiled = loadArtifactsFile().contracts.QNT;
  if (!compiled) throw new Error('Contract QNT is missing from the compiled artefacts');
  return { abi: compiled.abi as Abi, bytecode: compiled.bytecode, compiled };
}

/** The data of a transaction deploying QNT: `amountEach` base units (wei) minted to each holder. */
export function qntDeployData(holders: readonly Hex[], amountEach: bigint): Hex {
  const { abi, bytecode } = getQntContract();
  return encodeDeployData({ abi, bytecode, args: [holders, amountEach] });
}

export type TokenParams = {
  name: string;
  symbol: string;
  /** Base units (whole tokens × 10^decimals for QRC20; a count of tokens for QRC721). */
  initialSupply: bigint;
  supplyHolder: Hex;
  /** QRC20 only, 0–18. */
  decimals?: number;
  /** QRC721 only. */
  baseUri?: string;
  /** flex and vari: who may mint. */
  minter?: Hex;
  /** flex and vari: 0 means no limit. */
  maxSupply?: bigint;
  /** flex and vari: burnt tokens may be minted again. */
  remintable?: boolean;
  /** vari: who runs the owner functions. */
  owner?: Hex;
};

/** Constructor arguments of a tier in order; throws when a parameter the tier needs is missing. */
export function constructorArgs(tokenType: TokenType, type: TierType, p: TokenParams): unknown[] {
  const need = <K extends keyof TokenParams>(key: K): NonNullable<TokenParams[K]> => {
    const value = p[key];
    if (value === undefined || value === null) throw new Error(`${contractName(tokenType, type)} needs ${key}`);
    return value as NonNullable<TokenParams[K]>;
  };
  const args: unknown[] =
    tokenType === 'QRC20'
      ? [p.name, p.symbol, need('decimals'), p.initialSupply, p.supplyHolder]
      : [p.name, p.symbol, need('baseUri'), p.initialSupply, p.supplyHolder];
  if (type === 'flex' || type === 'vari') args.push(need('minter'), p.maxSupply ?? 0n, p.remintable ?? false);
  if (type === 'vari') args.push(need('owner'));
  return args;
}

/** Creation bytecode plus ABI-encoded constructor arguments: the data of a deployment transaction. */
export function deployData(tokenType: TokenType, type: TierType, params: TokenParams): Hex {
  const tier = getTier(tokenType, type);
  return encodeDeployData({ abi: tier.abi, bytecode: tier.bytecode, args: constructorArgs(tokenType, type, params) });
}

/**
 * Whether runtime code read from a chain (eth_getCode) is this tier's contract: equal to the
 * compiled runtime code outside the immutable ranges (which hold per-deployment values).
 */
export function matchesDeployedCode(tokenType: TokenType, type: TierType, onChainCode: Hex): boolean {
  const { compiled } = getTier(tokenType, type);
  const expected = compiled.deployedBytecode.slice(2).toLowerCase();
  const actual = onChainCode.slice(2).toLowerCase();
  if (expected.length !== actual.length) return false;
  let from = 0;
  for (const { start, length } of compiled.immutableRanges) {
    if (expected.slice(from * 2, start * 2) !== actual.slice(from * 2, start * 2)) return false;
    from = start + length;
  }
  return expected.slice(from * 2) === actual.slice(from * 2);
}
