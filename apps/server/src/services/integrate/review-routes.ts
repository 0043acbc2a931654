import { z } from 'zod';
import {
  ZManagementPrivateNetwork,
  ZManagementPrivateNetworksQuery,
  ZManagementPrivateNetworksResponse,
  ZPrivateNetworkReviewRequest,
  ZPrivateNetworkRpcCheck,
  ZProblem,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import { STAFF_LIST_PAGING_DESCRIPTION } from '../../lib/staff-list.ts';
import { PrivateNetworkReviewsReadModel } from '../../read-models/private-network-reviews.ts';
import type { App, Deps } from '../../types.ts';
import { IntegrateRepository } from './repository.ts';
import { PrivateNetworkReviewService } from './review-service.ts';
import type { RpcProbeFn } from './rpc-check.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['integrate'], security: [{ bearerAuth: [] }] };
/** Issue 33 §4: private-network review is for administrators (management-admin); sales are refused. */
const admin = { groups: ['management-admin' as const] };
const ZNetworkParams = z.object({ id: z.uuid({ message: 'The network id must be a UUID.' }) });

/**
 * The staff's private-network review (issue 33 §4), under /api/integrate/management/ like the
 * staff console's other lists. `rateLimit` is the submission's per-user limit of RPC checks: a
 * check run again makes the server call the customer's URL just the same.
 */
export async function privateNetworkReviewRoutes(
  app: App,
  deps: Deps,
  options: { probe: RpcProbeFn; rateLimit: object },
) {
  const reviews = new PrivateNetworkReviewService(
    new IntegrateRepository(deps.db, deps.events),
    new PrivateNetworkReviewsReadModel(deps.db),
    options.probe,
  );

  app.get(
    '/management/private-networks',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Staff: the private networks of every account, by status (admin)',
        description: `The networks of one status (status: UNDER_REVIEW — the default —, REMOVAL_REQUESTED, ACTIVE, REJECTED or REMOVED) with every field the customer entered, the account (organisation, status, owner) and the submitter; searched by part of the network's name, the organisation or the submitter's or owner's email, or by the chain id (searchTerm, trimmed); sorted by submittedAt (default submittedAt:asc, the longest wait first) or name. statusCounts holds every status's count for the tabs. ${STAFF_LIST_PAGING_DESCRIPTION}`,
        querystring: ZManagementPrivateNetworksQuery,
        response: { 200: ZManagementPrivateNetworksResponse, ...problems },
      },
    },
    async (request) => {
      const { page, size, sort, cursor, searchTerm, status } = request.query;
      return reviews.list({ status, searchTerm }, { page, size, sort, cursor });
    },
  );

  app.get(
    '/management/private-networks/:id',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Staff: one private network with its account and submitter (admin)',
        description: 'An unknown id answers 404 NETWORK_NOT_FOUND.',
        params: ZNetworkParams,
        response: { 200: ZManagementPrivateNetwork, ...problems },
      },
    },
    async (request) => reviews.details(request.params.id),
  );

  app.post(
    '/management/private-networks/:id/rpc-check',
    {
      config: { access: admin, rateLimit: options.rateLimit },
      schema: {
        ...docs,
        summary: 'Staff: run the live RPC check of a private network again (admin)',
        description:
          'The checks of the submission, now: the node at the network’s URL must answer, report the network’s chain id and have a base fee in its latest block exactly when EIP-1559 is on. Answers what the node said and the failed checks (`problems`, in the submission’s words); the network’s status does not change. At most 20 checks a minute per staff member (429).',
        params: ZNetworkParams,
        response: { 200: ZPrivateNetworkRpcCheck, ...problems },
      },
    },
    async (request) => reviews.rpcCheck(request.params.id),
  );

  app.put(
    '/management/private-networks/:id/review',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Staff: approve or reject a network under review, or complete a requested removal (admin)',
        description:
          'APPROVE (with an optional note) and REJECT (with the reason in `note`, required) apply to UNDER_REVIEW networks; COMPLETE_REMOVAL to REMOVAL_REQUESTED ones. A network no longer in that status — another staff member decided first, or the customer asked for its removal — answers 409 NETWORK_NOT_UNDER_REVIEW or NETWORK_NOT_REMOVABLE; of two decisions at once exactly one applies. The submitter sees an approval or a rejection on My networks and is told in the bell and by email. Audited with the network’s state before and after.',
        params: ZNetworkParams,
        body: ZPrivateNetworkReviewRequest,
        response: { 200: ZManagementPrivateNetwork, ...problems },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return reviews.review({ ...caller, requestId: request.id }, request.params.id, request.body);
    },
  );
}
