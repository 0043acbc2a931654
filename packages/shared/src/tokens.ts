import { z } from 'zod';
import { NETWORK_TYPES } from './networks.ts';
import { PROBLEMS } from './problem-codes.ts';

/*
 * The tokenise service's contract (spec §3 token entities and tier cards, §4 statuses and tier
 * list building, §5 token rules, §7 tokenise calls, §9 constants), shared by the SPA and the
 * server. Names here are stable: add to this module rather than renaming.
 */

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/**
 * Token statuses of spec §4, with their labels, and MISSING (ours): a deployment the chain no
 * longer has — a wallet's deployment lost when a local chain came back from an older state — shown
 * as such rather than as Active.
 */
export const TOKEN_STATUSES = ['ACTIVE', 'NOT_ACTIVE', 'UNPAID', 'PENDING', 'FAILED', 'DEPRECATED', 'MISSING'] as const;
export type TTokenStatus = (typeof TOKEN_STATUSES)[number];
export const TOKEN_STATUS_LABELS: Record<TTokenStatus, string> = {
  ACTIVE: 'Active',
  NOT_ACTIVE: 'Not Active',
  UNPAID: 'Unpaid',
  PENDING: 'Pending',
  FAILED: 'Failed',
  DEPRECATED: 'Deprecated',
  MISSING: 'Missing on chain',
};
/** The status filter of My smart tokens (spec §2.5): All Statuses, Active, Not Active, Deprecated. */
export const TOKEN_STATUS_FILTER_OPTIONS = ['ACTIVE', 'NOT_ACTIVE', 'DEPRECATED'] as const;
export const TOKEN_FILTER_ALL_LABELS = {
  blockchain: 'All Blockchains',
  tokenType: 'All Token types',
  tier: 'All Tiers',
  status: 'All Statuses',
} as const;

/** Token types of spec §9 with their labels. */
export const TOKEN_TYPES = ['QRC20', 'QRC721'] as const;
export type TTokenType = (typeof TOKEN_TYPES)[number];
export const TOKEN_TYPE_LABELS: Record<TTokenType, string> = { QRC20: 'Fungible', QRC721: 'Non-fungible' };

/** Smart-contract tiers (spec §3 token type base, flex, vari), each adding to the one before. */
export const TIER_TYPES = ['base', 'flex', 'vari'] as const;
export type TTierType = (typeof TIER_TYPES)[number];

/** Deployment options of spec §9: through the user's wallet, or by the platform (the provider). */
export const DEPLOYMENT_TYPES = ['META_MASK', 'QUANT'] as const;
export type TDeploymentType = (typeof DEPLOYMENT_TYPES)[number];
export const DEPLOYMENT_TYPE_LABELS: Record<TDeploymentType, string> = {
  META_MASK: 'Deploy with Metamask',
  QUANT: 'Deploy with the provider',
};

/** Page sizes of spec §9. */
export const TOKEN_PAGE_SIZES = [5, 10, 50, 100] as const;

/** Limits of spec §5/§9 and the ones it leaves open (docs/decisions.md "Tokens"). */
export const TOKEN_LIMITS = {
  nameMax: 50,
  unitMin: 1,
  unitMax: 11,
  decimalsMin: 0,
  decimalsMax: 18,
  supplyMin: 0,
  supplyMax: 1_000_000_000,
  tokenUriMax: 500,
  externalIdMax: 100,
} as const;

