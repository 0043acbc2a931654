import { z } from 'zod';
import {
  OVERRIDE_KEYS,
  ZAccountOverride,
  ZAccountOverridesResponse,
  ZAvailableFeatures,
  ZManagementAccountsQuery,
  ZManagementAccountDetail,
  ZManagementAccountsResponse,
  ZProblem,
  ZSetOverrideRequest,
  type TAccountOverride,
} from '@connect/shared';
import { fieldProblem, notFound } from '../../lib/errors.ts';
import type { App, Deps } from '../../types.ts';
import { ALLOWANCE_KEYS, Entitlements, isSwitchKey, type AllowanceKey, type Override } from '../entitlements/index.ts';
import { callerOf } from '../../lib/caller.ts';
import { AuditLogRepository } from '../../repositories/audit-log.ts';
import { applicationChanges } from '../../lib/application-changes.ts';
import { AccountManagementRepository } from './account-management-repository.ts';
import { STAFF_LIST_PAGING_DESCRIPTION } from '../../lib/staff-list.ts';
import { AccountDetailReadModel } from '../../read-models/account-detail.ts';

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
    '/management/accounts/:accountId',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'An account’s panel (sales)',
        description:
          'Spec §3 Account detail: the owner (name, email, the billing telephone), business and location, the plan with its status and reason and the payment preference (how the last order was paid), trial extensions so far, the ledger’s balances (credits; QNT and reward QNT in wei, as decimal strings), and the account’s latest orders, invoices, payments, credit notes and audit entries (about the account, its users and its orders). The allowances used and allowed are GET /management/feature/account/{accountId}. An unknown account answers 404 NOT_FOUND.',
        params: z.object({ accountId: z.uuid() }),
        response: { 200: ZManagementAccountDetail, ...problems },
      },
    },
    async (request) => {
      const detail = await new AccountDetailReadModel(deps.db).detail(request.params.accountId);
      if (!detail) throw notFound('NOT_FOUND', 'The account was not found.');
      return detail;
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
      await requireAccount(accountId);
      return { availableFeatures: await new Entitlements(deps.db).features(accountId) };
    },
  );

  const ZOverrideParams = z.object({ accountId: z.uuid(), key: z.enum(OVERRIDE_KEYS) });

  app.get(
    '/management/accounts/:accountId/overrides',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'An account’s feature and allowance overrides (sales)',
        description:
          'The overrides that win over the account’s plan until staff clear them, and the allowances in force (the override’s number, else the plan’s; null without a plan).',
        params: z.object({ accountId: z.uuid() }),
        response: { 200: ZAccountOverridesResponse, ...problems },
      },
    },
    async (request) => {
      const { accountId } = request.params;
      await requireAccount(accountId);
      const entitlements = new Entitlements(deps.db);
      const [overrides, allowances] = await Promise.all([
        entitlements.overrides(accountId),
        entitlements.allowances(accountId),
      ]);
      return {
        overrides: overrides.map(presentOverride),
        allowances: allowances?.status
          ? (Object.fromEntries(ALLOWANCE_KEYS.map((key) => [key, allowances[key]])) as Record<AllowanceKey, number>)
          : null,
      };
    },
  );

  app.put(
    '/management/accounts/:accountId/overrides/:key',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'Override a feature or an allowance for an account (sales)',
        description:
          'A switch (reward, mynetworks:v2, privateNetwork, connectBeta, bridge) takes `{ enabled }`; an allowance (applications, tokens, bridges, blockchains — 0 means all —, mainnets, testnets, rateLimit) takes `{ amount }`. The override wins over the plan until cleared; the customer’s menu shows it at their next load, and the gateway applies a rate limit at once on this node (within 2 s on the others). Audited with the values before and after.',
        params: ZOverrideParams,
        body: ZSetOverrideRequest,
        response: { 200: ZAccountOverride, ...problems },
      },
    },
    async (request) => {
      const { accountId, key } = request.params;
      const value = request.body;
      if (isSwitchKey(key) !== 'enabled' in value) {
        throw fieldProblem(
          'INVALID_REQUEST',
          'enabled' in value ? 'amount' : 'enabled',
          isSwitchKey(key) ? 'A feature switch takes { enabled }.' : 'An allowance takes { amount }.',
        );
      }
      await requireAccount(accountId);
      const caller = callerOf(request);
      const override = await deps.db.transaction(async (tx) => {
        const entitlements = new Entitlements(tx);
        const before = (await entitlements.overrides(accountId)).find((o) => o.key === key);
        await entitlements.setOverride(accountId, key, value, caller.id);
        const after = (await entitlements.overrides(accountId)).find((o) => o.key === key)!;
        await new AuditLogRepository(tx).record(
          { ...caller, requestId: request.id },
          {
            action: 'FEATURE_OVERRIDE_SET',
            recordType: 'account',
            recordId: accountId,
            before: { key, override: before?.value ?? null },
            after: { key, override: after.value },
          },
        );
        return after;
      });
      applicationChanges(deps).accountChanged(accountId);
      return presentOverride(override);
    },
  );

  app.delete(
    '/management/accounts/:accountId/overrides/:key',
    {
      config: { access: sales },
      schema: {
        ...docs,
        summary: 'Clear an account’s override: the plan decides again (sales)',
        description: 'Answers 204 whether or not there was an override; audited when there was one.',
        params: ZOverrideParams,
        response: { 204: z.null().describe('Cleared.'), ...problems },
      },
    },
    async (request, reply) => {
      const { accountId, key } = request.params;
      await requireAccount(accountId);
      const caller = callerOf(request);
      await deps.db.transaction(async (tx) => {
        const entitlements = new Entitlements(tx);
        const before = (await entitlements.overrides(accountId)).find((o) => o.key === key);
        if (!(await entitlements.clearOverride(accountId, key))) return;
        await new AuditLogRepository(tx).record(
          { ...caller, requestId: request.id },
          {
            action: 'FEATURE_OVERRIDE_CLEARED',
            recordType: 'account',
            recordId: accountId,
            before: { key, override: before?.value ?? null },
            after: { key, override: null },
          },
        );
      });
      applicationChanges(deps).accountChanged(accountId);
      return reply.code(204).send(null);
    },
  );

  async function requireAccount(accountId: string): Promise<void> {
    if (!(await accounts.exists(accountId))) throw notFound('NOT_FOUND', 'The account was not found.');
  }
}

function presentOverride(override: Override): TAccountOverride {
  return {
    key: override.key,
    value: override.value,
    setBy: override.setBy,
    setAt: override.setAt.toISOString(),
  };
}
