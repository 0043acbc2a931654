import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TOrder } from '@connect/shared';
import { createFetchMock, json } from '../../../test/fixtures.ts';
import { ORDER } from '../../../test/plans.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { OrderConfirmation } from './order-confirmation.tsx';
import { QntSuccess } from './success-screens.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const PAID: TOrder = { ...ORDER, status: 'PAID', paidGbpMinor: 688_000, paidAt: '2026-11-22T09:00:00.000Z' };
const CANCELLED: TOrder = { ...ORDER, status: 'CANCELLED', bankTransfer: null };

const { fetchMock, route, bodies } = createFetchMock(() => ({
  'POST /api/account-plan/order/track': () => json(ORDER),
  [`POST /api/account-plan/order/${ORDER.id}/cancel`]: () => json(CANCELLED),
}));

function renderConfirmation(intervalMs: number, onRestart = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  queryClient.setQueryData(['account-plan', 'user-plan'], {
    name: 'Trial',
    status: 'PENDING',
    credits: 0,
    renewsAt: null,
  });
  renderWithProviders(
    <OrderConfirmation
      order={ORDER}
      planName="Annual Subscription — Standard"
      intervalMs={intervalMs}
      onRestart={onRestart}
    />,
    { queryClient },
  );
  return { queryClient, onRestart };
}

describe('OrderConfirmation', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.useRealTimers();
    fetchMock.mockClear();
    vi.unstubAllGlobals();
  });

  it('shows what to pay by bank transfer, tracks the order and turns into the success screen once it is paid', async () => {
    // The tracking interval runs on fake timers (moving with real time), so that it has stopped can be
    // checked over many intervals at the end without waiting for them.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let tracks = 0;
    route({ 'POST /api/account-plan/order/track': () => json(++tracks < 2 ? ORDER : PAID) });
    const { queryClient } = renderConfirmation(40);
    expect(
      screen.getByText('Send £6,880.00 to the account below, quoting the reference, by 04.12.2026.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Your plan will be active once we receive your payment')).toBeInTheDocument();
    for (const value of ['Connect Sandbox Ltd (sample account)', 'Sandbox Bank plc', '00-00-00', 'SANDGB2L']) {
      expect(screen.getByText(value)).toBeInTheDocument();
    }

    expect(await screen.findByRole('heading', { name: 'Welcome to the blockchain economy' })).toBeInTheDocument();
    expect(screen.getByText('Your Annual Subscription — Standard plan is active.')).toBeInTheDocument();
    expect(screen.getByText('Visit My Networks to configure your test nets and main nets.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Networks' })).toHaveAttribute('href', '/my-networks');
    expect(bodies('POST /api/account-plan/order/track')[0]).toEqual({ orderId: ORDER.id });
    // Paid: the top bar's plan is read again at once.
    await waitFor(() => expect(queryClient.getQueryState(['account-plan', 'user-plan'])?.isInvalidated).toBe(true));
    // And tracking stops.
    const count = bodies('POST /api/account-plan/order/track').length;
    await act(() => vi.advanceTimersByTimeAsync(10 * 40));
    expect(bodies('POST /api/account-plan/order/track').length).toBeLessThanOrEqual(count + 1);
  });

  it('cancels the order after confirming, and offers to choose a plan again', async () => {
    let current = ORDER;
    route({
      'POST /api/account-plan/order/track': () => json(current),
      [`POST /api/account-plan/order/${ORDER.id}/cancel`]: () => json((current = CANCELLED)),
    });
    const { onRestart } = renderConfirmation(60_000);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order CNX-7K2M9QXA?' });
    expect(within(dialog).getByText(/Annual Subscription — Standard is withdrawn/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByRole('heading', { name: 'Order CNX-7K2M9QXA is cancelled' })).toBeInTheDocument();
    expect(bodies(`POST /api/account-plan/order/${ORDER.id}/cancel`)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Choose a plan' }));
    expect(onRestart).toHaveBeenCalled();
  });

  it('keeps the order when the cancel dialog is dismissed, and shows a refusal in the dialog', async () => {
    route({
      [`POST /api/account-plan/order/${ORDER.id}/cancel`]: () =>
        json({ status: 409, title: 'Conflict', code: 'ORDER_NOT_PAYABLE', detail: 'This order is already paid.' }, 409),
    });
    renderConfirmation(60_000);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await within(dialog).findByText('This order is already paid.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Pay by bank transfer' })).toBeInTheDocument();
  });
});

describe('QntSuccess', () => {
  it('thanks for the QNT payment, says the plan is active and a confirmation email is on its way', () => {
    renderWithProviders(<QntSuccess planName="Annual Subscription — Standard" />);
    expect(screen.getByRole('heading', { name: 'Thank you for submitting your QNT payment' })).toBeInTheDocument();
    expect(
      screen.getByText('Your payment is confirmed and your Annual Subscription — Standard plan is active.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/A confirmation email is on its way/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Networks' })).toHaveAttribute('href', '/my-networks');
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('says where an over-payment went', () => {
    renderWithProviders(<QntSuccess planName="Annual Subscription — Standard" reason="PAID_OVER" />);
    expect(screen.getByText('You sent more than was due: the rest is held for you as QNT.')).toBeInTheDocument();
  });
});