/** Field and guard messages (spec §8 quoted exactly; the rest decided, spec §5 note 5). */
export const TOKEN_MESSAGES = {
  missingOnChain:
    'This contract is no longer on the chain: the local chain came back from an earlier state and lost it. Deploy the token again.',
  nameRequired: 'Please enter a token name',
  nameTooLong: `The token name can be at most ${TOKEN_LIMITS.nameMax} characters`,
  nameCharacters: "The token name may only contain letters, numbers, spaces and - _ . ' &",
  nameCurrency: (code: string) => `The token name must not contain the currency code ${code}`,
  unitRequired: 'Please enter the token unit (symbol)',
  unitLength: `The token unit must be ${TOKEN_LIMITS.unitMin} to ${TOKEN_LIMITS.unitMax} letters or digits`,
  unitCurrency: (code: string) => `The token unit must not contain the currency code ${code}`,
  decimals: `Decimals must be a whole number from ${TOKEN_LIMITS.decimalsMin} to ${TOKEN_LIMITS.decimalsMax}`,
  initialSupply: 'The initial supply must be a whole number from 0 to 1,000,000,000',
  maxSupply: 'The maximum supply must be a whole number from 0 (no limit) to 1,000,000,000',
  maxSupplyBelowInitial: 'The maximum supply must be 0 (no limit) or at least the initial supply',
  nonNegative: 'The number must be 0 or greater',
  addressRequired: 'Please enter an address',
  addressFormat: 'Please enter a valid address: 0x followed by 40 hexadecimal characters (42 characters)',
  addressChecksum:
    'This address has mixed upper and lower case letters but its checksum (EIP-55) is wrong: check it for typing errors',
  tokenUriRequired: 'Please enter the base token URI',
  tokenUriFormat: "The base token URI must start with http and end with '/'",
  tokenUriTooLong: `The base token URI can be at most ${TOKEN_LIMITS.tokenUriMax} characters`,
  remintable: 'Please choose whether burnt tokens can be minted again',
  externalId: 'The deployment id (externalId) must be 1 to 100 letters, digits, - or _',
  tokenTypeRequired: 'Please choose a token type',
  deploymentTypeRequired: 'Please choose how to deploy the token',
  locationRequired: 'Please choose a blockchain network',
  tierRequired: 'Please choose a smart contract tier',
  txHash: 'The transaction hash must be 0x followed by 64 hexadecimal characters',
  /** spec §8, quoted exactly: the no-networks guard (SPA: My networks with configureNetworks=true). */
  configureNetworks: PROBLEMS.NETWORKS_NOT_CONFIGURED.message,
  /** spec §5: no tokens:create quota left (SPA: back to Token Flow). */
  quotaReached: PROBLEMS.TOKEN_QUOTA_REACHED.message,
  kycRequired: 'Deploying tokens on a mainnet needs a verified identity',
  locationUnavailable: PROBLEMS.TOKEN_LOCATION_UNAVAILABLE.message,
  tierUnavailable: PROBLEMS.TOKEN_TIER_UNAVAILABLE.message,
  tierTokenType: PROBLEMS.TOKEN_TIER_TYPE.message,
  noPlatformDeployer: PROBLEMS.NO_PLATFORM_DEPLOYER.message,
  insufficientCredits: (needed: number, available: number) =>
    `This deployment costs ${needed} credits and your account has ${available}. Buy credits or choose another tier.`,
  externalIdTaken: PROBLEMS.EXTERNAL_ID_TAKEN.message,
  notFound: PROBLEMS.TOKEN_NOT_FOUND.message,
  notEditable: PROBLEMS.TOKEN_NOT_EDITABLE.message,
  statusChange: (from: TTokenStatus, to: TTokenStatus) =>
    `A token cannot go from ${TOKEN_STATUS_LABELS[from]} to ${TOKEN_STATUS_LABELS[to]}`,
  notWalletDeployment: PROBLEMS.NOT_WALLET_DEPLOYMENT.message,
  alreadyTracked: PROBLEMS.TOKEN_ALREADY_TRACKED.message,
  txHashTaken: PROBLEMS.TX_HASH_TAKEN.message,
  cannotCancel: PROBLEMS.DEPLOYMENT_NOT_CANCELLABLE.message,
  /** spec §8, quoted exactly. */
  deploymentFailed: 'Deployment failed, please try again later',
  deploymentCancelled: "You've canceled your deployment.",
  walletDenied: 'User denied transaction signature.',
  walletMissing: 'Please install and activate your MetaMask!',
  deploymentFailedNotice:
    'The deployment of this token failed. No credits were charged. Please contact support if it happens again.',
  updated: 'The token has been updated.',
} as const;

