import type { Call } from './calls.ts';

const BASE = '/api/account-plan/management/subscription-tiers';

/** A tier as the form sends it (issue 33 §3): an annual tier with two bundles. */
const tier = (name: string, feeGbpMinor: number) => ({
  name,
  type: 'SUBSCRIPTION',
  tier: 'advance',
  productId: 'prod_recorded',
  shortDescription: 'Recorded tier.',
  fullDescription: 'A tier the OpenAPI recording creates and deletes.',
  feeGbpMinor,
  qntPrice: '12000000000000000000',
  creditPriceUsdCents: null,
  upfrontMonths: 6,
  paymentMethods: ['QNT', 'BANK_TRANSFER'],
  allowances: { applications: 3, tokens: 3, bridges: 1, blockchains: 0, mainnets: 1, testnets: 3, rateLimit: 20 },
  creditBundles: [
    { credits: 100, priceUsdCents: 11_000 },
    { credits: 1_000, priceUsdCents: 100_000 },
  ],
});

/**
 * Subscription tiers (issue 33 §3), as the administrator: list, create, edit, reorder, retire and
 * put back on sale, delete. The tier is created and deleted here, so the billing calls after these
 * see the seeded catalogue (its order changed, which they do not read).
 */
export function tierCalls(): Call[] {
  return [
    {
      operation: `GET ${BASE}`,
      send: () => ({ url: BASE, as: 'admin' }),
      status: 200,
      keep: (body: { tiers: { id: string }[] }, s) => {
        s.tierIds = body.tiers.map((t) => t.id).join(',');
      },
    },
    ...[
      { body: tier('Recorded Platinum', 250_000), status: 201 },
      { body: { ...tier('', 0), type: 'PAY_AS_YOU_GO' }, status: 400 },
    ].map(({ body, status }): Call => ({
      operation: `POST ${BASE}`,
      send: () => ({ url: BASE, as: 'admin', body }),
      status,
      keep: (answer: { id?: string }, s) => {
        if (answer.id) s.tier = answer.id;
      },
    })),
    {
      operation: `PUT ${BASE}/{id}`,
      send: (s) => ({ url: `${BASE}/${s.tier}`, as: 'admin', body: tier('Recorded Platinum', 300_000) }),
      status: 200,
    },
    ...[409, 200].map((status): Call => ({
      operation: `PUT ${BASE}/order`,
      send: (s) => ({
        url: `${BASE}/order`,
        as: 'admin',
        // 409: the list from before the new tier (stale); 200: the new tier first, then the rest.
        body: { tierIds: status === 409 ? s.tierIds!.split(',') : [s.tier, ...s.tierIds!.split(',')] },
      }),
      status,
    })),
    ...(['retire', 'unretire'] as const).map((action): Call => ({
      operation: `POST ${BASE}/{id}/${action}`,
      send: (s) => ({ url: `${BASE}/${s.tier}/${action}`, as: 'admin' }),
      status: 200,
    })),
    ...[204, 404].map((status): Call => ({
      operation: `DELETE ${BASE}/{id}`,
      send: (s) => ({ url: `${BASE}/${s.tier}`, as: 'admin' }),
      status,
    })),
  ];
}
