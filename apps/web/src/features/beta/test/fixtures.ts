import { filterRoutes, routeCatalogue, ZBetaFeature, type RouteItem, type TBetaFeature } from '@connect/shared';

export { createFetchMock, json } from '../../../test/fixtures.ts';

/* Connect Beta's test data, parsed by the shared schemas: a fixture the server could not send fails here. */

export const API = '/api/connect';

export const BRIDGES: TBetaFeature = ZBetaFeature.parse({
  id: '3b000000-0000-4000-8000-000000000001',
  name: 'Bridges',
  description: 'Move tokens between two networks with a bridge you control.',
  featureKey: 'bridge',
  access: 'OPEN',
  optedIn: false,
  overriddenOff: false,
});

export const PRIVATE_NETWORKS: TBetaFeature = ZBetaFeature.parse({
  id: '3b000000-0000-4000-8000-000000000002',
  name: 'Private networks',
  description: 'Connect a network of your own.',
  featureKey: 'privateNetwork',
  access: 'INVITATION',
  optedIn: true,
  overriddenOff: true,
});

const BASE_FEATURES = {
  'mynetworks:v2': { t: null, a: 0 },
  privateNetwork: { t: null, a: 0 },
  reward: { t: null, a: 0 },
  connectBeta: { t: null, a: 0 },
};

/** The route list the server answers an individual with, with or without the bridge feature. */
export function routesOf(withBridge: boolean): RouteItem[] {
  const features = withBridge ? { ...BASE_FEATURES, bridge: { t: null, a: 0 } } : BASE_FEATURES;
  return filterRoutes(routeCatalogue('quant', 'Quant', 'https://docs.example.com/'), 'INDIVIDUAL', features);
}

/** A problem answer as the server sends it. */
export const problem = (status: number, detail: string) => ({ type: 'about:blank', status, title: 'Error', detail });
