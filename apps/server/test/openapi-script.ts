import { randomUUID } from 'node:crypto';
import { stripeSignature } from '../src/adapters/cards/sandbox/index.ts';
import { onfidoSignature } from '../src/adapters/kyc/onfido.ts';
import { HOLDER, qrc20Form } from '../src/services/tokenise/test-support.ts';
import type { TestChain } from './chains.ts';
import { TEST_POOL_ID } from './helpers.ts';
import { basic } from './platform-fuzz.ts';

/**
 * The calls openapi-recordings.ts makes: every operation of the OpenAPI document at least once,
 * in an order where later calls use what earlier ones created, each with the status it must answer.
 */

export type Caller = 'user' | 'admin' | 'none' | 'application';
export type Request = {
  url: string;
  as?: Caller;
  body?: unknown;
  /** A body that is not JSON (the token endpoint's form). */
  raw?: { type: string; text: string };
  headers?: Record<string, string>;
};

/** What the calls leave behind for the calls after them. */
export type State = Record<string, string>;
/** Waits that a call needs before it is sent. */
export type Helpers = {
  /** Until the token's deployment is settled (ACTIVE or FAILED). */
  settle: (tokenId: string) => Promise<void>;
  /** Onfido finishes the user's check; answers its Onfido id. */
  completeCheck: () => Promise<string>;
  /** Delivers the domain events written so far (the notifications they make). */
  deliverEvents: () => Promise<void>;
  /** The installation's card webhook secret (the sandbox signs with it). */
  cardWebhookSecret: () => Promise<string>;
  /** Raises a staff alert (as a lost QNT transfer would); answers its id. */
  raiseStaffAlert: () => Promise<string>;
};

export type Call = {
  operation: string;
  send: (s: State, h: Helpers) => Request | Promise<Request>;
  status: number;
  /** Sent this many times at once (to reach a limit); the answer recorded is one with `status`. */
  burst?: number;
  /** Keeps what later calls need from the answer. */
  keep?: (body: never, s: State) => void;
};

export const WEBHOOK_TOKEN = 'whk-secret';
const IDP_TARGET = 'AWSCognitoIdentityProviderService.';
const JWKS = `/idp/${TEST_POOL_ID}/.well-known/jwks.json`;
const OPENID = `/idp/${TEST_POOL_ID}/.well-known/openid-configuration`;

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

const profile = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines',
  organisationLocation: 'GB',
  industry: 'Finance',
  companySize: '1-10',
  hearAboutUs: 'SEARCH_ENGINE',
};

/**
 * The script: every call in order (later calls use what earlier ones created), each with the
 * status it must answer. Refusals other than the automatic 401s are listed too (404, 403, 400).
 */
