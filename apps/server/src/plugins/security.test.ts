import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

/**
 * The browser security headers, name, value and order, as @fastify/helmet 13 sent them with this
 * configuration before they were computed once (issue 30). They come first in every answer.
 */
const SECURITY_HEADERS: [string, string][] = [
  [
    'content-security-policy',
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: https:;font-src 'self' data:;connect-src 'self';frame-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
  ],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'no-referrer'],
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'SAMEORIGIN'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
];
const NAMES = SECURITY_HEADERS.map(([name]) => name);

type Answer = Awaited<ReturnType<TestContext['app']['inject']>>;

/** The answer's first headers, in the order they were set. */
function leadingHeaders(res: Answer, count: number): [string, string][] {
  const raw = res.raw.res;
  return raw
    .getHeaderNames()
    .slice(0, count)
    .map((name) => [name, String(raw.getHeader(name))]);
}

describe('security headers', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it.each([
    ['a page of the SPA (HTML)', { method: 'GET', url: '/login' }],
    ['a JSON route', { method: 'GET', url: '/api/health' }],
    ['a problem answer', { method: 'GET', url: '/api/connect/nope' }],
    [
      "the identity pool's wire protocol",
      {
        method: 'POST',
        url: '/idp',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'AWSCognitoIdentityProviderService.Nope',
        },
        payload: '{}',
      },
    ],
  ] as const)('are sent with %s, the same as before and first', async (_what, request) => {
    const res = await t.app.inject(request);
    expect(leadingHeaders(res, SECURITY_HEADERS.length)).toEqual(SECURITY_HEADERS);
  });

  it('are not sent by the RPC gateway (machine-to-machine JSON)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/gateway/nope',
      headers: { 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.raw.res.getHeaderNames().filter((name) => NAMES.includes(name))).toEqual([]);
  });
});