/** Which of the two guard problems a problem is (the SPA redirects on them). */
export const TOKEN_GUARDS = {
  configureNetworks: { status: 409, detail: TOKEN_MESSAGES.configureNetworks },
  quotaReached: { status: 409, detail: TOKEN_MESSAGES.quotaReached },
} as const;
export type TTokenGuard = keyof typeof TOKEN_GUARDS;
export function tokenGuardOf(problem: { status?: number; detail?: string } | null | undefined): TTokenGuard | null {
  if (!problem) return null;
  for (const key of Object.keys(TOKEN_GUARDS) as TTokenGuard[]) {
    if (problem.status === TOKEN_GUARDS[key].status && problem.detail === TOKEN_GUARDS[key].detail) return key;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Currency codes (ISO 4217, active codes incl. funds and precious metals)
// ---------------------------------------------------------------------------------------------

export const CURRENCY_CODES: readonly string[] = (
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
  'GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW ' +
  'KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN ' +
  'NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL ' +
  'SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES ' +
  'VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XUA YER ZAR ZMW ZWG ZWL'
).split(' ');
const CURRENCY_SET = new Set(CURRENCY_CODES);

function firstCodeIn(text: string): string | null {
  for (let i = 0; i + 3 <= text.length; i++) {
    const candidate = text.slice(i, i + 3);
    if (CURRENCY_SET.has(candidate)) return candidate;
  }
  return null;
}

/**
 * The currency code a token name contains, or null (spec §5). A name is prose, so only letters
 * written in capitals count: each run of three or more capital letters ("USD", "MyGBPCoin" →
 * "GBP", "USDT") is searched for a code, while ordinary words such as "All", "Top" or "Cup"
 * (also codes: ALL, TOP, CUP) pass. Decided in docs/decisions.md ("Tokens").
 */
export function currencyCodeInName(name: string): string | null {
  for (const run of name.match(/[A-Z]{3,}/g) ?? []) {
    const code = firstCodeIn(run);
    if (code) return code;
  }
  return null;
}

/** The currency code a token unit (symbol) contains anywhere, in any letter case, or null (spec §5). */
export function currencyCodeInUnit(unit: string): string | null {
  return firstCodeIn(unit.toUpperCase());
}

// ---------------------------------------------------------------------------------------------
// Addresses (EIP-55)
// ---------------------------------------------------------------------------------------------

const KECCAK_ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];
const KECCAK_ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
const MASK_64 = (1n << 64n) - 1n;
const rotl64 = (x: bigint, n: number) => (n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & MASK_64);

function keccakF(state: bigint[]): void {
  for (let round = 0; round < 24; round++) {
    const c: bigint[] = [];
    for (let x = 0; x < 5; x++) c[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!;
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl64(c[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) state[x + y] = state[x + y]! ^ d;
    }
    const b: bigint[] = new Array<bigint>(25).fill(0n);
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        b[y + ((2 * x + 3 * y) % 5) * 5] = rotl64(state[x + 5 * y]!, KECCAK_ROTATIONS[x + 5 * y]!);
      }
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 25; y += 5) {
        state[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK_64 & b[((x + 2) % 5) + y]!);
      }
    }
    state[0] = state[0]! ^ KECCAK_ROUND_CONSTANTS[round]!;
  }
}

/** Keccak-256 (the Ethereum variant, padding 0x01) of bytes, as lower-case hex without 0x. */
export function keccak256Hex(input: Uint8Array): string {
  const rate = 136;
  const padded = new Uint8Array(Math.ceil((input.length + 1) / rate) * rate);
  padded.set(input);
  padded[input.length] = padded[input.length]! ^ 0x01;
  padded[padded.length - 1] = padded[padded.length - 1]! ^ 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let offset = 0; offset < padded.length; offset += rate) {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n;
      for (let j = 7; j >= 0; j--) lane = (lane << 8n) | BigInt(padded[offset + i * 8 + j]!);
      state[i] = state[i]! ^ lane;
    }
    keccakF(state);
  }
  let hex = '';
  for (let i = 0; i < 4; i++) {
    let lane = state[i]!;
    for (let j = 0; j < 8; j++) {
      hex += Number(lane & 0xffn)
        .toString(16)
        .padStart(2, '0');
      lane >>= 8n;
    }
  }
  return hex;
}

/** The EIP-55 mixed-case checksum form of a 0x + 40 hex address. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256Hex(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const ch = lower[i]!;
    out += parseInt(hash[i]!, 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

export type TAddressProblem = 'format' | 'checksum';
/**
 * Why a text is not an EVM address, or null when it is: 0x and 40 hexadecimal characters (42 in
 * all, spec §5/§9); all lower or all upper case is accepted as is, mixed case must carry a
 * correct EIP-55 checksum.
 */
export function evmAddressProblem(value: string): TAddressProblem | null {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return 'format';
  const body = value.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return null;
  return toChecksumAddress(value) === value ? null : 'checksum';
}
export const isEvmAddress = (value: string) => evmAddressProblem(value) === null;

/** The QRC721 base URI rule (spec §5): starts with "http" (any case) and ends with "/". */
export function isValidBaseTokenUri(uri: string): boolean {
  return /^http/i.test(uri) && uri.endsWith('/') && uri.length >= 5;
}

