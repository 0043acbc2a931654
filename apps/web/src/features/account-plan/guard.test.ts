import { describe, expect, it, vi } from 'vitest';
import type { TPlanInfo } from '@connect/shared';
import { planInfoQuery } from '../../lib/plan.ts';
import { queryClient } from '../../lib/query-client.ts';
import { json, TEST_USER } from '../../test/fixtures.ts';
import { CARD_ORDER } from '../../test/cards.ts';
import { ORDER, QNT_ORDER, TRIAL } from '../../test/plans.ts';
import { setUpGuardSuite } from '../../test/guard-suite.ts';
import { upgradeGuard } from './guard.ts';

vi.mock('../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const ACTIVE: TPlanInfo = { name: 'Trial', status: 'ACTIVE', credits: 100, renewsAt: null };
const PENDING: TPlanInfo = { ...ACTIVE, status: 'PENDING' };
const at = (query = '') => new Request(`http://localhost/account-plan/upgrade${query}`);

/** The guard of /account-plan/upgrade (spec §2, §5). */
describe('upgradeGuard', () => {
  const fetchMock = setUpGuardSuite(TEST_USER);

  it('lets an account whose plan is not pending through', async () => {
    fetchMock.mockImplementation(async () => json(ACTIVE));
    expect(await upgradeGuard(at())).toBeNull();
  });

  it('sends a PENDING account to the dashboard', async () => {
    fetchMock.mockImplementation(async () => json(PENDING));
    const response = await upgradeGuard(at());
    expect(response?.status).toBe(302);
    expect(response?.headers.get('location')).toBe('/dashboard');
  });

  it('lets a PENDING account whose order is paid in QNT come back to follow the payment', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('/subscription')
        ? json({ ...TRIAL, status: 'PENDING', pendingOrder: QNT_ORDER })
        : json(PENDING),
    );
    expect(await upgradeGuard(at())).toBeNull();
  });

  it.each([
    ['a card payment', CARD_ORDER],
    ['a bank transfer', ORDER],
  ])('lets a PENDING account whose order waits for %s through, to resume or cancel it', async (_, order) => {
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('/subscription')
        ? json({ ...TRIAL, status: 'PENDING', pendingOrder: order })
        : json(PENDING),
    );
    expect(await upgradeGuard(at())).toBeNull();
  });

  it('still sends a PENDING account with no order of its own to resume to the dashboard', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('/subscription')
        ? json({ ...TRIAL, status: 'PENDING', pendingOrder: null })
        : json(PENDING),
    );
    expect((await upgradeGuard(at()))?.headers.get('location')).toBe('/dashboard');
  });

  it.each(['?payment_intent=pi_123', '?setup_intent=seti_123'])(
    'lets a PENDING account back from a payment (%s) through, without asking',
    async (query) => {
      queryClient.setQueryData(planInfoQuery().queryKey, PENDING);
      expect(await upgradeGuard(at(query))).toBeNull();
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('reads a cached PENDING again, so an order paid or cancelled a moment ago does not send the user away', async () => {
    queryClient.setQueryData(planInfoQuery().queryKey, PENDING);
    fetchMock.mockImplementation(async () => json(ACTIVE));
    expect(await upgradeGuard(at())).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith('/api/account-plan/user-plan', expect.anything());
  });
});
