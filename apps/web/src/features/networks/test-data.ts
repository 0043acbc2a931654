import type { TCatalogueNetwork, TCatalogueResponse, TUser, TUserNetwork } from '@connect/shared';

/** Fixtures and a fetch answerer for the networks feature's component tests. */
export const USER = {
  id: '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f',
  accountId: '6a0c6a2e-2222-4c3b-9d7e-0a1b2c3d4e5f',
  firstName: 'Ada',
  role: 'INDIVIDUAL',
  onfidoApplicantStatus: 'VERIFIED',
} as TUser;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const testnetRow = (overrides: Partial<TUserNetwork> = {}): TUserNetwork => ({
  id: '10000000-0000-4000-8000-000000000001',
  networkType: 'testnet',
  network: 'Ethereum testnet',
  technology: 'Ethereum',
  chainId: 31337,
  status: 'ONLINE',
  activatedDate: '2026-11-20T10:00:00.000Z',
  networkRateLimit: 1250,
  latestBlock: 42,
  healthCheckedAt: '2026-11-22T10:00:00.000Z',
  explorerUrl: null,
  isLocal: true,
  private: null,
  ...overrides,
});

export const privateRow = (overrides: Partial<TUserNetwork> = {}): TUserNetwork => ({
  id: '20000000-0000-4000-8000-000000000001',
  networkType: 'private',
  network: 'Acme Ledger',
  technology: 'EVM',
  chainId: 777,
  status: 'UNDER_REVIEW',
  activatedDate: null,
  networkRateLimit: null,
  latestBlock: null,
  healthCheckedAt: null,
  explorerUrl: null,
  isLocal: false,
  private: {
    environment: 'sandbox',
    url: 'http://127.0.0.1:8545',
    eip1559: true,
    numberOfBlocks: 12,
    tokenSymbol: 'ACME',
    tokenDecimals: 18,
    nodeType: 'full',
    submittedAt: '2026-11-21T10:00:00.000Z',
    reviewedAt: null,
    reviewNote: null,
    removalRequestedAt: null,
    removedAt: null,
  },
  ...overrides,
});

export const catalogueEntry = (overrides: Partial<TCatalogueNetwork> = {}): TCatalogueNetwork => ({
  id: '30000000-0000-4000-8000-000000000001',
  code: 'ethereum-testnet',
  network: 'Ethereum testnet',
  networkType: 'testnet',
  technology: 'Ethereum',
  description: '',
  chainId: 31337,
  explorerUrl: null,
  networkRateLimit: 25,
  isLocal: true,
  status: 'ONLINE',
  latestBlock: 1,
  activated: false,
  activatedDate: null,
  activatable: true,
  reason: null,
  ...overrides,
});

export const catalogue = (
  networks: TCatalogueNetwork[],
  allowance: Partial<TCatalogueResponse['allowance']> = {},
): TCatalogueResponse => ({
  allowance: {
    blockchainAllowance: 0,
    blockchainsUsed: 0,
    blockchainsLeft: null,
    mainnetsAllowed: false,
    kycStatus: 'VERIFIED',
    ...allowance,
  },
  networks,
});