// ---------------------------------------------------------------------------------------------
// The token form (spec §3 token form draft, §5 rules)
// ---------------------------------------------------------------------------------------------

/** The token form's fields (spec §3), plus the flex/vari attributes max supply and remintable. */
export const TOKEN_FORM_FIELDS = [
  'name',
  'unit',
  'decimal',
  'initialSupply',
  'supplyHolderAddress',
  'minter',
  'maxSupply',
  'remintable',
  'tokenUri',
  'ownerAddress',
] as const;
export type TTokenFormField = (typeof TOKEN_FORM_FIELDS)[number];

/** The fields a tier's contract takes, in form order (QRC20 has decimals, QRC721 a base URI). */
export function tokenFormFields(tokenType: TTokenType, tierType: TTierType): TTokenFormField[] {
  const fields: TTokenFormField[] = ['name', 'unit'];
  fields.push(tokenType === 'QRC20' ? 'decimal' : 'tokenUri');
  fields.push('initialSupply', 'supplyHolderAddress');
  if (tierType === 'flex' || tierType === 'vari') fields.push('minter', 'maxSupply', 'remintable');
  if (tierType === 'vari') fields.push('ownerAddress');
  return fields;
}

const emptyToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** A whole number that may arrive as text from a form; empty is "missing". */
const wholeNumber = (message: string, min: number, max: number, whenEmpty?: number) =>
  z.preprocess(
    (value) => {
      const v = emptyToUndefined(value) ?? whenEmpty;
      return typeof v === 'string' ? Number(v.trim().replaceAll(',', '')) : v;
    },
    z
      .number({ error: message })
      .refine((n) => n >= 0, { message: TOKEN_MESSAGES.nonNegative, abort: true })
      .refine((n) => Number.isInteger(n) && n >= min && n <= max, { message }),
  );

const ZTokenName = z
  .string({ error: TOKEN_MESSAGES.nameRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.nameRequired })
  .max(TOKEN_LIMITS.nameMax, { message: TOKEN_MESSAGES.nameTooLong })
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._'&-]*$/u, { message: TOKEN_MESSAGES.nameCharacters })
  .superRefine((name, ctx) => {
    const code = currencyCodeInName(name);
    if (code) ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.nameCurrency(code) });
  });

const ZTokenUnit = z
  .string({ error: TOKEN_MESSAGES.unitRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.unitRequired })
  .regex(/^[A-Za-z0-9]+$/, { message: TOKEN_MESSAGES.unitLength })
  .max(TOKEN_LIMITS.unitMax, { message: TOKEN_MESSAGES.unitLength })
  .superRefine((unit, ctx) => {
    const code = currencyCodeInUnit(unit);
    if (code) ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.unitCurrency(code) });
  });

/** An EVM address (spec §5), trimmed; mixed case must pass the EIP-55 checksum. */
export const ZEvmAddress = z
  .string({ error: TOKEN_MESSAGES.addressRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.addressRequired })
  .superRefine((value, ctx) => {
    const problem = evmAddressProblem(value);
    if (problem === 'format') ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.addressFormat });
    if (problem === 'checksum') ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.addressChecksum });
  });

const ZTokenUri = z
  .string({ error: TOKEN_MESSAGES.tokenUriRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.tokenUriRequired })
  .max(TOKEN_LIMITS.tokenUriMax, { message: TOKEN_MESSAGES.tokenUriTooLong })
  .refine(isValidBaseTokenUri, { message: TOKEN_MESSAGES.tokenUriFormat });

const tokenFormShape = {
  name: ZTokenName,
  unit: ZTokenUnit,
  decimal: wholeNumber(TOKEN_MESSAGES.decimals, TOKEN_LIMITS.decimalsMin, TOKEN_LIMITS.decimalsMax),
  initialSupply: wholeNumber(TOKEN_MESSAGES.initialSupply, TOKEN_LIMITS.supplyMin, TOKEN_LIMITS.supplyMax),
  supplyHolderAddress: ZEvmAddress,
  minter: ZEvmAddress,
  maxSupply: wholeNumber(TOKEN_MESSAGES.maxSupply, TOKEN_LIMITS.supplyMin, TOKEN_LIMITS.supplyMax, 0),
  remintable: z.preprocess((v) => v ?? false, z.boolean({ error: TOKEN_MESSAGES.remintable })),
  tokenUri: ZTokenUri,
  ownerAddress: ZEvmAddress,
} as const;