export function script(chain: TestChain): Call[] {
  /** The usage calls' range: today (UTC), where the script's gateway calls were counted. */
  const today = new Date().toISOString().slice(0, 10);
  const token = (s: State, deploymentType: 'QUANT' | 'META_MASK', externalId: string = randomUUID()) => ({
    url: '/api/tokenise/v2/token',
    body: { externalId, networkId: s.network, tierId: s.tier, tokenType: 'QRC20', deploymentType, ...qrc20Form() },
  });
  /** A PUT or POST of a fixed body that answers 200. */
  const write = (method: 'POST' | 'PUT', url: string, body: unknown): Call => ({
    operation: `${method} ${url}`,
    send: () => ({ url, body }),
    status: 200,
  });
  /** A GET that answers 200: its operation is its path. */
  const get = (url: string, as?: Caller): Call => ({
    operation: `GET ${url.split('?')[0]}`,
    send: () => ({ url, ...(as ? { as } : {}) }),
    status: 200,
  });
  return [
    // ── System and identity ─────────────────────────────────────────────────────────────────
    get('/api/health', 'none'),
    get('/runtime-config.json', 'none'),
    {
      operation: 'GET /api/dev/outbox',
      send: (s) => ({ url: `/api/dev/outbox?to=${encodeURIComponent(s.email!)}`, as: 'none' }),
      status: 200,
    },
    ...['GetUser', 'GetUser'].map((name, i): Call => ({
      operation: 'POST /idp',
      send: (s) => ({
        url: '/idp',
        as: 'none',
        headers: { 'x-amz-target': `${IDP_TARGET}${name}` },
        raw: {
          type: 'application/x-amz-json-1.1',
          text: JSON.stringify({ AccessToken: i ? 'not.a.token' : s.pooled }),
        },
      }),
      status: i ? 400 : 200,
    })),
    get(JWKS, 'none'),
    get(OPENID, 'none'),
    ...['connect', 'integrate', 'account-plan', 'application-manager', 'tokenise', 'bridge', 'payment', 'campaign'].map(
      (service) => get(`/api/${service}/status`, 'none'),
    ),

    // ── Connect ─────────────────────────────────────────────────────────────────────────────
    get('/api/connect/captcha/challenge', 'none'),
    { operation: 'GET /api/connect/user/{id}', send: (s) => ({ url: `/api/connect/user/${s.sub}` }), status: 200 },
    {
      operation: 'GET /api/connect/user/{id}',
      send: () => ({ url: `/api/connect/user/${randomUUID()}` }),
      status: 404,
    },
    write('PUT', '/api/connect/user', profile),
    write('PUT', '/api/connect/user/company-details', {
      organisationName: 'Engines',
      organisationLocation: 'GB',
      industry: 'Finance',
      companySize: '11-50',
    }),
    write('PUT', '/api/connect/user/settings', { promotionalEmails: true }),
    get('/api/connect/user/mfa-status'),
    get('/api/connect/user/routes'),
    {
      operation: 'GET /api/connect/terms-conditions/version',
      send: () => ({ url: '/api/connect/terms-conditions/version' }),
      status: 200,
      keep: (body: { version: string }, s) => (s.terms = body.version),
    },
    {
      operation: 'POST /api/connect/terms-conditions',
      send: (s) => ({ url: '/api/connect/terms-conditions', body: { version: s.terms } }),
      status: 200,
    },
    get('/api/connect/content/updates?page=0&size=3'),
    get('/api/connect/content/features'),
    get('/api/connect/content/footer'),
    get('/api/connect/available'),
    {
      operation: 'GET /api/connect/user/{id}/getting-started',
      send: (s) => ({ url: `/api/connect/user/${s.sub}/getting-started` }),
      status: 200,
    },
    write('POST', '/api/connect/contact-us-form', {
      name: 'Ada',
      email: 'ada@example.com',
      subject: 'Plans',
      description: 'Which plan suits us?',
    }),
    write('POST', '/api/connect/contact-us-authorise', {
      name: 'Ada',
      email: 'ada@example.com',
      company: 'Engines',
      description: 'Approvals, please.',
    }),
    get('/api/connect/kyc/token'),
    write('POST', '/api/connect/kyc/create-check', {}),
    get('/api/connect/kyc/status'),
    ...[WEBHOOK_TOKEN, 'not-the-token'].map((key): Call => ({
      operation: 'POST /api/connect/kyc/webhook',
      send: async (_s, h) => {
        const text = JSON.stringify({
          payload: {
            resource_type: 'check',
            action: 'check.completed',
            object: { id: await h.completeCheck(), status: 'complete', completed_at_iso8601: new Date().toISOString() },
          },
        });
        return {
          url: '/api/connect/kyc/webhook',
          as: 'none',
          headers: { 'x-sha2-signature': onfidoSignature(text, key) },
          raw: { type: 'application/json', text },
        };
      },
      status: key === WEBHOOK_TOKEN ? 200 : 401,
    })),
    // The verified identity above is announced, and notified.
    {
      operation: 'GET /api/connect/notifications',
      send: async (_s, h) => {
        await h.deliverEvents();
        return { url: '/api/connect/notifications?limit=20' };
      },
      status: 200,
      keep: (body: { items: { id: string }[] }, s) => (s.notification = body.items[0]!.id),
    },
    ...[true, false].map((isOwn): Call => ({
      operation: 'POST /api/connect/notifications/read',
      send: (s) => ({ url: '/api/connect/notifications/read', body: { ids: [isOwn ? s.notification : randomUUID()] } }),
      status: isOwn ? 200 : 404,
    })),
    get('/api/connect/notifications/settings'),
    write('PUT', '/api/connect/notifications/settings', { emailEnabled: true }),

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
    ...(['user', 'admin'] as const).map((as): Call => ({
      operation: 'GET /api/integrate/private-networks/reviews',
      send: () => ({ url: '/api/integrate/private-networks/reviews?status=UNDER_REVIEW', as }),
      status: as === 'admin' ? 200 : 403,
    })),
    {
      operation: 'PUT /api/integrate/private-networks/{id}/review',
      send: (s) => ({
        url: `/api/integrate/private-networks/${s.privateNetwork}/review`,
        as: 'admin',
        body: { decision: 'APPROVE', note: 'Reachable.' },
      }),
      status: 200,
    },
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

    // ── Tokens ──────────────────────────────────────────────────────────────────────────────
    write('POST', '/api/tokenise/tokens', {}),
    get('/api/tokenise/v2/orchestration/locations'),
    {
      operation: 'GET /api/tokenise/v2/orchestration/tiers',
      send: (s) => ({
        url: `/api/tokenise/v2/orchestration/tiers?networkId=${s.network}&tokenType=QRC20&deploymentType=QUANT`,
      }),
      status: 200,
      keep: (body: { tiers: { id: string; type: string }[] }, s) => {
        s.tier = body.tiers.find((tier) => tier.type === 'base')!.id;
      },
    },
    {
      operation: 'POST /api/tokenise/token/verify',
      send: (s) => ({ url: '/api/tokenise/token/verify', body: { ...token(s, 'QUANT').body, externalId: undefined } }),
      status: 200,
    },
    {
      operation: 'POST /api/tokenise/v2/token',
      send: (s) => token(s, 'QUANT', (s.quant = randomUUID())),
      status: 201,
      keep: (body: { token: { id: string } }, s) => (s.token = body.token.id),
    },
    // The same externalId again: the same token, not a second deployment.
    { operation: 'POST /api/tokenise/v2/token', send: (s) => token(s, 'QUANT', s.quant), status: 200 },
    {
      operation: 'GET /api/tokenise/token/{id}',
      send: async (s, h) => {
        await h.settle(s.token!);
        return { url: `/api/tokenise/token/${s.token}?holder=${HOLDER}` };
      },
      status: 200,
    },
    {
      operation: 'PUT /api/tokenise/token',
      send: (s) => ({ url: '/api/tokenise/token', body: { id: s.token, status: 'DEPRECATED' } }),
      status: 200,
    },
    ...['cancel', 'track', 'delete'].map((name): Call => ({
      operation: 'POST /api/tokenise/v2/token',
      send: (s) => token(s, 'META_MASK', (s[name] = randomUUID())),
      status: 201,
    })),
    {
      operation: 'PUT /api/tokenise/token/deploy/track/cancel',
      send: (s) => ({
        url: '/api/tokenise/token/deploy/track/cancel',
        body: { externalId: s.cancel, reason: 'DENIED' },
      }),
      status: 200,
    },
    {
      operation: 'PUT /api/tokenise/token/deploy/track',
      send: (s) => ({
        url: '/api/tokenise/token/deploy/track',
        body: { externalId: s.track, txHash: `0x${'ab'.repeat(32)}` },
      }),
      status: 200,
    },
    {
      operation: 'DELETE /api/tokenise/token/{externalId}',
      send: (s) => ({ url: `/api/tokenise/token/${s.delete}` }),
      status: 200,
    },

    // ── Orders (account-plan): a plan by bank transfer, staff's receipt, a credits top-up ──────
    // Sent as the user who signs out last: a trial account of its own, so the plan it buys
    // changes nothing for the calls above.
    {
      operation: 'GET /api/account-plan/rate-plan/{id}/credit-bundles',
      send: (s) => ({ url: `/api/account-plan/rate-plan/${s.annualPlan}/credit-bundles` }),
      status: 200,
      keep: (body: { bundles: { id: string }[] }, s) => {
        s.bundle = body.bundles[0]!.id;
      },
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/account-plan/order/plan',
      send: (s) => ({
        url: '/api/account-plan/order/plan',
        headers: { authorization: s.leaving! },
        body: {
          idempotencyKey: randomUUID(),
          ratePlanId: isKnown ? s.annualPlan : randomUUID(),
          creditBundleId: s.bundle,
          paymentMethod: 'BANK_TRANSFER',
          terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
        },
      }),
      status: isKnown ? 200 : 404,
      keep: (body: { id: string; totalGbpMinor: number }, s) => {
        s.order = body.id;
        s.orderTotal = String(body.totalGbpMinor);
      },
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/account-plan/order/track',
      send: (s) => ({
        url: '/api/account-plan/order/track',
        headers: { authorization: s.leaving! },
        body: { orderId: isKnown ? s.order : randomUUID() },
      }),
      status: isKnown ? 200 : 404,
    })),
    {
      operation: 'GET /api/account-plan/management/orders',
      send: () => ({ url: '/api/account-plan/management/orders?status=AWAITING_PAYMENT', as: 'admin' }),
      status: 200,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/account-plan/management/orders/{id}/receipts',
      send: (s) => ({
        url: `/api/account-plan/management/orders/${isKnown ? s.order : randomUUID()}/receipts`,
        as: 'admin',
        body: {
          receiptId: `BANK-${randomUUID()}`,
          amountGbpMinor: Number(s.orderTotal),
          receivedAt: new Date().toISOString(),
        },
      }),
      status: isKnown ? 200 : 404,
    })),
    {
      operation: 'POST /api/account-plan/order/credits',
      send: (s) => ({
        url: '/api/account-plan/order/credits',
        headers: { authorization: s.leaving! },
        body: {
          idempotencyKey: randomUUID(),
          creditBundleId: s.bundle,
          paymentMethod: 'BANK_TRANSFER',
          terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
        },
      }),
      status: 200,
      keep: (body: { id: string }, s) => {
        s.creditsOrder = body.id;
      },
    },
    ...[200, 409].map((status): Call => ({
      operation: 'POST /api/account-plan/order/{id}/cancel',
      send: (s) => ({
        url: `/api/account-plan/order/${s.creditsOrder}/cancel`,
        headers: { authorization: s.leaving! },
      }),
      status,
    })),

    // ── QNT payments (payment): a credits order paid in QNT, the wallet's report, staff's view ──
    {
      operation: 'POST /api/account-plan/order/credits',
      send: (s) => ({
        url: '/api/account-plan/order/credits',
        headers: { authorization: s.leaving! },
        body: {
          idempotencyKey: randomUUID(),
          creditBundleId: s.bundle,
          paymentMethod: 'QNT',
          terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
        },
      }),
      status: 200,
      keep: (body: { id: string }, s) => {
        s.qntOrder = body.id;
      },
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/confirm-payment',
      send: (s) => ({
        url: '/api/payment/confirm-payment',
        headers: { authorization: s.leaving! },
        // A hash the chain does not know yet: recorded with the payment, for the follower to confirm.
        body: { orderId: isKnown ? s.qntOrder : randomUUID(), txHash: `0x${'ab'.repeat(32)}` },
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'GET /api/payment/management/account/{id}/eth-address',
      send: (s) => ({
        url: `/api/payment/management/account/${isKnown ? s.account : randomUUID()}/eth-address`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),
    {
      operation: 'GET /api/payment/management/eth-address-stats',
      send: () => ({ url: '/api/payment/management/eth-address-stats?page=0&size=1', as: 'admin' }),
      status: 200,
    },
    // ── Staff alerts (connect): one raised, listed, acknowledged; an unknown one ──
    {
      operation: 'GET /api/connect/management/alerts',
      send: async (s, h) => {
        s.staffAlert = await h.raiseStaffAlert();
        return { url: '/api/connect/management/alerts?status=all', as: 'admin' };
      },
      status: 200,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/connect/management/alerts/{id}/acknowledge',
      send: (s) => ({
        url: `/api/connect/management/alerts/${isKnown ? s.staffAlert : randomUUID()}/acknowledge`,
        as: 'admin',
      }),
      status: isKnown ? 200 : 404,
    })),

    // ── Card payments (payment, card sandbox): credits paid by card with authentication, the card kept, Pay now, a refund ──
    ...['cardOrder', 'initiateOrder'].map((name): Call => ({
      operation: 'POST /api/account-plan/order/credits',
      send: (s) => ({
        url: '/api/account-plan/order/credits',
        headers: { authorization: s.leaving! },
        body: {
          idempotencyKey: randomUUID(),
          creditBundleId: s.bundle,
          paymentMethod: 'FIAT',
          terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
        },
      }),
      status: 200,
      keep: (body: { id: string }, s) => {
        s[name] = body.id;
      },
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/card/order',
      send: (s) => ({
        url: '/api/payment/card/order',
        headers: { authorization: s.leaving! },
        body: { orderId: isKnown ? s.cardOrder : randomUUID() },
      }),
      status: isKnown ? 200 : 404,
      keep: (body: { intentId: string; clientSecret: string }, s) => {
        s.paymentIntent = body.intentId;
        s.paymentSecret = body.clientSecret;
      },
    })),
    ...(['payment_intents', 'setup_intents'] as const).flatMap((kind): Call[] => {
      const id = (s: State) => (kind === 'payment_intents' ? s.paymentIntent! : s.setupIntent!);
      const secret = (s: State) => (kind === 'payment_intents' ? s.paymentSecret! : s.setupSecret!);
      const before: Call[] =
        kind === 'setup_intents'
          ? [
              {
                operation: 'POST /api/payment/card/setup',
                send: (s) => ({ url: '/api/payment/card/setup', headers: { authorization: s.leaving! } }),
                status: 200,
                keep: (body: { intentId: string; clientSecret: string }, s) => {
                  s.setupIntent = body.intentId;
                  s.setupSecret = body.clientSecret;
                },
              },
            ]
          : [];
      return [
        ...before,
        ...[true, false].map((isKnown): Call => ({
          operation: `GET /api/card-sandbox/v1/${kind}/{id}`,
          send: (s) => ({
            url: `/api/card-sandbox/v1/${kind}/${id(s)}?client_secret=${isKnown ? secret(s) : 'wrong_secret'}`,
            as: 'none',
          }),
          status: isKnown ? 200 : 404,
        })),
        {
          operation: `POST /api/card-sandbox/v1/${kind}/{id}/confirm`,
          send: (s) => ({
            url: `/api/card-sandbox/v1/${kind}/${id(s)}/confirm`,
            as: 'none',
            // Stripe's test card that asks for authentication first, then is kept for later charges.
            body: {
              clientSecret: secret(s),
              card: { number: '4000002500003155', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' },
              returnUrl: 'http://localhost/account-plan/upgrade',
            },
          }),
          status: 200,
        },
        {
          operation: `POST /api/card-sandbox/v1/${kind}/{id}/authenticate`,
          send: (s) => ({
            url: `/api/card-sandbox/v1/${kind}/${id(s)}/authenticate`,
            as: 'none',
            body: { clientSecret: secret(s), outcome: 'complete' },
          }),
          status: 200,
        },
        ...[true, false].map((isKnown): Call => ({
          operation: 'POST /api/payment/card/confirm',
          send: (s) => ({
            url: '/api/payment/card/confirm',
            headers: { authorization: s.leaving! },
            body:
              kind === 'payment_intents'
                ? { paymentIntent: isKnown ? id(s) : 'pi_Unknown' }
                : { setupIntent: isKnown ? id(s) : 'seti_Unknown' },
          }),
          status: isKnown ? 200 : 404,
        })),
      ];
    }),
    {
      operation: 'GET /api/payment/card/status',
      send: (s) => ({ url: '/api/payment/card/status', headers: { authorization: s.leaving! } }),
      status: 200,
    },
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/initiate/{id}',
      send: (s) => ({
        url: `/api/payment/initiate/${isKnown ? s.initiateOrder : randomUUID()}`,
        headers: { authorization: s.leaving! },
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[true, false].map((isKnown): Call => ({
      operation: 'POST /api/payment/management/orders/{id}/refunds',
      send: (s) => ({
        url: `/api/payment/management/orders/${isKnown ? s.cardOrder : randomUUID()}/refunds`,
        as: 'admin',
        body: { idempotencyKey: randomUUID(), amountGbpMinor: 100, reason: 'Recorded refund' },
      }),
      status: isKnown ? 200 : 404,
    })),
    ...[true, false].map((isSigned): Call => ({
      operation: 'POST /api/payment/card/webhook',
      send: async (_s, h) => {
        const text = JSON.stringify({
          id: `evt_${randomUUID().replaceAll('-', '')}`,
          object: 'event',
          type: 'customer.updated',
          created: 0,
          livemode: false,
          data: { object: { id: 'cus_Recorded', object: 'customer' } },
        });
        return {
          url: '/api/payment/card/webhook',
          as: 'none',
          raw: { type: 'application/json', text },
          headers: { 'stripe-signature': isSigned ? stripeSignature(text, await h.cardWebhookSecret()) : 't=1,v1=00' },
        };
      },
      status: isSigned ? 200 : 400,
    })),

    {
      operation: 'POST /api/dev/billing/run',
      send: () => ({ url: '/api/dev/billing/run', as: 'none', body: { at: new Date().toISOString() } }),
      status: 200,
    },
    {
      operation: 'POST /api/dev/billing/close-period',
      send: () => ({ url: '/api/dev/billing/close-period', as: 'none', body: { at: new Date().toISOString() } }),
      status: 200,
    },

    // ── The subscription (account-plan): the annual plan just paid, changed at renewal, cancelled, resumed ──
    {
      operation: 'GET /api/account-plan/subscription',
      send: (s) => ({ url: '/api/account-plan/subscription', headers: { authorization: s.leaving! } }),
      status: 200,
    },
    {
      operation: 'POST /api/account-plan/subscription/downgrade',
      send: (s) => ({
        url: '/api/account-plan/subscription/downgrade',
        headers: { authorization: s.leaving! },
        body: { ratePlanId: s.paygPlan },
      }),
      status: 200,
    },
    {
      operation: 'POST /api/account-plan/subscription/cancel',
      send: (s) => ({ url: '/api/account-plan/subscription/cancel', headers: { authorization: s.leaving! } }),
      status: 200,
    },
    ...[200, 409].map((status): Call => ({
      operation: 'POST /api/account-plan/subscription/resume',
      send: (s) => ({ url: '/api/account-plan/subscription/resume', headers: { authorization: s.leaving! } }),
      status,
    })),

    // Last: ends the session it is sent with (a user of its own).
    {
      operation: 'POST /api/connect/sign-out',
      send: (s) => ({ url: '/api/connect/sign-out', body: {}, headers: { authorization: s.leaving! } }),
      status: 204,
    },
  ];
}
