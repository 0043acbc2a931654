import { randomUUID } from 'node:crypto';
import { onfidoSignature } from '../../src/adapters/kyc/onfido.ts';
import { IDP_TARGET, JWKS, OPENID, WEBHOOK_TOKEN, get, write, type Call } from './calls.ts';

const profile = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines',
  organisationLocation: 'GB',
  industry: 'Finance',
  companySize: '1-10',
  hearAboutUs: 'SEARCH_ENGINE',
};

/** The system, identity and connect calls: health, the identity provider, the user, KYC, notifications. */
export function identityCalls(): Call[] {
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
    // The names alone, in the portal and the identity pool; back to the profile's before KYC below.
    write('PUT', '/api/connect/user/identity', { firstName: 'Augusta Ada', lastName: 'Lovelace' }),
    {
      operation: 'PUT /api/connect/user/identity',
      send: () => ({ url: '/api/connect/user/identity', body: { firstName: 'Ada', lastName: 'Lovelace' } }),
      status: 200,
    },
    get('/api/connect/static-data/organisations'),
    get('/api/connect/organisations?search=engines'),
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
  ];
}