/** The parsed token form: fields a tier does not take are absent. */
export type TTokenForm = {
  name: string;
  unit: string;
  decimal?: number;
  initialSupply: number;
  supplyHolderAddress: string;
  minter?: string;
  maxSupply?: number;
  remintable?: boolean;
  tokenUri?: string;
  ownerAddress?: string;
};
/** The form's values as typed (numbers may still be text; everything starts empty, spec §3). */
export type TTokenFormInput = {
  name?: string;
  unit?: string;
  decimal?: number | string;
  initialSupply?: number | string;
  supplyHolderAddress?: string;
  minter?: string;
  maxSupply?: number | string;
  remintable?: boolean;
  tokenUri?: string;
  ownerAddress?: string;
};
export const EMPTY_TOKEN_FORM: TTokenFormInput = {
  name: '',
  unit: '',
  decimal: '',
  initialSupply: '',
  supplyHolderAddress: '',
  minter: '',
  maxSupply: '',
  remintable: false,
  tokenUri: '',
  ownerAddress: '',
};

/**
 * The token form of one tier (spec §5 rules), validated the same way by the SPA and the server:
 * only the fields the tier's contract takes are read, all of them required except maxSupply
 * (0 = no limit) and remintable (false). The maximum supply, when set, is at least the initial one.
 */
export function tokenFormSchema(tokenType: TTokenType, tierType: TTierType): z.ZodType<TTokenForm, TTokenFormInput> {
  const key = `${tokenType}:${tierType}`;
  let schema = formSchemas.get(key);
  if (!schema) {
    schema = buildTokenFormSchema(tokenType, tierType);
    formSchemas.set(key, schema);
  }
  return schema;
}
const formSchemas = new Map<string, z.ZodType<TTokenForm, TTokenFormInput>>();

function buildTokenFormSchema(tokenType: TTokenType, tierType: TTierType) {
  const fields = tokenFormFields(tokenType, tierType);
  const shape = Object.fromEntries(fields.map((field) => [field, tokenFormShape[field]]));
  return z.object(shape).superRefine((value, ctx) => {
    const form = value as TTokenForm;
    if (
      form.maxSupply !== undefined &&
      form.maxSupply !== 0 &&
      typeof form.initialSupply === 'number' &&
      form.maxSupply < form.initialSupply
    ) {
      ctx.addIssue({ code: 'custom', path: ['maxSupply'], message: TOKEN_MESSAGES.maxSupplyBelowInitial });
    }
  }) as unknown as z.ZodType<TTokenForm, TTokenFormInput>;
}

/** Field errors of a form for a tier, as problem-details invalidParams ([] when valid). */
export function tokenFormErrors(
  tokenType: TTokenType,
  tierType: TTierType,
  input: unknown,
): { name: string; reason: string }[] {
  const result = tokenFormSchema(tokenType, tierType).safeParse(input ?? {});
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    name: issue.path.map(String).join('.') || 'body',
    reason: issue.message,
  }));
}

// ---------------------------------------------------------------------------------------------
// Tier cards (spec §3) and tier list building (spec §4)
// ---------------------------------------------------------------------------------------------

/**
 * Spec §4 tier list building: tiers sorted by name case-insensitively; each tier's short list is
 * the functions not present in the previous tier, or its full list when none are new; refererTier
 * is the previous tier's name ('' for the first).
 */
