/*
 * The tokenise service's vocabulary (spec §4 statuses, §9 constants): token statuses, types,
 * tiers, deployment methods and limits. Zod-free.
 */

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

/** Limits of spec §5/§9 and the ones it leaves open (docs/decisions/tokens-and-chains.md "Tokens"). */
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
