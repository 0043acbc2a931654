import { describe, expect, it } from 'vitest';
import type { TAvailableFeatures } from './content.ts';
import { COMING_SOON_SERVICES, filterRoutes, routeCatalogue, type RouteItem } from './routes.ts';

const ALL_FEATURES: TAvailableFeatures = {
  reward: { t: null, a: 0 },
  'mynetworks:v2': { t: null, a: 0 },
  privateNetwork: { t: null, a: 0 },
  connectBeta: { t: null, a: 0 },
  bridge: { t: null, a: 0 },
};

function paths(routes: RouteItem[]): string[] {
  return routes.flatMap((route) => [route.path, ...paths(route.children ?? [])]);
}

describe('filterRoutes', () => {
  const routes: RouteItem[] = [
    { path: '/open', name: 'open', title: 'Open to all signed-in users' },
    { path: '/general', name: 'general', title: 'General', roles: ['general'] },
    { path: '/admin', name: 'admin', title: 'Admin', roles: ['management-admin'] },
    { path: '/sales', name: 'sales', title: 'Sales', roles: ['management-sales'] },
    {
      path: '/parent',
      name: 'parent',
      title: 'Parent',
      roles: ['general'],
      children: [
        { path: '/parent/plain', name: 'plain', title: 'Plain' },
        { path: '/parent/admin', name: 'parent-admin', title: 'Admin child', roles: ['management-admin'] },
        { path: '/parent/beta', name: 'beta', title: 'Beta child', feature: 'connectBeta' },
      ],
    },
  ];

  it('keeps routes without role metadata for every role', () => {
    expect(paths(filterRoutes(routes, 'INDIVIDUAL', {}))).toContain('/open');
    expect(paths(filterRoutes(routes, 'QUANT_SALES', {}))).toContain('/open');
  });

  it('admits a role only to the groups of spec §6', () => {
    expect(paths(filterRoutes(routes, 'INDIVIDUAL', {}))).toEqual(['/open', '/general', '/parent', '/parent/plain']);
    expect(paths(filterRoutes(routes, 'QUANT_SALES', {}))).toEqual([
      '/open',
      '/general',
      '/sales',
      '/parent',
      '/parent/plain',
    ]);
    expect(paths(filterRoutes(routes, 'QUANT_ADMIN', {}))).toEqual([
      '/open',
      '/general',
      '/admin',
      '/sales',
      '/parent',
      '/parent/plain',
      '/parent/admin',
    ]);
  });

  it('filters children recursively by role and feature', () => {
    const [parent] = filterRoutes(routes, 'INDIVIDUAL', { connectBeta: { t: null, a: 0 } }).filter(
      (route) => route.path === '/parent',
    );
    expect(parent?.children?.map((child) => child.path)).toEqual(['/parent/plain', '/parent/beta']);
  });

  it('drops a route whose feature is missing or exhausted', () => {
    const withFeature = [{ path: '/beta', name: 'beta', title: 'Beta', feature: 'connectBeta' }];
    expect(filterRoutes(withFeature, 'INDIVIDUAL', {})).toEqual([]);
    expect(filterRoutes(withFeature, 'INDIVIDUAL', { connectBeta: { t: 2, a: 2 } })).toEqual([]);
    expect(filterRoutes(withFeature, 'INDIVIDUAL', { connectBeta: { t: 3, a: 2 } })).toHaveLength(1);
  });

  it('does not change the catalogue it filters', () => {
    const before = JSON.parse(JSON.stringify(routes)) as RouteItem[];
    filterRoutes(routes, 'INDIVIDUAL', {});
    expect(routes).toEqual(before);
  });
});

describe('routeCatalogue', () => {
  it('marks the areas that are not built yet as coming soon, and nothing that is built', () => {
    const flat = (routes: RouteItem[]): RouteItem[] => routes.flatMap((r) => [r, ...flat(r.children ?? [])]);
    const coming = flat(routeCatalogue('quant', 'Quant'))
      .filter((route) => route.comingSoon)
      .map((route) => route.name);
    expect(coming.sort()).toEqual(
      // Connect Beta is built (issue 35 §1); the bridges and Quant Fusion come in later issues.
      ['bridge-flow', 'quant-fusion', 'transaction-explorer', 'smart-contract-explorer'].sort(),
    );
    expect(COMING_SOON_SERVICES).toEqual(['bridge']);
  });

  it('names the {product} routes after the configured slug and name', () => {
    const catalogue = routeCatalogue('acme', 'Acme');
    const all = paths(catalogue);
    expect(all).toContain('/acme-flows');
    expect(all).toContain('/acme-flows/bridge-flow/deploy/create-new-bridge');
    expect(all).toContain('/acme-authorise');
    expect(all.some((path) => path.includes('quant-flows'))).toBe(false);
    expect(catalogue.find((route) => route.path === '/acme-flows')?.title).toBe('Acme Flows');
    // Spec §2: the upgrade journey is named '{product} Purchase Journey'.
    expect(catalogue.find((route) => route.path === '/account-plan/upgrade')?.name).toBe('acme-purchase-journey');
  });

  it('gives an individual no admin routes and the section order values of spec §9', () => {
    const routes = filterRoutes(routeCatalogue('quant', 'Quant'), 'INDIVIDUAL', ALL_FEATURES);
    expect(routes.some((route) => route.category === 'Connect Admin')).toBe(false);
    const order = Object.fromEntries(routes.filter((r) => r.order !== undefined).map((r) => [r.path, r.order]));
    expect(order).toEqual({
      '/beta/features': 0,
      '/dashboard': 1,
      '/quant-authorise': 2,
      '/quant-flows': 3,
      '/my-applications': 4,
      '/my-networks': 5,
      '/usage': 5.2,
      '/quant-fusion': 5.5,
      '/rewards': 6,
      '/documentation': 7,
    });
  });

  it('gives sales account management but not user management', () => {
    const all = paths(filterRoutes(routeCatalogue('quant', 'Quant'), 'QUANT_SALES', ALL_FEATURES));
    expect(all).toContain('/account-management');
    expect(all).not.toContain('/user-management');
    expect(all).not.toContain('/campaign-management');
    expect(all).not.toContain('/beta-management');
  });

  it('drops the bridge routes and their children without the bridge feature', () => {
    const { bridge: _bridge, ...withoutBridge } = ALL_FEATURES;
    const all = paths(filterRoutes(routeCatalogue('quant', 'Quant'), 'INDIVIDUAL', withoutBridge));
    expect(all).toContain('/quant-flows/token-flow');
    expect(all.filter((path) => path.includes('bridge'))).toEqual([]);
  });
});
