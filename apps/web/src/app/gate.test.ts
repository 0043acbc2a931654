import { describe, expect, it, vi } from 'vitest';
import { filterRoutes, routeCatalogue, type TUser } from '@connect/shared';
import { gate, isRouteAllowed, startsInFrame } from './gate.ts';

const completeUser: TUser = {
  id: '5f0c6f1e-7a51-4d55-9d41-5c3fb1b4a001',
  sub: '5f0c6f1e-7a51-4d55-9d41-5c3fb1b4a001',
  accountId: '5f0c6f1e-7a51-4d55-9d41-5c3fb1b4a002',
  email: 'ada@example.com',
  role: 'INDIVIDUAL',
  status: 'ACTIVE',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '1-10',
  hearAboutUs: 'SEARCH_ENGINE',
  hearAboutUsDescription: null,
  promotionalEmails: false,
  acceptedTerms: true,
  acceptedTermsVersion: '2026-10-01',
  latestTerms: '2026-10-01',
  mfaSetup: false,
  mfaConfirm: false,
  userMfaStatus: 'DISABLED',
  onfidoApplicantStatus: 'UNVERIFIED',
  createdAt: '2026-11-01T00:00:00.000Z',
};

const allFeatures = {
  'mynetworks:v2': { t: null, a: 0 },
  reward: { t: null, a: 0 },
  bridge: { t: null, a: 0 },
  privateNetwork: { t: null, a: 0 },
};
const individualRoutes = filterRoutes(routeCatalogue('quant', 'Quant'), 'INDIVIDUAL', allFeatures);

const adminRoutes = filterRoutes(routeCatalogue('quant', 'Quant'), 'QUANT_ADMIN', allFeatures);

function run(
  pathname: string,
  options: { hasSession?: boolean; user?: Partial<TUser>; fail?: boolean; routes?: typeof individualRoutes } = {},
) {
  const endSession = vi.fn(async () => undefined);
  const load = vi.fn(async () => {
    if (options.fail) throw new Error('503');
    return { user: { ...completeUser, ...options.user }, routes: options.routes ?? individualRoutes };
  });
  return { result: gate({ pathname, hasSession: options.hasSession ?? true, load, endSession }), load, endSession };
}

