import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TSubscription } from '@connect/shared';
import { ANNUAL, CATALOGUE, TRIAL } from '../../../test/plans.ts';
import { LowCreditsBanner } from './low-credits-banner.tsx';
import { fetchByPath, json, renderRoutes } from './test-utils.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

function renderBanner(subscription: TSubscription, route = '/my-networks') {
  vi.stubGlobal(
    'fetch',
    fetchByPath({
      '/api/account-plan/subscription': () => json(subscription),
      '/api/account-plan/v2/fetch-plans': () => json(CATALOGUE),
    }),
  );
  return renderRoutes([{ path: '*', element: <LowCreditsBanner /> }], { route });
}

describe('LowCreditsBanner', { timeout: 20_000 }, () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows nothing while the credits are not low', async () => {
    renderBanner(TRIAL);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    // Give the answer time to arrive: still nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/running low/)).not.toBeInTheDocument();
  });

  it('warns with the credits left and a Buy credits link where the plan sells bundles', async () => {
    renderBanner({ ...ANNUAL, lowCredits: true, credits: { available: 1_250, balance: 1_250, floor: 0 } });
    expect(await screen.findByText(/Your credits are running low: 1,250 left\./)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/my-account?buy-credits');
  });

  it('links the trial, which sells no credits, to the upgrade', async () => {
    renderBanner({ ...TRIAL, lowCredits: true, credits: { available: 3, balance: 3, floor: 0 } });
    expect(await screen.findByText(/Your credits are running low: 3 left\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/account-plan/upgrade');
  });

  it('stays hidden for the session once dismissed', async () => {
    const low = { ...TRIAL, lowCredits: true, credits: { available: 3, balance: 3, floor: 0 } };
    const { unmount } = renderBanner(low);
    fireEvent.click(await screen.findByRole('button', { name: 'Hide this message' }));
    expect(screen.queryByText(/running low/)).not.toBeInTheDocument();
    unmount();
    renderBanner(low);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/running low/)).not.toBeInTheDocument();
  });

  it('leaves the warning to the dashboard and My account, which show it in place', async () => {
    const low = { ...TRIAL, lowCredits: true, credits: { available: 3, balance: 3, floor: 0 } };
    renderBanner(low, '/dashboard');
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/running low/)).not.toBeInTheDocument();
  });
});
