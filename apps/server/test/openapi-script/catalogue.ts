import type { Call } from './calls.ts';

/** The embedded default credentials of the product catalogue (config.ts), as the SPA sends them. */
const CATALOGUE_AUTH = `Basic ${Buffer.from('catalogue:public-catalogue').toString('base64')}`;

/** The product catalogue (/jsons, spec §7): basic authentication, not a portal token. */
export function catalogueCalls(): Call[] {
  const asSpa = { as: 'none' as const, headers: { authorization: CATALOGUE_AUTH } };
  return [
    {
      operation: 'GET /jsons/products.json',
      send: () => ({ url: '/jsons/products.json?v=0.1.0', ...asSpa }),
      status: 200,
    },
    { operation: 'GET /jsons/products.json', send: () => ({ url: '/jsons/products.json', as: 'none' }), status: 401 },
    {
      operation: 'GET /jsons/{name}.json',
      send: () => ({ url: '/jsons/payments.json?v=0.1.0', ...asSpa }),
      status: 200,
    },
    { operation: 'GET /jsons/{name}.json', send: () => ({ url: '/jsons/sustainability.json', ...asSpa }), status: 200 },
    {
      operation: 'GET /jsons/{name}.json',
      send: () => ({ url: '/jsons/no-such-product.json', ...asSpa }),
      status: 404,
    },
    { operation: 'GET /jsons/{name}.json', send: () => ({ url: '/jsons/..%2Fpackage.json', ...asSpa }), status: 400 },
  ];
}
