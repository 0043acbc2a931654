import { randomUUID } from 'node:crypto';
import type { TestChain } from '../chains.ts';
import { basic } from '../platform-fuzz.ts';
import { get, write, type Call, type State } from './calls.ts';

const privateNetworkForm = (chain: TestChain) => ({
  name: `Recorded chain ${randomUUID().slice(0, 8)}`,
  networkType: 'sandbox',
  chainId: chain.chainId,
  eip1559: true,
  numberOfBlocks: 12,
  url: chain.rpcUrl,
  tokenSymbol: 'REC',
  tokenDecimals: 18,
  nodeType: 'full',
});

/** The integrate, account plan, applications, platform API and usage calls. */
export function integrateCalls(chain: TestChain): Call[] {
  /** The usage calls' range: today (UTC), where the script's gateway calls were counted. */
  const today = new Date().toISOString().slice(0, 10);
  return [
    // ── Integrate and account plan ──────────────────────────────────────────────────────────
    get('/api/integrate/v2/networks'),
    {
      operation: 'POST /api/integrate/v2/networks',
      send: (s) => ({ url: '/api/integrate/v2/networks', body: { networkIds: [s.network] } }),
      status: 200,
    },
    get('/api/integrate/v2/user-networks?networkType=testnet'),
    {
      operation: 'GET /api/integrate/environment-manager/networks/{accountId}',
      send: (s) => ({ url: `/api/integrate/environment-manager/networks/${s.account}` }),
      status: 200,
    },
    {
      operation: 'POST /api/integrate/private-networks/validate',
      send: () => ({ url: '/api/integrate/private-networks/validate', body: privateNetworkForm(chain) }),
      status: 200,
    },
    {
      operation: 'POST /api/integrate/private-networks',
      send: () => ({ url: '/api/integrate/private-networks', body: privateNetworkForm(chain) }),
      status: 201,
      keep: (body: { id: string }, s) => (s.privateNetwork = body.id),
    },
    // Private-network review (issue 33 §4): the staff list, one network, the RPC check again, a decision.
    ...(['user', 'admin'] as const).map((as): Call => ({
      operation: 'GET /api/integrate/management/private-networks',
      send: () => ({ url: '/api/integrate/management/private-networks?status=UNDER_REVIEW&sort=name:asc', as }),
      status: as === 'admin' ? 200 : 403,
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/integrate/management/private-networks/{id}',
      send: (s) => ({
        url: `/api/integrate/management/private-networks/${isKnown ? s.privateNetwork : randomUUID()}`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),
    {
      operation: 'POST /api/integrate/management/private-networks/{id}/rpc-check',
      send: (s) => ({ url: `/api/integrate/management/private-networks/${s.privateNetwork}/rpc-check`, as: 'admin' }),
      status: 200,
    },
    ...(
      [
        [{ decision: 'REJECT' }, 400],
        [{ decision: 'APPROVE', note: 'Reachable.' }, 200],
        [{ decision: 'APPROVE' }, 409],
      ] as const
    ).map(([body, status]): Call => ({
      operation: 'PUT /api/integrate/management/private-networks/{id}/review',
      send: (s) => ({
        url: `/api/integrate/management/private-networks/${s.privateNetwork}/review`,
        as: 'admin',
        body,
      }),
      status,
    })),
    {
      operation: 'DELETE /api/integrate/private-networks',
      send: (s) => ({ url: '/api/integrate/private-networks', body: { id: s.privateNetwork } }),
      status: 200,
    },
    get('/api/account-plan/user-plan'),
    {
      operation: 'GET /api/account-plan/plans',
      send: () => ({ url: '/api/account-plan/plans' }),
      status: 200,
      keep: (body: { plans: { id: string; code: string }[] }, s) => {
        s.annualPlan = body.plans.find((plan) => plan.code === 'annual-standard')!.id;
        s.paygPlan = body.plans.find((plan) => plan.code === 'payg-standard')!.id;
      },
    },
    get('/api/account-plan/v2/fetch-plans'),
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/account-plan/rate-plan/{id}/credit-bundles',
      send: (s) => ({ url: `/api/account-plan/rate-plan/${isKnown ? s.annualPlan : randomUUID()}/credit-bundles` }),
      status: isKnown ? 200 : 404,
    })),

    // ── Applications and the platform API ──────────────────────────────────────────────────
    write('POST', '/api/application-manager/validate', { name: 'Recorded app' }),
    {
      operation: 'POST /api/application-manager/create-application',
      send: (s) => ({
        url: '/api/application-manager/create-application',
        body: {
          name: 'Recorded app',
          callbackUrl: 'https://example.com/cb',
          applicationType: 'testnet',
          networkIds: [s.network],
        },
      }),
      status: 201,
      keep: (body: { id: string; clientId: string; clientSecret: string }, s) => {
        Object.assign(s, { application: body.id, clientId: body.clientId, clientSecret: body.clientSecret });
      },
    },
    {
      operation: 'POST /api/application-manager/create-application',
      send: () => ({ url: '/api/application-manager/create-application', body: {} }),
      status: 400,
    },
    {
      operation: 'PUT /api/application-manager/application',
      send: (s) => ({
        url: '/api/application-manager/application',
        body: {
          id: s.application,
          name: 'Recorded app 2',
          callbackUrl: 'https://example.com/cb2',
          networkIds: [s.network],
          testnetSigning: false,
        },
      }),
      status: 200,
    },
    get('/api/application-manager/applications?page=0&size=10'),
    get('/api/application-manager/applications/key-ids'),
    ...[true, false].map((isOwn): Call => ({
      operation: 'GET /api/application-manager/application/{id}',
      send: (s) => ({ url: `/api/application-manager/application/${isOwn ? s.application : randomUUID()}` }),
      status: isOwn ? 200 : 404,
    })),
    get('/api/application-manager/networks?applicationType=testnet'),
    {
      operation: 'GET /api/application-manager/networks/{id}',
      send: (s) => ({ url: `/api/application-manager/networks/${s.application}` }),
      status: 200,
    },
    ...(['basic', 'body', 'wrong'] as const).map((how): Call => ({
      operation: 'POST /oauth2/token',
      send: (s) => ({
        url: '/oauth2/token',
        as: 'none',
        ...(how === 'body'
          ? { body: { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret } }
          : {
              headers: { authorization: basic(s.clientId!, how === 'wrong' ? 'wrong' : s.clientSecret!) },
              raw: { type: 'application/x-www-form-urlencoded', text: 'grant_type=client_credentials' },
            }),
      }),
      status: how === 'wrong' ? 401 : 200,
      keep: (body: { access_token: string }, s) => (s.accessToken = body.access_token),
    })),
    ...[
      [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, 200],
      [
        [
          { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
          { jsonrpc: '2.0', id: 2, method: 'eth_sign' },
        ],
        200,
      ],
      [42, 400],
    ].map(([body, expected]): Call => ({
      operation: 'POST /api/gateway/{networkId}',
      send: (s) => ({ url: `/api/gateway/${s.network}`, as: 'application', body }),
      status: expected as number,
    })),
    {
      operation: 'POST /api/gateway/{networkId}',
      send: () => ({
        url: '/api/gateway/no-such-network',
        as: 'application',
        body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      }),
      status: 404,
    },
    // More calls at once than the plan's bucket holds (at least a 100-call batch, refilled at the
    // plan's rate); eth_blockNumber counts, while the cached eth_chainId would be free.
    {
      operation: 'POST /api/gateway/{networkId}',
      send: (s) => ({
        url: `/api/gateway/${s.network}`,
        as: 'application',
        body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
      }),
      status: 429,
      burst: 160,
    },
    {
      operation: 'GET /api/application-manager/application/{id}/usage',
      send: (s) => ({ url: `/api/application-manager/application/${s.application}/usage?days=7` }),
      status: 200,
    },
    // ── Usage (issue 17): the report, the balance's history, the export and the caps ────────
    ...(
      [
        [(s: State) => `from=${today}&to=${today}&granularity=hour&applicationId=${s.application}`, 200],
        [() => `from=${today}&to=${today}&applicationId=${randomUUID()}`, 404],
        // The end of the range before its start.
        [() => `from=${today}&to=2000-01-01`, 400],
      ] as const
    ).map(([query, expected]): Call => ({
      operation: 'GET /api/application-manager/usage/report',
      send: (s) => ({ url: `/api/application-manager/usage/report?${query(s)}` }),
      status: expected,
    })),
    get(`/api/application-manager/usage/report?from=${today}&to=${today}`),
    get(`/api/application-manager/usage/balance-history?from=${today}&to=${today}`),
    get(`/api/application-manager/usage/export.csv?from=${today}&to=${today}`),
    get('/api/application-manager/usage/caps'),
    ...(
      [
        ['own', { monthlyCapCredits: 50 }, 200],
        ['own', { monthlyCapCredits: 0.001 }, 400],
        ['other', { monthlyCapCredits: 50 }, 404],
      ] as const
    ).map(([which, body, expected]): Call => ({
      operation: 'PUT /api/application-manager/usage/caps/{applicationId}',
      send: (s) => ({
        url: `/api/application-manager/usage/caps/${which === 'own' ? s.application : randomUUID()}`,
        body,
      }),
      status: expected,
    })),
    {
      operation: 'POST /api/application-manager/application/{id}/rotate-secret',
      send: (s) => ({
        url: `/api/application-manager/application/${s.application}/rotate-secret`,
        body: { gracePeriodMinutes: 60 },
      }),
      status: 200,
      keep: (body: { application: { secrets: { id: string; status: string }[] } }, s) => {
        s.oldSecret = body.application.secrets.find((secret) => secret.status === 'EXPIRING')!.id;
      },
    },
    {
      operation: 'DELETE /api/application-manager/application/{id}/secrets/{secretId}',
      send: (s) => ({ url: `/api/application-manager/application/${s.application}/secrets/${s.oldSecret}` }),
      status: 200,
    },
    {
      operation: 'DELETE /api/application-manager/application/{id}',
      send: (s) => ({ url: `/api/application-manager/application/${s.application}` }),
      status: 204,
    },
  ];
}
