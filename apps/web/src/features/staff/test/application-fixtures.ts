import {
  ZApplicationRolesResponse,
  ZManagementApplication,
  ZManagementApplicationsResponse,
  ZManagementCreateApplicationResponse,
  ZManagementNetworkCatalogue,
  ZManagementNetworksResponse,
  type TManagementApplication,
  type TManagementApplicationsResponse,
} from '@connect/shared';
import { CUSTOMER } from './fixtures.ts';

/*
 * Application management's test data (issue 33 §2), parsed by the shared schemas: a fixture the
 * server could not send fails here, not in a page.
 */

export const TESTNET = { id: '7e000000-0000-4000-8000-000000000001', name: 'Ethereum testnet', networkType: 'testnet' };
export const POLYGON = { id: '7e000000-0000-4000-8000-000000000002', name: 'Polygon testnet', networkType: 'testnet' };
export const MAINNET = { id: '7e000000-0000-4000-8000-000000000003', name: 'Ethereum mainnet', networkType: 'mainnet' };

export const NETWORK_CATALOGUE = ZManagementNetworkCatalogue.parse({ networks: [TESTNET, POLYGON, MAINNET] });

/** Ada's application, registered by her. */
export const APPLICATION: TManagementApplication = ZManagementApplication.parse({
  applicationId: '7f000000-0000-4000-8000-000000000001',
  name: 'Payments API',
  clientId: 'abcdefghijklmnopqrstuvwxyz',
  applicationType: 'testnet',
  roleName: 'DEVELOPER',
  status: 'ACTIVE',
  accountId: CUSTOMER.accountId,
  organisationName: 'Analytical Engines Ltd',
  owner: { userId: CUSTOMER.userId, email: CUSTOMER.email, name: 'Ada Lovelace' },
  networks: [TESTNET, POLYGON],
  createdAt: '2026-11-02T10:30:00.000Z',
});

/** An application of an account staff closed. */
export const REMOVED_APPLICATION: TManagementApplication = ZManagementApplication.parse({
  ...APPLICATION,
  applicationId: '7f000000-0000-4000-8000-000000000002',
  name: 'Old bot',
  clientId: 'zyxwvutsrqponmlkjihgfedcba',
  roleName: 'INTEGRATION',
  status: 'REMOVED',
  accountId: '7b000000-0000-4000-8000-0000000000bb',
  organisationName: null,
  owner: { userId: '7b000000-0000-4000-8000-000000000009', email: 'charles@example.com', name: null },
  networks: [MAINNET],
  applicationType: 'mainnet',
});

export function applicationsAnswer(
  rows: TManagementApplication[],
  { page = 0, size = 5, totalItems = rows.length } = {},
): TManagementApplicationsResponse {
  return ZManagementApplicationsResponse.parse({
    applicationList: rows,
    totalItems,
    totalPages: Math.ceil(totalItems / size),
    totalCapped: false,
    page,
    size,
    hasNextPage: (page + 1) * size < totalItems,
    cursor: rows.length ? `applications-${page}` : null,
  });
}

export const ROLES = ZApplicationRolesResponse.parse({
  roles: [
    { roleName: 'DEVELOPER', description: "The customer's own development." },
    { roleName: 'INTEGRATION', description: 'An integration set up by staff with the customer.' },
    { roleName: 'DEMONSTRATION', description: 'A proof of concept prepared for the customer.' },
  ],
});

const network = (n: { id: string; name: string; networkType: string }) => ({
  ...n,
  code: n.name.toLowerCase().replace(/ /g, '-'),
  technology: 'Ethereum',
  chainId: 11155111,
  rateLimit: 25,
  isLocal: true,
});
/** Ada's account's activated testnets. */
export const ACCOUNT_TESTNETS = ZManagementNetworksResponse.parse({ networks: [network(TESTNET), network(POLYGON)] });

export const CREATED = ZManagementCreateApplicationResponse.parse({
  id: '7f000000-0000-4000-8000-000000000003',
  accountId: CUSTOMER.accountId,
  name: 'Onboarding bot',
  callbackUrl: 'https://example.com/callback',
  applicationType: 'testnet',
  testnetSigning: false,
  clientId: 'onboardingclientid00000000',
  signingServiceName: 'quant-testnet-signing',
  signingKeyId: 'key-1',
  signingPublicKey: '0x04ab',
  networks: [network(POLYGON)],
  secrets: [],
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
  clientSecret: 'the-secret-shown-only-once-0123456789',
  roleName: 'INTEGRATION',
  owner: { userId: CUSTOMER.userId, email: CUSTOMER.email },
});
