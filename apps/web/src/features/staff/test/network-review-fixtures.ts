import {
  PRIVATE_NETWORK_STATUSES,
  ZManagementPrivateNetwork,
  ZManagementPrivateNetworksResponse,
  ZPrivateNetworkRpcCheck,
  type TManagementPrivateNetwork,
  type TManagementPrivateNetworksResponse,
  type TPrivateNetworkRpcCheck,
} from '@connect/shared';
import { ACCOUNT, CUSTOMER } from './fixtures.ts';

/*
 * The network review's test data (issue 33 §4), parsed by the shared schemas: a fixture the
 * server could not send fails here, not in a page.
 */

/** Ada's network, waiting for review since 21.11.2026. */
export const UNDER_REVIEW_NETWORK: TManagementPrivateNetwork = ZManagementPrivateNetwork.parse({
  id: '7e000000-0000-4000-8000-000000000001',
  name: 'Engine Ledger',
  chainId: 4242,
  status: 'UNDER_REVIEW',
  environment: 'production',
  url: 'https://rpc.engines.example/v1',
  eip1559: true,
  numberOfBlocks: 12,
  tokenSymbol: 'ENG',
  tokenDecimals: 18,
  nodeType: 'archive',
  submittedAt: '2026-11-21T09:30:00.000Z',
  reviewedAt: null,
  reviewNote: null,
  reviewedBy: null,
  removalRequestedAt: null,
  removedAt: null,
  account: {
    accountId: ACCOUNT.accountId,
    organisationName: ACCOUNT.organisationName,
    status: 'ACTIVE',
    owner: { userId: CUSTOMER.userId, email: CUSTOMER.email, name: 'Ada Lovelace' },
  },
  submittedBy: { userId: CUSTOMER.userId, email: CUSTOMER.email, name: 'Ada Lovelace' },
});

/** A second network under review, of an account without an organisation whose submitter is gone. */
export const ORPHAN_NETWORK: TManagementPrivateNetwork = ZManagementPrivateNetwork.parse({
  ...UNDER_REVIEW_NETWORK,
  id: '7e000000-0000-4000-8000-000000000002',
  name: 'Loom Chain',
  chainId: 77,
  url: 'http://10.0.0.7:8545',
  environment: 'sandbox',
  nodeType: 'full',
  submittedAt: '2026-11-22T09:30:00.000Z',
  account: {
    accountId: '7b000000-0000-4000-8000-0000000000cc',
    organisationName: null,
    status: 'REMOVED',
    owner: null,
  },
  submittedBy: null,
});

/** A network staff rejected, with the reason. */
export const REJECTED_NETWORK: TManagementPrivateNetwork = ZManagementPrivateNetwork.parse({
  ...UNDER_REVIEW_NETWORK,
  id: '7e000000-0000-4000-8000-000000000003',
  name: 'Rejected Ledger',
  status: 'REJECTED',
  reviewedAt: '2026-11-23T10:00:00.000Z',
  reviewNote: 'The node is not an archive node.',
  reviewedBy: 'grace@connect.example',
});

/** A network whose owner asked for its removal. */
export const REMOVAL_NETWORK: TManagementPrivateNetwork = ZManagementPrivateNetwork.parse({
  ...UNDER_REVIEW_NETWORK,
  id: '7e000000-0000-4000-8000-000000000004',
  name: 'Old Ledger',
  status: 'REMOVAL_REQUESTED',
  reviewedAt: '2026-10-01T10:00:00.000Z',
  reviewedBy: 'grace@connect.example',
  removalRequestedAt: '2026-11-24T08:00:00.000Z',
});

export const REVIEW_COUNTS = { UNDER_REVIEW: 2, REMOVAL_REQUESTED: 1, ACTIVE: 7, REJECTED: 1, REMOVED: 0 };

export function reviewsAnswer(
  rows: TManagementPrivateNetwork[],
  { page = 0, size = 5, totalItems = rows.length } = {},
): TManagementPrivateNetworksResponse {
  return ZManagementPrivateNetworksResponse.parse({
    networks: rows,
    statusCounts: Object.fromEntries(PRIVATE_NETWORK_STATUSES.map((status) => [status, REVIEW_COUNTS[status]])),
    totalItems,
    totalPages: Math.ceil(totalItems / size),
    totalCapped: false,
    page,
    size,
    hasNextPage: (page + 1) * size < totalItems,
    cursor: rows.length ? `reviews-${page}` : null,
  });
}

export const PASSED_CHECK: TPrivateNetworkRpcCheck = ZPrivateNetworkRpcCheck.parse({
  networkId: UNDER_REVIEW_NETWORK.id,
  url: UNDER_REVIEW_NETWORK.url,
  checkedAt: '2026-11-25T10:00:00.000Z',
  isPassed: true,
  isReachable: true,
  expectedChainId: 4242,
  chainId: 4242,
  latestBlock: 1234567,
  expectedEip1559: true,
  eip1559: true,
  problems: [],
});

export const FAILED_CHECK: TPrivateNetworkRpcCheck = ZPrivateNetworkRpcCheck.parse({
  ...PASSED_CHECK,
  isPassed: false,
  chainId: 1,
  problems: [{ name: 'chainId', reason: 'The node at this URL reports chain id 1, not 4242' }],
});
