import { z } from 'zod';
import { NETWORK_TYPES } from '../networks.ts';
import { isEvmAddress } from './addresses.ts';
import {
  DEPLOYMENT_TYPES,
  TIER_TYPES,
  TOKEN_PAGE_SIZES,
  TOKEN_STATUSES,
  TOKEN_TYPES,
  type TDeploymentType,
  type TTierType,
  type TTokenStatus,
  type TTokenType,
} from './constants.ts';
import { TOKEN_FORM_FIELDS, type TTokenFormInput } from './form.ts';
import { TOKEN_MESSAGES } from './messages.ts';

/*
 * The tokenise API's requests and answers (spec §3 token entities and tier cards, §7 tokenise
 * calls), shared by the SPA and the server. Names here are stable: add rather than rename.
 */

// ---------------------------------------------------------------------------------------------
// Tier cards (spec §3)
// ---------------------------------------------------------------------------------------------

/** One tier card (spec §3 Tier card) as GET /v2/orchestration/tiers answers it. */
export const ZTierCard = z
  .object({
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
  })
  .meta({ id: 'TierCard' });
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
export const ZTiersResponse = z.object({ tiers: z.array(ZTierCard) }).meta({ id: 'TiersResponse' });
export type TTiersResponse = z.infer<typeof ZTiersResponse>;

// ---------------------------------------------------------------------------------------------
// Locations (spec §3 portfolio state: technology and network pairs)
// ---------------------------------------------------------------------------------------------

export const ZTokenLocation = z
  .object({
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
  })
  .meta({ id: 'TokenLocation' });
export type TTokenLocation = z.infer<typeof ZTokenLocation>;
export const ZLocationsResponse = z.object({ locations: z.array(ZTokenLocation) }).meta({ id: 'LocationsResponse' });
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
export const ZToken = z
  .object({
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
  })
  .meta({ id: 'Token' });
export type TToken = z.infer<typeof ZToken>;

/** A filter the "All …" option leaves empty: '' and null mean no filter. */
const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

/** POST /tokens: search by name or unit, filters, paging (spec §2.5, §9). `page` counts from 0. */
export const ZTokensRequest = z
  .object({
    // A JSON body: numbers, not text (a negative page still reads as the first).
    page: z
      .number()
      .int()
      .transform((page) => Math.max(0, page))
      .default(0),
    size: z
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
  })
  .meta({ id: 'TokensRequest' });
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

export const ZTokenQuota = z
  .object({
    /** Tokens deployed or being deployed (the tokens:create usage record's used count). */
    deployed: z.number().int(),
    /** The plan's allowance; null = unlimited. */
    allowed: z.number().int().nullable(),
  })
  .meta({ id: 'TokenQuota' });
export type TTokenQuota = z.infer<typeof ZTokenQuota>;

export const ZTokensPage = z
  .object({
    content: z.array(ZToken),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
    quota: ZTokenQuota,
    /** Blockchains of the account's tokens, for the blockchain filter. */
    blockchains: z.array(z.string()),
    credits: z.number().int(),
  })
  .meta({ id: 'TokensPage' });
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
export const ZVerifyTokenRequest = z
  .looseObject({
    ...deploymentTarget,
    deploymentType: deploymentTarget.deploymentType.default('QUANT'),
  })
  .meta({ id: 'VerifyTokenRequest' });
export type TVerifyTokenRequest = {
  networkId: string;
  tierId: string;
  tokenType: TTokenType;
  deploymentType?: TDeploymentType;
} & TTokenFormInput;
export const ZVerifyTokenResponse = z
  .object({
    valid: z.boolean(),
    invalidParams: z.array(z.object({ name: z.string(), reason: z.string() })),
    /** What the deployment would cost. */
    creditAmount: z.number().int(),
    credits: z.number().int(),
  })
  .meta({ id: 'VerifyTokenResponse' });
export type TVerifyTokenResponse = z.infer<typeof ZVerifyTokenResponse>;

/** POST /v2/token: create and deploy. The same externalId always answers the same token. */
export const ZCreateTokenRequest = z
  .looseObject({ externalId: ZExternalId, ...deploymentTarget })
  .meta({ id: 'CreateTokenRequest' });
