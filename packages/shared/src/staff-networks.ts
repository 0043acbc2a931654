import { z } from 'zod';
import { USER_STATUSES } from './constants.ts';
import { NODE_TYPES, PRIVATE_NETWORK_ENVIRONMENTS, PRIVATE_NETWORK_STATUSES } from './networks.ts';
import { ZInvalidParam } from './problem.ts';
import { staffListQuery, ZStaffListPaging } from './staff-list.ts';

/*
 * Private-network review (issue 33 §4), under /api/integrate/management/, for management-admin:
 * the networks customers submitted, in the staff list, with their details and owner; the live RPC
 * check re-run on demand; approve, reject (with a reason) or complete a requested removal.
 */

/** The sortable columns; the default is submittedAt ascending: the longest wait first. */
export const MANAGEMENT_PRIVATE_NETWORK_SORT_FIELDS = ['submittedAt', 'name'] as const;
export type TManagementPrivateNetworkSortField = (typeof MANAGEMENT_PRIVATE_NETWORK_SORT_FIELDS)[number];

/** The status tabs, in the order staff work them: what waits for them first. */
export const PRIVATE_NETWORK_REVIEW_TABS = [
  'UNDER_REVIEW',
  'REMOVAL_REQUESTED',
  'ACTIVE',
  'REJECTED',
  'REMOVED',
] as const satisfies readonly (typeof PRIVATE_NETWORK_STATUSES)[number][];

/** `status` is one of the statuses, UNDER_REVIEW when absent; search is by name, chain id, organisation or email. */
export const ZManagementPrivateNetworksQuery = staffListQuery(MANAGEMENT_PRIVATE_NETWORK_SORT_FIELDS).extend({
  status: z
    .enum(PRIVATE_NETWORK_STATUSES, {
      error: `The status must be one of ${PRIVATE_NETWORK_STATUSES.join(', ')}.`,
    })
    .default('UNDER_REVIEW'),
});
export type TManagementPrivateNetworksQuery = {
  page?: number;
  size?: number;
  sort?: string;
  searchTerm?: string;
  cursor?: string;
  status?: (typeof PRIVATE_NETWORK_STATUSES)[number];
};

const ZPerson = z.object({ userId: z.uuid(), email: z.string(), name: z.string().nullable() });
const ZTime = z.iso.datetime({ offset: true });

/** A submitted private network as staff review it: every field the customer entered, its lifecycle and its owner. */
export const ZManagementPrivateNetwork = z
  .object({
    id: z.uuid(),
    name: z.string(),
    chainId: z.number().int(),
    status: z.enum(PRIVATE_NETWORK_STATUSES),
    environment: z.enum(PRIVATE_NETWORK_ENVIRONMENTS),
    url: z.string(),
    eip1559: z.boolean(),
    numberOfBlocks: z.number().int(),
    tokenSymbol: z.string(),
    tokenDecimals: z.number().int(),
    nodeType: z.enum(NODE_TYPES),
    submittedAt: ZTime,
    reviewedAt: ZTime.nullable(),
    /** The reason of a rejection, or the note of an approval: what the owner reads on My networks. */
    reviewNote: z.string().nullable(),
    /** The staff member who decided last (from the audit log); null before a decision. */
    reviewedBy: z.string().nullable(),
    removalRequestedAt: ZTime.nullable(),
    removedAt: ZTime.nullable(),
    account: z.object({
      accountId: z.uuid(),
      organisationName: z.string().nullable(),
      /** The account's status in the account list (REMOVED when staff removed its last user). */
      status: z.enum(USER_STATUSES).nullable(),
      /** The account's first user. */
      owner: ZPerson.nullable(),
    }),
    /** Who submitted the network (told of the decision); null when that user no longer exists. */
    submittedBy: ZPerson.nullable(),
  })
  .meta({ id: 'ManagementPrivateNetwork' });
export type TManagementPrivateNetwork = z.infer<typeof ZManagementPrivateNetwork>;

export const ZManagementPrivateNetworksResponse = ZStaffListPaging.extend({
  networks: z.array(ZManagementPrivateNetwork),
  /** How many networks each status has (the tabs' counts), whatever the search. */
  statusCounts: z.record(z.enum(PRIVATE_NETWORK_STATUSES), z.number().int()),
}).meta({ id: 'ManagementPrivateNetworksResponse' });
export type TManagementPrivateNetworksResponse = z.infer<typeof ZManagementPrivateNetworksResponse>;

/**
 * The live RPC check run again on a network (the checks of its submission): whether the node
 * answers, the chain id it reports and whether its latest block has a base fee. `problems` are
 * the submission's field errors (`url`, `chainId`, `eip1559`); none means the check passes.
 */
export const ZPrivateNetworkRpcCheck = z
  .object({
    networkId: z.uuid(),
    url: z.string(),
    checkedAt: ZTime,
    isPassed: z.boolean(),
    isReachable: z.boolean(),
    expectedChainId: z.number().int(),
    /** What the node reported; null when it did not answer. */
    chainId: z.number().int().nullable(),
    latestBlock: z.number().int().nullable(),
    expectedEip1559: z.boolean(),
    /** Whether its latest block has a base fee (EIP-1559); null when it did not answer. */
    eip1559: z.boolean().nullable(),
    problems: z.array(ZInvalidParam),
  })
  .meta({ id: 'PrivateNetworkRpcCheck' });
export type TPrivateNetworkRpcCheck = z.infer<typeof ZPrivateNetworkRpcCheck>;
