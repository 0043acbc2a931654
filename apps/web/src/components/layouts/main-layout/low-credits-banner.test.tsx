import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TSubscription } from '@connect/shared';
import { subscriptionQuery } from '../../../lib/plans/api.ts';
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
  const element = (
    <>
      <LowCreditsBanner />
      <SubscriptionRead />
    </>
  );
  return renderRoutes([{ path: '*', element }], { route });
}

/**
 * Reads the same query as the banner: once its marker shows, the banner has rendered with the
 * subscription too, so a banner still absent then stays absent (no fixed wait).
 */
function SubscriptionRead() {
  const { data } = useQuery(subscriptionQuery());
  return data ? <span data-testid="subscription-read" /> : null;
}

describe('LowCreditsBanner', { timeout: 20_000 }, () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows nothing while the credits are not low', async () => {
    renderBanner(TRIAL);
    // The answer has arrived: still nothing.
    await screen.findByTestId('subscription-read');
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
    await screen.findByTestId('subscription-read');
    expect(screen.queryByText(/running low/)).not.toBeInTheDocument();
  });

  it('leaves the warning to the dashboard and My account, which show it in place', async () => {
    const low = { ...TRIAL, lowCredits: true, credits: { available: 3, balance: 3, floor: 0 } };
    renderBanner(low, '/dashboard');
    await screen.findByTestId('subscription-read');
    expect(screen.queryByText(/running low/)).not.toBeInTheDocument();
  });
});
