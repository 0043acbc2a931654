import type { TCatalogueNetwork, TCatalogueResponse, TUser, TUserNetwork } from '@connect/shared';
import { TEST_USER } from '../../test/fixtures.ts';

export { json } from '../../test/fixtures.ts';

/** Fixtures and a fetch answerer for the networks feature's component tests. */
export const USER: TUser = { ...TEST_USER, onfidoApplicantStatus: 'VERIFIED' };

export const testnetRow = (overrides: Partial<TUserNetwork> = {}): TUserNetwork => ({
  id: '10000000-0000-4000-8000-000000000001',
  networkType: 'testnet',
  network: 'Ethereum testnet',
  technology: 'Ethereum',
  chainId: 31337,
  status: 'ONLINE',
  activatedDate: '2026-11-20T10:00:00.000Z',
  // The plan's gateway rate limit (what the gateway enforces), as the server answers it.
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
  networkRateLimit: 1250,
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
    mainnetAllowance: 0,
    testnetAllowance: 10,
    rateLimit: 1250,
    kycStatus: 'VERIFIED',
    ...allowance,
  },
  networks,
});
