import type { Call } from './calls.ts';

/**
 * Application management (issue 33 §2), as the administrator: the list, the roles, the network
 * catalogue, an account's networks, and a creation for the script's user (its account activated
 * `s.network`).
 */
export function staffApplicationCalls(): Call[] {
  return [
    ...['size=5&sort=name:asc&status=ACTIVE', 'size=7'].map((query, i): Call => ({
      operation: 'GET /api/application-manager/management/applications',
      send: () => ({ url: `/api/application-manager/management/applications?${query}`, as: 'admin' }),
      status: i ? 400 : 200,
    })),
    {
      operation: 'GET /api/application-manager/management/application-roles',
      send: () => ({ url: '/api/application-manager/management/application-roles', as: 'admin' }),
      status: 200,
    },
    {
      operation: 'GET /api/application-manager/management/networks',
      send: () => ({ url: '/api/application-manager/management/networks', as: 'admin' }),
      status: 200,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/application-manager/management/networks/{accountId}/{networkType}',
      send: (s) => ({
        url: `/api/application-manager/management/networks/${isKnown ? s.account : '00000000-0000-4000-8000-000000000000'}/testnet`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[201, 400].map((status): Call => ({
      operation: 'POST /api/application-manager/management/applications',
      send: (s) => ({
        url: '/api/application-manager/management/applications',
        as: 'admin',
        body: {
          email: s.email,
          roleName: 'INTEGRATION',
          name: 'Recorded staff app',
          callbackUrl: 'https://example.com/cb',
          applicationType: 'testnet',
          networkIds: status === 201 ? [s.network] : [],
        },
      }),
      status,
    })),
  ];
}
