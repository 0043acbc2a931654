import { describe, expect, it } from 'vitest';
import type { RouteItem } from '@connect/shared';
import { isEntryActive, isExternalRoute, menuSections } from './menu-model.ts';
import { ADMIN_ROUTES } from './test-utils.tsx';

const route = (path: string, extra: Partial<RouteItem> = {}): RouteItem => ({
  path,
  name: path.slice(1) || 'root',
  title: path,
  ...extra,
});

describe('menuSections (spec §2.2 side menu)', () => {
  it('groups by category in the order Core, Developer Hub, Connect Admin and sorts by order', () => {
    const sections = menuSections(ADMIN_ROUTES);
    expect(sections.map((section) => section.category)).toEqual(['Core', 'Developer Hub', 'Connect Admin']);
    expect(sections[0]!.entries.map((entry) => entry.to)).toEqual([
      '/beta/features',
      '/dashboard',
      '/quant-authorise',
      '/my-networks',
      '/quant-fusion',
      '/rewards',
      'https://docs.example.com/',
    ]);
    expect(sections[1]!.entries.map((entry) => entry.to)).toEqual(['/quant-flows', '/my-applications', '/usage']);
    expect(sections[2]!.entries.map((entry) => entry.to)).toEqual([
      '/user-management',
      '/account-management',
      '/application-management',
      '/subscription-management',
      '/network-review',
      '/order-management',
      '/campaign-management',
      '/claim-management',
      '/beta-management',
      '/audit-log',
    ]);
  });

  it('orders by the order value, not by the order the server sent', () => {
    const sections = menuSections([
      route('/c', { category: 'Core', order: 5.5 }),
      route('/a', { category: 'Core', order: 1 }),
      route('/b', { category: 'Core', order: 0 }),
      route('/d', { category: 'Core' }),
    ]);
    expect(sections[0]!.entries.map((entry) => entry.to)).toEqual(['/b', '/a', '/c', '/d']);
  });

  it('leaves out hidden and not-in-menu routes and empty categories', () => {
    const sections = menuSections([
      route('/dashboard', { category: 'Core', order: 1 }),
      route('/my-account', { hidden: true }),
      route('/account-plan/upgrade', { notInMenu: true, category: 'Core' }),
      route('/user-management', { category: 'Connect Admin', hidden: true }),
    ]);
    expect(sections).toHaveLength(1);
    expect(sections[0]!.entries.map((entry) => entry.to)).toEqual(['/dashboard']);
    const all = menuSections(ADMIN_ROUTES).flatMap((section) => section.entries.map((entry) => entry.to));
    expect(all).not.toContain('/my-account');
    expect(all).not.toContain('/support');
    expect(all).not.toContain('/account-plan/upgrade');
  });

  it('puts a route without a category in Core', () => {
    expect(menuSections([route('/x', { order: 2 })])[0]!.category).toBe('Core');
  });

  it('keeps only the children that are not hidden as a sub-menu', () => {
    const core = menuSections(ADMIN_ROUTES);
    const flows = core[1]!.entries.find((entry) => entry.to === '/quant-flows')!;
    expect(flows.children.map((child) => child.to)).toEqual(['/quant-flows/token-flow', '/quant-flows/bridge-flow']);
    const applications = core[1]!.entries.find((entry) => entry.to === '/my-applications')!;
    expect(applications.children).toEqual([]);
  });

  it('links external routes to their address', () => {
    const docs = menuSections(ADMIN_ROUTES)[0]!.entries.find((entry) => entry.key === 'documentation')!;
    expect(docs).toMatchObject({ isExternal: true, to: 'https://docs.example.com/' });
  });
});

describe('isExternalRoute', () => {
  it('is true for an href or a path starting with http', () => {
    expect(isExternalRoute({ path: '/documentation', href: 'https://docs.example.com/' })).toBe(true);
    expect(isExternalRoute({ path: 'https://status.example.com' })).toBe(true);
    expect(isExternalRoute({ path: 'http://status.example.com' })).toBe(true);
    expect(isExternalRoute({ path: '/dashboard' })).toBe(false);
  });
});

describe('isEntryActive', () => {
  const entry = { to: '/quant-flows/token-flow', isExternal: false };
  it('matches the page and pages below it, not pages that merely share a prefix', () => {
    expect(isEntryActive(entry, '/quant-flows/token-flow')).toBe(true);
    expect(isEntryActive(entry, '/quant-flows/token-flow/payments')).toBe(true);
    expect(isEntryActive(entry, '/quant-flows/token-flow/')).toBe(true);
    expect(isEntryActive(entry, '/quant-flows/token-flows')).toBe(false);
    expect(isEntryActive(entry, '/quant-flows')).toBe(false);
    expect(isEntryActive({ to: 'https://docs.example.com/', isExternal: true }, '/')).toBe(false);
  });
});
