import type { TApplication, TApplicationNetwork, TApplicationsPage } from '@connect/shared';
import { TEST_USER } from '../../../test/fixtures.ts';

export { createFetchMock, json, TEST_USER as USER, type Handler } from '../../../test/fixtures.ts';

export const SEPOLIA: TApplicationNetwork = {
  id: '11111111-1111-4111-8111-111111111111',
  code: 'ethereum-testnet',
  name: 'Ethereum Testnet',
  networkType: 'testnet',
  technology: 'Ethereum',
  chainId: 31337,
  // The plan's gateway rate limit (what the gateway enforces), as the server answers it.
  rateLimit: 1250,
  isLocal: true,
};
export const AMOY: TApplicationNetwork = {
  ...SEPOLIA,
  id: '22222222-2222-4222-8222-222222222222',
  code: 'polygon-testnet',
  name: 'Polygon Testnet',
  technology: 'Polygon',
  chainId: 31338,
};

export const APPLICATION: TApplication = {
  id: '33333333-3333-4333-8333-333333333333',
  accountId: TEST_USER.accountId,
  name: 'Payments API',
  callbackUrl: 'https://example.com/callback',
  applicationType: 'testnet',
  testnetSigning: false,
  clientId: 'abcdefghijklmnopqrstuvwxyz',
  signingServiceName: 'quant-testnet-signing',
  signingKeyId: 'key-44444444-4444-4444-8444-444444444444',
  signingPublicKey: `0x04${'ab'.repeat(64)}`,
  networks: [SEPOLIA],
  secrets: [
    {
      id: '55555555-5555-4555-8555-555555555555',
      hint: 'Wxyz',
      status: 'ACTIVE',
      createdAt: '2026-11-20T10:00:00.000Z',
      expiresAt: null,
      revokedAt: null,
    },
  ],
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

export function page(
  content: TApplication[],
  quota = { used: content.length, total: 3 as number | null },
): TApplicationsPage {
  return { content, totalElements: content.length, totalPages: 1, number: 0, size: 10, quota };
}