export function buildTierList<T extends { name: string; functions: readonly string[] }>(
  tiers: readonly T[],
): (T & { refererTier: string; shortListFunctions: string[] })[] {
  const sorted = [...tiers].sort((a, b) => {
    const x = a.name.toLowerCase();
    const y = b.name.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return sorted.map((tier, i) => {
    const previous = i > 0 ? sorted[i - 1] : undefined;
    const before = new Set(previous?.functions ?? []);
    const added = tier.functions.filter((f) => !before.has(f));
    return {
      ...tier,
      refererTier: previous?.name ?? '',
      shortListFunctions: added.length ? added : [...tier.functions],
    };
  });
}

/**
 * Spec §5: a tier is offered for a deployment method only when it has the credit amounts that
 * method needs — the deployment amount for a platform deployment (QUANT), both the deployment and
 * bytecode amounts for a wallet deployment (META_MASK).
 */
export function tierOffered(
  tier: { deploymentCredits: number | null; bytecodeCredits: number | null },
  deploymentType: TDeploymentType,
): boolean {
  if (deploymentType === 'QUANT') return tier.deploymentCredits !== null;
  return tier.deploymentCredits !== null && tier.bytecodeCredits !== null;
}

/**
 * The credits a deployment costs (decided in docs/decisions.md "Tokens"): the deployment amount
 * when the platform deploys and pays the gas; the bytecode amount when the user's wallet deploys
 * the prepared bytecode and pays the gas itself. Null when the tier is not offered that way.
 */
export function tierCreditAmount(
  tier: { deploymentCredits: number | null; bytecodeCredits: number | null },
  deploymentType: TDeploymentType,
): number | null {
  if (!tierOffered(tier, deploymentType)) return null;
  return deploymentType === 'QUANT' ? tier.deploymentCredits : tier.bytecodeCredits;
}

/** One tier card (spec §3 Tier card) as GET /v2/orchestration/tiers answers it. */
export const ZTierCard = z.object({
  id: z.uuid(),
  /** Tier type: base, flex or vari. */
  type: z.enum(TIER_TYPES),
  tokenType: z.enum(TOKEN_TYPES),
  technology: z.string(),
  network: z.string(),
  networkId: z.uuid(),
  networkType: z.enum(NETWORK_TYPES),
  name: z.string(),
  refererTier: z.string(),
  description: z.string(),
  functions: z.array(z.string()),
  shortListFunctions: z.array(z.string()),
  /** Credits this deployment method costs (see tierCreditAmount). */
  creditAmount: z.number().int(),
  deploymentCredits: z.number().int().nullable(),
  bytecodeCredits: z.number().int().nullable(),
  selected: z.boolean(),
  /** The form fields the tier's contract takes (tokenFormFields). */
  attributes: z.array(z.enum(TOKEN_FORM_FIELDS)),
});
export type TTierCard = z.infer<typeof ZTierCard>;

export const ZTiersQuery = z.object({
  networkId: z.uuid({ message: TOKEN_MESSAGES.locationRequired }),
  tokenType: z.preprocess(
    (v) => (typeof v === 'string' ? v.toUpperCase() : v),
    z.enum(TOKEN_TYPES, { error: TOKEN_MESSAGES.tokenTypeRequired }),
  ),
  deploymentType: z.enum(DEPLOYMENT_TYPES, { error: TOKEN_MESSAGES.deploymentTypeRequired }).default('QUANT'),
});
export type TTiersQuery = z.input<typeof ZTiersQuery>;
export const ZTiersResponse = z.object({ tiers: z.array(ZTierCard) });
export type TTiersResponse = z.infer<typeof ZTiersResponse>;

// ---------------------------------------------------------------------------------------------
// Locations (spec §3 portfolio state: technology and network pairs)
// ---------------------------------------------------------------------------------------------

export const ZTokenLocation = z.object({
  networkId: z.uuid(),
  technology: z.string(),
  network: z.string(),
  /** The catalogue code, e.g. ethereum-testnet. */
  code: z.string(),
  networkType: z.enum(NETWORK_TYPES),
  chainId: z.number().int(),
  explorerUrl: z.string().nullable(),
  /** A local chain standing in for a public testnet (the SPA shows a Sandbox chip). */
  isLocal: z.boolean(),
});
export type TTokenLocation = z.infer<typeof ZTokenLocation>;
export const ZLocationsResponse = z.object({ locations: z.array(ZTokenLocation) });
export type TLocationsResponse = z.infer<typeof ZLocationsResponse>;

/** Portfolio state of the creation stepper (spec §3). */
export type TPortfolioState = {
  selectedCurrency: TTokenType | null;
  selectedTier: TTierCard | null;
  locations: TTokenLocation[];
  tiers: TTierCard[];
  tile: string | null;
};

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

/** A token as the list and details show it (spec §3 Deploying token and attributes). */
export const ZToken = z.object({
  id: z.uuid(),
  externalId: z.string(),
  tokenName: z.string(),
  tokenUnit: z.string(),
  decimalPlaces: z.number().int(),
  /** Whole tokens as entered (digits). */
  tokenSupply: z.string(),
  /** '0' = no limit; null for base tiers. */
  maxSupply: z.string().nullable(),
  remintable: z.boolean(),
  supplyHolderAddress: z.string().nullable(),
  minter: z.string().nullable(),
  ownerAddress: z.string().nullable(),
  tokenUri: z.string().nullable(),
  tokenType: z.enum(TOKEN_TYPES),
  tierType: z.enum(TIER_TYPES),
  tierName: z.string(),
  tierId: z.uuid(),
  networkId: z.uuid(),
  /** Blockchain (technology) name, e.g. Ethereum. */
  blockchain: z.string(),
  technology: z.string(),
  network: z.string(),
  networkType: z.enum(NETWORK_TYPES),
  chainId: z.number().int(),
  /** A local chain standing in for a public testnet (the SPA shows a Sandbox chip). */
  isLocal: z.boolean(),
  deploymentType: z.enum(DEPLOYMENT_TYPES),
  status: z.enum(TOKEN_STATUSES),
  smartContractAddress: z.string().nullable(),
  transactionId: z.string().nullable(),
  deployerAddress: z.string().nullable(),
  blockNumber: z.string().nullable(),
  creditsCharged: z.number().int(),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  deployedAt: z.string().nullable(),
});
export type TToken = z.infer<typeof ZToken>;

/** A filter the "All …" option leaves empty: '' and null mean no filter. */
const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

/** POST /tokens: search by name or unit, filters, paging (spec §2.5, §9). `page` counts from 0. */
export const ZTokensRequest = z.object({
  page: z.coerce
    .number()
    .int()
    .catch(0)
    .transform((page) => Math.max(0, page))
    .default(0),
  size: z.coerce
    .number()
    .int()
    .refine((size) => (TOKEN_PAGE_SIZES as readonly number[]).includes(size), {
      message: `The page size must be one of ${TOKEN_PAGE_SIZES.join(', ')}.`,
    })
    .default(10),
  search: optionalFilter(z.string().trim().max(100)),
  /** Blockchain (technology), e.g. Ethereum. */
  blockchain: optionalFilter(z.string().trim().max(100)),
  networkId: optionalFilter(z.uuid({ message: 'The network id must be a UUID.' })),
  tokenType: optionalFilter(z.enum(TOKEN_TYPES)),
  tierType: optionalFilter(z.enum(TIER_TYPES)),
  status: optionalFilter(z.enum(TOKEN_STATUSES)),
});
export type TTokensRequest = {
  page?: number;
  size?: number;
  search?: string | undefined;
  blockchain?: string | undefined;
  networkId?: string | undefined;
  tokenType?: TTokenType | undefined;
  tierType?: TTierType | undefined;
  status?: TTokenStatus | undefined;
};

export const ZTokenQuota = z.object({
  /** Tokens deployed or being deployed (the tokens:create usage record's used count). */
  deployed: z.number().int(),
  /** The plan's allowance; null = unlimited. */
  allowed: z.number().int().nullable(),
});
export type TTokenQuota = z.infer<typeof ZTokenQuota>;

export const ZTokensPage = z.object({
  content: z.array(ZToken),
  totalElements: z.number().int(),
  totalPages: z.number().int(),
  number: z.number().int(),
  size: z.number().int(),
  quota: ZTokenQuota,
  /** Blockchains of the account's tokens, for the blockchain filter. */
  blockchains: z.array(z.string()),
  credits: z.number().int(),
});
export type TTokensPage = z.infer<typeof ZTokensPage>;

const ZExternalId = z
  .string({ error: TOKEN_MESSAGES.externalId })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, { message: TOKEN_MESSAGES.externalId });

/** Where and what to deploy: location (network), tier, token type, method. */
const deploymentTarget = {
  networkId: z.uuid({ message: TOKEN_MESSAGES.locationRequired }),
  tierId: z.uuid({ message: TOKEN_MESSAGES.tierRequired }),
  tokenType: z.preprocess(
    (v) => (typeof v === 'string' ? v.toUpperCase() : v),
    z.enum(TOKEN_TYPES, { error: TOKEN_MESSAGES.tokenTypeRequired }),
  ),
  deploymentType: z.enum(DEPLOYMENT_TYPES, { error: TOKEN_MESSAGES.deploymentTypeRequired }),
};

/**
 * POST /token/verify: the form for a location and tier, checked without creating anything. The
 * form's fields sit beside the target (flat, so invalidParams names are the form's field names);
 * they are validated against the tier's own rules (tokenFormSchema) once the tier is known.
 */
export const ZVerifyTokenRequest = z.looseObject({
  ...deploymentTarget,
  deploymentType: deploymentTarget.deploymentType.default('QUANT'),
});
export type TVerifyTokenRequest = {
  networkId: string;
  tierId: string;
  tokenType: TTokenType;
  deploymentType?: TDeploymentType;
} & TTokenFormInput;
export const ZVerifyTokenResponse = z.object({
  valid: z.boolean(),
  invalidParams: z.array(z.object({ name: z.string(), reason: z.string() })),
  /** What the deployment would cost. */
  creditAmount: z.number().int(),
  credits: z.number().int(),
});
export type TVerifyTokenResponse = z.infer<typeof ZVerifyTokenResponse>;

/** POST /v2/token: create and deploy. The same externalId always answers the same token. */
export const ZCreateTokenRequest = z.looseObject({ externalId: ZExternalId, ...deploymentTarget });
export type TCreateTokenRequest = {
  externalId: string;
  networkId: string;
  tierId: string;
  tokenType: TTokenType;
  deploymentType: TDeploymentType;
} & TTokenFormInput;

/** What a wallet sends for a META_MASK deployment: a contract creation with exactly this data. */
export const ZWalletDeployment = z.object({
  chainId: z.number().int(),
  /** Creation bytecode + ABI-encoded constructor arguments. */
  data: z.string(),
});
export type TWalletDeployment = z.infer<typeof ZWalletDeployment>;

export const ZCreateTokenResponse = z.object({
  token: ZToken,
  /** META_MASK and not yet tracked: the transaction to send from the wallet; null otherwise. */
  deployment: ZWalletDeployment.nullable(),
});
export type TCreateTokenResponse = z.infer<typeof ZCreateTokenResponse>;

/** The value read from the chain for GET /token/{id} (null with an error when the RPC failed). */
export const ZTokenOnChain = z.object({
  totalSupply: z.string().nullable(),
  holder: z.string().nullable(),
  holderBalance: z.string().nullable(),
  /** Block the values were read at. */
  blockNumber: z.string().nullable(),
  error: z.string().nullable(),
});
export type TTokenOnChain = z.infer<typeof ZTokenOnChain>;

export const ZTokenDetails = ZToken.extend({
  functions: z.array(z.string()),
  explorer: z.object({ contractUrl: z.string().nullable(), transactionUrl: z.string().nullable() }),
  /** Null until the token is on chain. */
  onChain: ZTokenOnChain.nullable(),
  /** META_MASK while no transaction is tracked: what to send from the wallet. */
  deployment: ZWalletDeployment.nullable(),
});
export type TTokenDetails = z.infer<typeof ZTokenDetails>;
export const ZTokenDetailsQuery = z.object({
  /** Whose balance to read; empty means none. */
  holder: optionalFilter(z.string().trim().refine(isEvmAddress, { message: TOKEN_MESSAGES.addressFormat })),
});

/**
 * PUT /token: an owner's change. `status` DEPRECATED (from Active) or ACTIVE (from Deprecated, or
 * from Unpaid once the credits are there); form fields only while a wallet deployment has not been
 * sent. Decided in docs/decisions.md ("Tokens").
 */
export const ZUpdateTokenRequest = z.looseObject({
  id: z.uuid({ message: TOKEN_MESSAGES.notFound }),
  status: z.enum(['ACTIVE', 'DEPRECATED'] as const).optional(),
});
export type TUpdateTokenRequest = { id: string; status?: 'ACTIVE' | 'DEPRECATED' } & TTokenFormInput;

const ZTxHash = z
  .string({ error: TOKEN_MESSAGES.txHash })
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, { message: TOKEN_MESSAGES.txHash })
  .transform((hash) => hash.toLowerCase());

/** PUT /token/deploy/track: the wallet sent the deployment. */
export const ZTrackDeploymentRequest = z.object({ externalId: ZExternalId, txHash: ZTxHash });
export type TTrackDeploymentRequest = z.input<typeof ZTrackDeploymentRequest>;

export const WALLET_CANCEL_REASONS = ['CANCELLED', 'DENIED', 'NO_WALLET', 'ERROR'] as const;
/** PUT /token/deploy/track/cancel: the user cancelled or denied the wallet's request. */
export const ZCancelTrackingRequest = z.object({
  externalId: ZExternalId,
  reason: z.enum(WALLET_CANCEL_REASONS).default('CANCELLED'),
});
export type TCancelTrackingRequest = z.input<typeof ZCancelTrackingRequest>;

export const ZTokenResult = z.object({ token: ZToken });
export type TTokenResult = z.infer<typeof ZTokenResult>;
export const ZDeleteTokenResponse = z.object({ deleted: z.literal(true), externalId: z.string() });
