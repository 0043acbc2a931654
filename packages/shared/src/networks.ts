import { z } from 'zod';
import { KYC_STATUSES } from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';
import { wholeNumberFromText } from './numbers.ts';

/** Network types of spec §9. Public networks are testnets or mainnets; private ones are the customer's own. */
export const NETWORK_TYPES = ['testnet', 'mainnet', 'private'] as const;
export type TNetworkType = (typeof NETWORK_TYPES)[number];
export const PUBLIC_NETWORK_TYPES = ['testnet', 'mainnet'] as const;

/** The last live health check of a catalogue network's RPC (written by the health monitor). */
export const NETWORK_HEALTH = ['ONLINE', 'DEGRADED', 'OFFLINE', 'NOT_CONFIGURED'] as const;
export type TNetworkHealth = (typeof NETWORK_HEALTH)[number];

/** A private network's review and removal lifecycle (spec §5: review within 5 working days, removal 2–5). */
export const PRIVATE_NETWORK_STATUSES = ['UNDER_REVIEW', 'ACTIVE', 'REJECTED', 'REMOVAL_REQUESTED', 'REMOVED'] as const;
export type TPrivateNetworkStatus = (typeof PRIVATE_NETWORK_STATUSES)[number];

export const PRIVATE_NETWORK_ENVIRONMENTS = ['production', 'sandbox'] as const;
export const NODE_TYPES = ['light', 'full', 'archive'] as const;

/**
 * Why a catalogue network cannot be activated by the caller, in the order the rules are checked
 * (null = it can). Decided in docs/decisions/developer-hub.md ("Networks").
 */
export const NETWORK_UNAVAILABLE_REASONS = [
  'NO_RPC_URL',
  'PLAN_INACTIVE',
  'PLAN_MAINNETS',
  'KYC_REQUIRED',
  'MAINNET_ALLOWANCE',
  'TESTNET_ALLOWANCE',
  'BLOCKCHAIN_ALLOWANCE',
] as const;
export type TNetworkUnavailableReason = (typeof NETWORK_UNAVAILABLE_REASONS)[number];

/** Limits the spec leaves open (§5 "too long", "length-limited"); decided in docs/decisions/developer-hub.md. */
export const PRIVATE_NETWORK_LIMITS = {
  nameMax: 50,
  tokenSymbolMin: 2,
  tokenSymbolMax: 10,
  tokenDecimalsMax: 18,
  blocksMin: 1,
  blocksMax: 50,
  urlMax: 500,
  reviewWorkingDays: 5,
  removalWorkingDays: '2-5',
} as const;

/** Field messages of the network screens (spec §5 names the rules, not the words: note 5). */
export const NETWORK_MESSAGES = {
  nameRequired: 'Please enter a network name',
  nameTooLong: `Your network name is too long (at most ${PRIVATE_NETWORK_LIMITS.nameMax} characters)`,
  nameSpecialCharacters: 'The network name may only contain letters, numbers, spaces, hyphens and underscores',
  nameTaken: 'You already have a private network with this name, please choose another name',
  tokenSymbolRequired: 'Please enter the token symbol',
  tokenSymbolLength: `The token symbol must be ${PRIVATE_NETWORK_LIMITS.tokenSymbolMin} to ${PRIVATE_NETWORK_LIMITS.tokenSymbolMax} letters or digits`,
  tokenDecimals: `Token decimals must be a whole number from 0 to ${PRIVATE_NETWORK_LIMITS.tokenDecimalsMax}`,
  blocks: `The number of blocks must be a whole number from ${PRIVATE_NETWORK_LIMITS.blocksMin} to ${PRIVATE_NETWORK_LIMITS.blocksMax}`,
  chainId: 'The chain id must be a positive whole number',
  urlRequired: 'Please enter the RPC URL of a node',
  urlInvalid: 'Please enter a valid http:// or https:// URL',
  networkType: 'Please choose production or sandbox',
  nodeType: 'Please choose the node type',
  urlPrivateAddress:
    'This URL points to a private or local address, which the server may not call. Enter the public address of your node',
  rpcUnreachable:
    'We could not reach a JSON-RPC node at this URL. Check the address and that the node accepts requests',
  chainIdMismatch: (actual: number, entered: number) =>
    `The node at this URL reports chain id ${actual}, not ${entered}`,
  eip1559Unsupported: 'This network does not support EIP-1559 fees: its latest block has no base fee',
  eip1559Supported: 'This network uses EIP-1559 fees (its latest block has a base fee): turn EIP-1559 on',
  selectAtLeastOne: 'Please select at least one of the available networks!',
  unknownNetwork: 'This network does not exist',
  noRpcUrl: 'This network has no RPC URL configured yet and cannot be activated',
  planMainnets: 'Mainnets need an upgraded plan',
  kycRequired: 'Mainnets need a verified identity',
  blockchainAllowance: (allowance: number) =>
    `Your plan allows networks of ${allowance} blockchain${allowance === 1 ? '' : 's'}`,
  planInactive: 'Your plan is not active. Upgrade your plan to continue',
  mainnetAllowance: (allowance: number) => `Your plan allows ${allowance} mainnet${allowance === 1 ? '' : 's'}`,
  testnetAllowance: (allowance: number) => `Your plan allows ${allowance} testnet${allowance === 1 ? '' : 's'}`,
} as const;

