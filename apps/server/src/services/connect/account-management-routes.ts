import { z } from 'zod';
import { ZAvailableFeatures, ZManagementAccountsQuery, ZManagementAccountsResponse, ZProblem } from '@connect/shared';
import { notFound } from '../../lib/errors.ts';
import type { App, Deps } from '../../types.ts';
import { Entitlements } from '../entitlements/index.ts';
import { AccountManagementRepository } from './account-management-repository.ts';
import { STAFF_LIST_PAGING_DESCRIPTION } from '../../lib/staff-list.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem };
/** Spec §2: account management is for management-sales (sales and administrators). */
const sales = { groups: ['management-sales' as const] };

/** Account management (issue 33 §1; spec §2 Account management, §7 Connect administration). */
export async function accountManagementRoutes(app: App, deps: Deps) {
  const accounts = new AccountManagementRepository(deps.db);

  app.get(
    '/management/accounts',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'The account list of /account-management (sales)',
        description: `Every account, or those of the given statuses (status, repeated for several: ACTIVE, PENDING — only invited users who have not signed in yet — or REMOVED), searched by part of the organisation, the owner's email or name, or the plan (searchTerm, trimmed: 3 or more characters match anywhere, 1–2 characters the start of the organisation or plan), sorted by organisationName, currentPlan or createdAt (default createdAt:desc). ${STAFF_LIST_PAGING_DESCRIPTION}`,
        querystring: ZManagementAccountsQuery,
        response: { 200: ZManagementAccountsResponse, ...problems },
      },
    },
    async (request) => {
      const { page, size, sort, cursor, searchTerm, status } = request.query;
      return accounts.list({ statuses: status, searchTerm }, { page, size, sort, cursor });
    },
  );

  app.get(
    '/management/feature/account/:accountId',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'An account’s features (sales)',
        description:
          'The map the customer’s menu reads (GET /available): feature name to { t: total (null = unlimited), a: used }. An unknown account answers 404 NOT_FOUND.',
        params: z.object({ accountId: z.uuid() }),
        response: { 200: ZAvailableFeatures, ...problems },
      },
    },
    async (request) => {
      const { accountId } = request.params;
      if (!(await accounts.exists(accountId))) throw notFound('NOT_FOUND', 'The account was not found.');
      return { availableFeatures: await new Entitlements(deps.db).features(accountId) };
    },
  );
}
