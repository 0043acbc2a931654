import type { Call } from './calls.ts';
import { campaignCalls } from './campaigns.ts';
import { staffApplicationCalls } from './staff-applications.ts';
import { tierCalls } from './tiers.ts';

/** The staff console (issue 32): user management and the audit log, as the administrator. */
export function staffCalls(): Call[] {
  const invite = { email: 'recorded.invitee@staff.test', firstName: 'Rita', lastName: 'Corder', role: 'QUANT_SALES' };
  return [
    {
      operation: 'GET /api/connect/management/users',
      send: () => ({ url: '/api/connect/management/users?status=ACTIVE&page=0&size=5&sort=email:asc', as: 'admin' }),
      status: 200,
    },
    {
      operation: 'GET /api/connect/management/users',
      send: () => ({ url: '/api/connect/management/users?size=7', as: 'admin' }),
      status: 400,
    },
    ...[201, 409].map((status): Call => ({
      operation: 'POST /api/connect/management/user/invite',
      send: () => ({ url: '/api/connect/management/user/invite', as: 'admin', body: invite }),
      status,
      keep: (body: { userId?: string }, s) => {
        if (body.userId) s.invitee = body.userId;
      },
    })),
    {
      operation: 'PUT /api/connect/management/user',
      send: (s) => ({
        url: '/api/connect/management/user',
        as: 'admin',
        body: { userId: s.invitee, firstName: 'Rita', lastName: 'Recorder', role: 'QUANT_ADMIN' },
      }),
      status: 200,
    },
    {
      operation: 'POST /api/connect/management/reset-mfa',
      send: (s) => ({ url: '/api/connect/management/reset-mfa', as: 'admin', body: { userId: s.invitee } }),
      status: 200,
    },
    ...[200, 409].map((status): Call => ({
      operation: 'DELETE /api/connect/management/user',
      send: (s) => ({ url: '/api/connect/management/user', as: 'admin', body: { userId: s.invitee } }),
      status,
    })),
    ...[200, 409].map((status): Call => ({
      operation: 'POST /api/connect/management/user/restore',
      send: (s) => ({ url: '/api/connect/management/user/restore', as: 'admin', body: { userId: s.invitee } }),
      status,
    })),
    {
      operation: 'GET /api/connect/management/accounts',
      send: () => ({
        url: '/api/connect/management/accounts?status=ACTIVE&page=0&size=5&sort=organisationName:asc',
        as: 'admin',
      }),
      status: 200,
      keep: (body: { accountList: { accountId: string }[] }, s) => {
        s.listedAccount = body.accountList[0]!.accountId;
      },
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/connect/management/feature/account/{accountId}',
      send: (s) => ({
        url: `/api/connect/management/feature/account/${isKnown ? s.listedAccount : '00000000-0000-4000-8000-000000000000'}`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[
      { body: { enabled: false }, status: 200 },
      { body: { amount: 3 }, status: 400 },
    ].map(({ body, status }): Call => ({
      operation: 'PUT /api/connect/management/accounts/{accountId}/overrides/{key}',
      send: (s) => ({
        url: `/api/connect/management/accounts/${s.listedAccount}/overrides/bridge`,
        as: 'admin',
        body,
      }),
      status,
    })),
    {
      operation: 'GET /api/connect/management/accounts/{accountId}/overrides',
      send: (s) => ({ url: `/api/connect/management/accounts/${s.listedAccount}/overrides`, as: 'admin' }),
      status: 200,
    },
    {
      operation: 'DELETE /api/connect/management/accounts/{accountId}/overrides/{key}',
      send: (s) => ({ url: `/api/connect/management/accounts/${s.listedAccount}/overrides/bridge`, as: 'admin' }),
      status: 204,
    },
    ...[
      { body: { days: 14, reason: 'Evaluating the paid tiers' }, status: 200 },
      { body: { days: 0, reason: '' }, status: 400 },
    ].map(({ body, status }): Call => ({
      operation: 'POST /api/account-plan/management/accounts/{accountId}/trial-extension',
      send: (s) => ({
        url: `/api/account-plan/management/accounts/${s.listedAccount}/trial-extension`,
        as: 'admin',
        body,
      }),
      status,
    })),
    {
      operation: 'GET /api/connect/management/accounts/{accountId}',
      send: (s) => ({ url: `/api/connect/management/accounts/${s.listedAccount}`, as: 'admin' }),
      status: 200,
    },
    ...[
      { body: { action: 'DISABLE', reason: 'Card dispute' }, status: 200 },
      { body: { action: 'ENABLE', reason: 'Resolved' }, status: 200 },
      { body: { action: 'CANCEL', reason: 'The trial renews nothing' }, status: 409 },
    ].map(({ body, status }): Call => ({
      operation: 'POST /api/account-plan/management/accounts/{accountId}/plan-change',
      send: (s) => ({
        url: `/api/account-plan/management/accounts/${s.listedAccount}/plan-change`,
        as: 'admin',
        body,
      }),
      status,
    })),
    ...[
      { query: 'status=AWAITING_PAYMENT&page=0&size=5&sort=createdAt:desc', status: 200 },
      { query: 'status=LOST', status: 400 },
    ].map(({ query, status }): Call => ({
      operation: 'GET /api/account-plan/management/order-list',
      send: () => ({ url: `/api/account-plan/management/order-list?${query}`, as: 'admin' }),
      status,
    })),
    ...staffApplicationCalls(),
    ...tierCalls(),
    ...campaignCalls(),
    {
      operation: 'GET /api/connect/management/audit-log',
      send: () => ({ url: '/api/connect/management/audit-log?action=USER_INVITED&size=10', as: 'admin' }),
      status: 200,
    },
    {
      operation: 'GET /api/connect/management/audit-log/export',
      send: () => ({ url: '/api/connect/management/audit-log/export?action=USER_REMOVED', as: 'admin' }),
      status: 200,
    },
  ];
}