const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u;

/**
 * A whole number field: from the SPA's form (`form`) it is text as typed — decimal digits, empty
 * text is "missing" — and from a JSON body (`json`) a number, text refused with the field's
 * message (issue 27: `Number()` read "0x10" as 16 and "1e3" as 1000).
 */
const wholeNumber = (source: 'form' | 'json', message: string, min: number, max: number) =>
  z.preprocess(
    (value) =>
      source === 'form' && typeof value === 'string'
        ? value.trim() === ''
          ? undefined
          : wholeNumberFromText(value)
        : value,
    z.number({ error: message }).int({ message }).min(min, { message }).max(max, { message }),
  );

/** The private network form (spec §3 Private network), validated by the same rules in the SPA and the server. */
const privateNetworkSchema = (source: 'form' | 'json') =>
  z.object({
    name: z
      .string({ error: NETWORK_MESSAGES.nameRequired })
      .trim()
      .min(1, { message: NETWORK_MESSAGES.nameRequired })
      .max(PRIVATE_NETWORK_LIMITS.nameMax, { message: NETWORK_MESSAGES.nameTooLong })
      .regex(NAME_PATTERN, { message: NETWORK_MESSAGES.nameSpecialCharacters }),
    networkType: z.enum(PRIVATE_NETWORK_ENVIRONMENTS, { error: NETWORK_MESSAGES.networkType }),
    chainId: wholeNumber(source, NETWORK_MESSAGES.chainId, 1, Number.MAX_SAFE_INTEGER),
    eip1559: z.boolean({ error: FIELD_MESSAGES.required }),
    numberOfBlocks: wholeNumber(
      source,
      NETWORK_MESSAGES.blocks,
      PRIVATE_NETWORK_LIMITS.blocksMin,
      PRIVATE_NETWORK_LIMITS.blocksMax,
    ),
    url: z
      .string({ error: NETWORK_MESSAGES.urlRequired })
      .trim()
      .min(1, { message: NETWORK_MESSAGES.urlRequired })
      .max(PRIVATE_NETWORK_LIMITS.urlMax, { message: FIELD_MESSAGES.tooLong(PRIVATE_NETWORK_LIMITS.urlMax) })
      .refine(isHttpUrl, { message: NETWORK_MESSAGES.urlInvalid }),
    tokenSymbol: z
      .string({ error: NETWORK_MESSAGES.tokenSymbolRequired })
      .trim()
      .min(1, { message: NETWORK_MESSAGES.tokenSymbolRequired })
      .regex(/^[A-Za-z0-9]*$/, { message: NETWORK_MESSAGES.tokenSymbolLength })
      .min(PRIVATE_NETWORK_LIMITS.tokenSymbolMin, { message: NETWORK_MESSAGES.tokenSymbolLength })
      .max(PRIVATE_NETWORK_LIMITS.tokenSymbolMax, { message: NETWORK_MESSAGES.tokenSymbolLength }),
    tokenDecimals: wholeNumber(source, NETWORK_MESSAGES.tokenDecimals, 0, PRIVATE_NETWORK_LIMITS.tokenDecimalsMax),
    nodeType: z.enum(NODE_TYPES, { error: NETWORK_MESSAGES.nodeType }),
  });
