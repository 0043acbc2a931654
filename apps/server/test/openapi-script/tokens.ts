import { randomUUID } from 'node:crypto';
import { HOLDER, qrc20Form } from '../../src/services/tokenise/test-support.ts';
import { get, write, type Call, type State } from './calls.ts';

/** The tokenise calls: tiers, a deployment by the platform and one by a wallet, the same externalId again. */
export function tokenCalls(): Call[] {
  const token = (s: State, deploymentType: 'QUANT' | 'META_MASK', externalId: string = randomUUID()) => ({
    url: '/api/tokenise/v2/token',
    body: { externalId, networkId: s.network, tierId: s.tier, tokenType: 'QRC20', deploymentType, ...qrc20Form() },
  });
  return [
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
  ];
}