describe('route gating (spec §4, §5)', () => {
  it('lets visitors without a session reach public pages only', async () => {
    expect(await run('/register', { hasSession: false }).result).toEqual({ allow: true });
    expect(await run('/dashboard', { hasSession: false }).result).toEqual({ redirect: '/login' });
    expect(await run('/my-account', { hasSession: false }).result).toEqual({ redirect: '/login' });
  });

  it('sends a signed-in user on a public page to the dashboard', async () => {
    const { result, load } = run('/login');
    expect(await result).toEqual({ redirect: '/dashboard' });
    expect(load).not.toHaveBeenCalled();
  });

  it('ends the session when the user or routes cannot be loaded', async () => {
    const { result, endSession } = run('/dashboard', { fail: true });
    expect(await result).toEqual({ redirect: '/login' });
    expect(endSession).toHaveBeenCalledOnce();
  });

  it('holds every page but the terms page until the latest terms are accepted', async () => {
    const user = { acceptedTerms: false };
    expect(await run('/dashboard', { user }).result).toEqual({ redirect: '/terms-conditions' });
    expect(await run('/user-details', { user }).result).toEqual({ redirect: '/terms-conditions' });
    expect(await run('/terms-conditions', { user }).result).toMatchObject({ allow: true });
  });

  it('holds an individual with an incomplete profile on /user-details', async () => {
    const user = { industry: null };
    expect(await run('/dashboard', { user }).result).toEqual({ redirect: '/user-details' });
    expect(await run('/user-details', { user }).result).toMatchObject({ allow: true });
  });

  it('does not hold other roles on /user-details', async () => {
    const result = await run('/dashboard', { user: { role: 'SME', industry: null } }).result;
    expect(result).toMatchObject({ allow: true });
  });

  it('bypasses blank-layout pages whose work is done', async () => {
    expect(await run('/terms-conditions').result).toEqual({ redirect: '/dashboard' });
    expect(await run('/user-details').result).toEqual({ redirect: '/dashboard' });
    expect(await run('/mfa-setup', { user: { mfaSetup: true, mfaConfirm: true } }).result).toEqual({
      redirect: '/dashboard',
    });
    expect(await run('/mfa-setup').result).toMatchObject({ allow: true });
  });

  it('holds a staff user without an authenticator app on /mfa-setup, from every page (issue 32 §1)', async () => {
    for (const role of ['QUANT_ADMIN', 'QUANT_SALES'] as const) {
      for (const mfa of [
        { mfaSetup: false, mfaConfirm: false },
        { mfaSetup: true, mfaConfirm: false },
      ]) {
        const user = { role, ...mfa };
        for (const page of ['/dashboard', '/user-management', '/audit-log', '/my-account', '/user-details', '/nowhere'])
          expect(await run(page, { user, routes: adminRoutes }).result).toEqual({ redirect: '/mfa-setup' });
        expect(await run('/mfa-setup', { user, routes: adminRoutes }).result).toMatchObject({ allow: true });
      }
    }
    // The terms still come first.
    const unaccepted = { role: 'QUANT_ADMIN', acceptedTerms: false } as const;
    expect(await run('/user-management', { user: unaccepted, routes: adminRoutes }).result).toEqual({
      redirect: '/terms-conditions',
    });
    // With MFA on, the staff pages open, and /mfa-setup is done.
    const ready = { role: 'QUANT_ADMIN', mfaSetup: true, mfaConfirm: true } as const;
    expect(await run('/user-management', { user: ready, routes: adminRoutes }).result).toMatchObject({ allow: true });
    expect(await run('/audit-log', { user: ready, routes: adminRoutes }).result).toMatchObject({ allow: true });
    expect(await run('/mfa-setup', { user: ready, routes: adminRoutes }).result).toEqual({ redirect: '/dashboard' });
    // Customers may still go without (spec §2.5): the fixture user has no MFA.
    for (const role of ['INDIVIDUAL', 'SME', 'INSTITUTION'] as const)
      expect(await run('/dashboard', { user: { role } }).result).toMatchObject({ allow: true });
  });

  it('sends a page the role may not see to 404, deep links included', async () => {
    expect(await run('/user-management').result).toEqual({ redirect: '/404' });
    expect(await run('/audit-log').result).toEqual({ redirect: '/404' });
    expect(await run('/claim-management').result).toEqual({ redirect: '/404' });
    expect(await run('/my-applications/register-new-application').result).toMatchObject({ allow: true });
    expect(await run('/quant-flows/token-flow/qrc20/base').result).toMatchObject({ allow: true });
  });

  it('sends a route whose feature is unavailable to 404', async () => {
    const withoutRewards = filterRoutes(routeCatalogue('quant', 'Quant'), 'INDIVIDUAL', {
      'mynetworks:v2': { t: null, a: 0 },
    });
    expect(isRouteAllowed(withoutRewards, '/rewards')).toBe(false);
    expect(isRouteAllowed(withoutRewards, '/my-networks')).toBe(true);
  });

  it('shows the 404 page to everyone', async () => {
    expect(await run('/404', { hasSession: false }).result).toEqual({ allow: true });
    expect(await run('/404').result).toEqual({ allow: true });
  });
});

describe('startsInFrame (what a first load shows while the gate runs)', () => {
  it('expects the signed-in frame for a signed-in start on a frame page or a public page', () => {
    expect(startsInFrame('/dashboard', true)).toBe(true);
    expect(startsInFrame('/my-account/', true)).toBe(true);
    // The gate sends a signed-in user on a public page to the dashboard.
    expect(startsInFrame('/login', true)).toBe(true);
  });

  it('expects nothing of the frame without a session, on the blank-layout steps or the neutral pages', () => {
    expect(startsInFrame('/dashboard', false)).toBe(false);
    expect(startsInFrame('/login', false)).toBe(false);
    expect(startsInFrame('/terms-conditions', true)).toBe(false);
    expect(startsInFrame('/user-details', true)).toBe(false);
    expect(startsInFrame('/404', true)).toBe(false);
  });
});