/** The request body: numbers are numbers. */
export const ZPrivateNetworkRequest = privateNetworkSchema('json').meta({ id: 'PrivateNetworkRequest' });
export type TPrivateNetworkRequest = z.infer<typeof ZPrivateNetworkRequest>;
/** The SPA's form (its resolver): numbers typed as text, parsed into the request. */
export const ZPrivateNetworkForm = privateNetworkSchema('form');
/** The form's values before parsing (numbers may still be text). */
export type TPrivateNetworkForm = z.input<typeof ZPrivateNetworkForm>;

/**
 * A network explorer's page for a transaction or an address (`<explorer>/tx/<hash>`,
 * `<explorer>/address/<address>`), or null when the network has no explorer (the local chains).
 */
export function explorerLink(
  explorerUrl: string | null | undefined,
  kind: 'tx' | 'address',
  value: string | null | undefined,
): string | null {
  if (!explorerUrl || !value) return null;
  return `${explorerUrl.replace(/\/+$/, '')}/${kind}/${value}`;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** What POST /private-networks/validate found at the RPC URL. */
export const ZPrivateNetworkValidation = z
  .object({
    valid: z.literal(true),
    chainId: z.number().int(),
    latestBlock: z.number().int(),
    eip1559: z.boolean(),
  })
  .meta({ id: 'PrivateNetworkValidation' });
export type TPrivateNetworkValidation = z.infer<typeof ZPrivateNetworkValidation>;

export const ZDeletePrivateNetworkRequest = z
  .object({
    id: z.uuid({ message: 'The network id must be a UUID.' }),
  })
  .meta({ id: 'DeletePrivateNetworkRequest' });

export const PRIVATE_NETWORK_REVIEW_DECISIONS = ['APPROVE', 'REJECT', 'COMPLETE_REMOVAL'] as const;
export const ZPrivateNetworkReviewRequest = z
  .object({
    decision: z.enum(PRIVATE_NETWORK_REVIEW_DECISIONS, { error: 'Choose APPROVE, REJECT or COMPLETE_REMOVAL.' }),
    note: z
      .string()
      .trim()
      .max(500, { message: FIELD_MESSAGES.tooLong(500) })
      .optional(),
  })
  .refine((value) => value.decision !== 'REJECT' || Boolean(value.note), {
    message: 'Please say why the network is rejected.',
    path: ['note'],
  })
  .meta({ id: 'PrivateNetworkReviewRequest' });
export type TPrivateNetworkReviewRequest = z.infer<typeof ZPrivateNetworkReviewRequest>;

/** The private-network details shown in My networks and its summary. */
export const ZPrivateNetworkDetails = z
  .object({
    environment: z.enum(PRIVATE_NETWORK_ENVIRONMENTS),
    url: z.string(),
    eip1559: z.boolean(),
    numberOfBlocks: z.number().int(),
    tokenSymbol: z.string(),
    tokenDecimals: z.number().int(),
    nodeType: z.enum(NODE_TYPES),
    submittedAt: z.string(),
    reviewedAt: z.string().nullable(),
    reviewNote: z.string().nullable(),
    removalRequestedAt: z.string().nullable(),
    removedAt: z.string().nullable(),
  })
  .meta({ id: 'PrivateNetworkDetails' });

/** One row of My networks (spec §2.5 columns) — a catalogue network the account activated, or a private network. */
export const ZUserNetwork = z
  .object({
    id: z.uuid(),
    networkType: z.enum(NETWORK_TYPES),
    network: z.string(),
    technology: z.string(),
    chainId: z.number().int(),
    /** Live health for public networks, the review/removal state for private ones. */
    status: z.union([z.enum(NETWORK_HEALTH), z.enum(PRIVATE_NETWORK_STATUSES)]),
    activatedDate: z.string().nullable(),
    /**
     * What the gateway enforces for the caller's account on this network: the plan's requests a
     * second per network, shared by the account's applications; private networks are not served
     * by the gateway (null).
     */
    networkRateLimit: z
      .number()
      .int()
      .nullable()
      .describe(
        "The caller's plan's gateway rate limit on this network: requests a second, shared by the account's applications (null for a private network, which the gateway does not serve).",
      ),
    latestBlock: z.number().int().nullable(),
    healthCheckedAt: z.string().nullable(),
    explorerUrl: z.string().nullable(),
    /** A local chain standing in for a public testnet (shown with a Sandbox chip). */
    isLocal: z.boolean(),
    private: ZPrivateNetworkDetails.nullable(),
  })
  .meta({ id: 'UserNetwork' });
export type TUserNetwork = z.infer<typeof ZUserNetwork>;
export const ZUserNetworksResponse = z.object({ networks: z.array(ZUserNetwork) }).meta({ id: 'UserNetworksResponse' });
export type TUserNetworksResponse = z.infer<typeof ZUserNetworksResponse>;

export const ZUserNetworksQuery = z.object({
  networkType: z.enum(NETWORK_TYPES, { error: 'networkType must be testnet, mainnet or private.' }).optional(),
});

/** A catalogue network as the select-networks stepper sees it: with the caller's availability. */
export const ZCatalogueNetwork = z
  .object({
    id: z.uuid(),
    code: z.string(),
    network: z.string(),
    networkType: z.enum(PUBLIC_NETWORK_TYPES),
    technology: z.string(),
    description: z.string(),
    chainId: z.number().int(),
    explorerUrl: z.string().nullable(),
    /** What the gateway enforces for the caller's account: the plan's requests a second per network. */
    networkRateLimit: z
      .number()
      .int()
      .describe(
        "The caller's plan's gateway rate limit on this network: requests a second, shared by the account's applications.",
      ),
    isLocal: z.boolean(),
    status: z.enum(NETWORK_HEALTH),
    latestBlock: z.number().int().nullable(),
    /** Already active for the account. */
    activated: z.boolean(),
    activatedDate: z.string().nullable(),
    /** Not activated yet and nothing stands in the way. */
    activatable: z.boolean(),
    reason: z.enum(NETWORK_UNAVAILABLE_REASONS).nullable(),
  })
  .meta({ id: 'CatalogueNetwork' });
export type TCatalogueNetwork = z.infer<typeof ZCatalogueNetwork>;

/** The plan's blockchain allowance as the caller stands (spec §9: 0 blockchains means all). */
export const ZNetworkAllowance = z
  .object({
    blockchainAllowance: z.number().int(),
    /** Distinct blockchains (technologies) with at least one active network. */
    blockchainsUsed: z.number().int(),
    /** Null when the plan allows all blockchains. */
    blockchainsLeft: z.number().int().nullable(),
    /** The plan allows at least one mainnet (mainnetAllowance > 0). */
    mainnetsAllowed: z.boolean(),
    /** How many mainnets the plan allows the account to have active (0: none). */
    mainnetAllowance: z.number().int(),
    /** How many testnets the plan allows the account to have active. */
    testnetAllowance: z.number().int(),
    /** The gateway's rate limit for the account: requests a second on each network, shared by its applications. */
    rateLimit: z
      .number()
      .int()
      .describe(
        "The plan's gateway rate limit: requests a second on each network, shared by the account's applications (each network's networkRateLimit).",
      ),
    kycStatus: z.enum(KYC_STATUSES),
  })
  .meta({ id: 'NetworkAllowance' });
export type TNetworkAllowance = z.infer<typeof ZNetworkAllowance>;

export const ZCatalogueResponse = z
  .object({ allowance: ZNetworkAllowance, networks: z.array(ZCatalogueNetwork) })
  .meta({ id: 'CatalogueResponse' });
export type TCatalogueResponse = z.infer<typeof ZCatalogueResponse>;

export const ZActivateNetworksRequest = z
  .object({
    networkIds: z
      .array(z.uuid({ message: NETWORK_MESSAGES.unknownNetwork }), { error: NETWORK_MESSAGES.selectAtLeastOne })
      .min(1, { message: NETWORK_MESSAGES.selectAtLeastOne })
      .max(100),
  })
  .meta({ id: 'ActivateNetworksRequest' });
export type TActivateNetworksRequest = z.infer<typeof ZActivateNetworksRequest>;
export const ZActivateNetworksResponse = z
  .object({
    activated: z.array(z.uuid()),
    networks: z.array(ZUserNetwork),
  })
  .meta({ id: 'ActivateNetworksResponse' });
export type TActivateNetworksResponse = z.infer<typeof ZActivateNetworksResponse>;

/** Environment manager (spec §3 Integrate state: blockchains with their networks). */
export const ZEnvironmentBlockchain = z
  .object({
    externalId: z.string(),
    blockchain: z.string(),
    technology: z.string(),
    description: z.string(),
    /** How many catalogue networks the blockchain has. */
    blockchainCount: z.number().int(),
    /** The account has at least one network of it active. */
    selected: z.boolean(),
    networks: z.array(ZCatalogueNetwork),
  })
  .meta({ id: 'EnvironmentBlockchain' });
export type TEnvironmentBlockchain = z.infer<typeof ZEnvironmentBlockchain>;
export const ZEnvironmentManagerResponse = z
  .object({
    accountId: z.uuid(),
    allowance: ZNetworkAllowance,
    blockchains: z.array(ZEnvironmentBlockchain),
  })
  .meta({ id: 'EnvironmentManagerResponse' });
export type TEnvironmentManagerResponse = z.infer<typeof ZEnvironmentManagerResponse>;

/** The blockchain a catalogue network belongs to, as a stable id (its technology, lower-case, hyphenated). */
export function blockchainIdOf(technology: string): string {
  return technology
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Which catalogue networks the caller could activate, and why not (shared so the stepper's
 * selection can apply the allowances to its own picks before sending them). The plan's counts
 * (`inService`, `mainnetAllowance`, `testnetAllowance` with the networks of each type in use) are
 * applied when given; a plan out of service activates nothing.
 */
export function unavailableReason(
  network: { networkType: 'testnet' | 'mainnet'; technology: string; hasRpcUrl: boolean },
  account: {
    mainnetsAllowed: boolean;
    kycStatus: string;
    blockchainAllowance: number;
    blockchainsInUse: string[];
    inService?: boolean;
    mainnetAllowance?: number;
    mainnetsInUse?: number;
    testnetAllowance?: number;
    testnetsInUse?: number;
  },
): TNetworkUnavailableReason | null {
  if (!network.hasRpcUrl) return 'NO_RPC_URL';
  if (account.inService === false) return 'PLAN_INACTIVE';
  const isMainnet = network.networkType === 'mainnet';
  if (isMainnet && !account.mainnetsAllowed) return 'PLAN_MAINNETS';
  if (isMainnet && account.kycStatus !== 'VERIFIED') return 'KYC_REQUIRED';
  if (isMainnet && account.mainnetAllowance !== undefined && (account.mainnetsInUse ?? 0) >= account.mainnetAllowance) {
    return 'MAINNET_ALLOWANCE';
  }
  if (
    !isMainnet &&
    account.testnetAllowance !== undefined &&
    (account.testnetsInUse ?? 0) >= account.testnetAllowance
  ) {
    return 'TESTNET_ALLOWANCE';
  }
  const chain = blockchainIdOf(network.technology);
  if (
    account.blockchainAllowance > 0 &&
    !account.blockchainsInUse.includes(chain) &&
    account.blockchainsInUse.length >= account.blockchainAllowance
  ) {
    return 'BLOCKCHAIN_ALLOWANCE';
  }
  return null;
}