export type TCreateTokenRequest = {
  externalId: string;
  networkId: string;
  tierId: string;
  tokenType: TTokenType;
  deploymentType: TDeploymentType;
} & TTokenFormInput;

/** What a wallet sends for a META_MASK deployment: a contract creation with exactly this data. */
export const ZWalletDeployment = z
  .object({
    chainId: z.number().int(),
    /** Creation bytecode + ABI-encoded constructor arguments. */
    data: z.string(),
  })
  .meta({ id: 'WalletDeployment' });
export type TWalletDeployment = z.infer<typeof ZWalletDeployment>;

export const ZCreateTokenResponse = z
  .object({
    token: ZToken,
    /** META_MASK and not yet tracked: the transaction to send from the wallet; null otherwise. */
    deployment: ZWalletDeployment.nullable(),
  })
  .meta({ id: 'CreateTokenResponse' });
export type TCreateTokenResponse = z.infer<typeof ZCreateTokenResponse>;

/** The value read from the chain for GET /token/{id} (null with an error when the RPC failed). */
export const ZTokenOnChain = z
  .object({
    totalSupply: z.string().nullable(),
    holder: z.string().nullable(),
    holderBalance: z.string().nullable(),
    /** Block the values were read at. */
    blockNumber: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'TokenOnChain' });
export type TTokenOnChain = z.infer<typeof ZTokenOnChain>;

export const ZTokenDetails = ZToken.extend({
  functions: z.array(z.string()),
  explorer: z.object({ contractUrl: z.string().nullable(), transactionUrl: z.string().nullable() }),
  /** Null until the token is on chain. */
  onChain: ZTokenOnChain.nullable(),
  /** META_MASK while no transaction is tracked: what to send from the wallet. */
  deployment: ZWalletDeployment.nullable(),
}).meta({ id: 'TokenDetails' });
export type TTokenDetails = z.infer<typeof ZTokenDetails>;
export const ZTokenDetailsQuery = z.object({
  /** Whose balance to read; empty means none. */
  holder: optionalFilter(z.string().trim().refine(isEvmAddress, { message: TOKEN_MESSAGES.addressFormat })),
});

/**
 * PUT /token: an owner's change. `status` DEPRECATED (from Active) or ACTIVE (from Deprecated, or
 * from Unpaid once the credits are there); form fields only while a wallet deployment has not been
 * sent. Decided in docs/decisions/tokens-and-chains.md ("Tokens").
 */
export const ZUpdateTokenRequest = z
  .looseObject({
    id: z.uuid({ message: TOKEN_MESSAGES.notFound }),
    status: z.enum(['ACTIVE', 'DEPRECATED'] as const).optional(),
  })
  .meta({ id: 'UpdateTokenRequest' });
export type TUpdateTokenRequest = { id: string; status?: 'ACTIVE' | 'DEPRECATED' } & TTokenFormInput;

const ZTxHash = z
  .string({ error: TOKEN_MESSAGES.txHash })
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, { message: TOKEN_MESSAGES.txHash })
  .transform((hash) => hash.toLowerCase());

/** PUT /token/deploy/track: the wallet sent the deployment. */
export const ZTrackDeploymentRequest = z
  .object({ externalId: ZExternalId, txHash: ZTxHash })
  .meta({ id: 'TrackDeploymentRequest' });
export type TTrackDeploymentRequest = z.input<typeof ZTrackDeploymentRequest>;

export const WALLET_CANCEL_REASONS = ['CANCELLED', 'DENIED', 'NO_WALLET', 'ERROR'] as const;
/** PUT /token/deploy/track/cancel: the user cancelled or denied the wallet's request. */
export const ZCancelTrackingRequest = z
  .object({
    externalId: ZExternalId,
    reason: z.enum(WALLET_CANCEL_REASONS).default('CANCELLED'),
  })
  .meta({ id: 'CancelTrackingRequest' });
export type TCancelTrackingRequest = z.input<typeof ZCancelTrackingRequest>;

export const ZTokenResult = z.object({ token: ZToken }).meta({ id: 'TokenResult' });
export type TTokenResult = z.infer<typeof ZTokenResult>;
export const ZDeleteTokenResponse = z
  .object({ deleted: z.literal(true), externalId: z.string() })
  .meta({ id: 'DeleteTokenResponse' });
