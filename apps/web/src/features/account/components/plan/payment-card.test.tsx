import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_MESSAGES, type TSubscription } from '@connect/shared';
import { formatDateTime } from '../../../../lib/format.ts';
import { CARD_SAVED, CARD_STATUS, FAILED_CHARGE, PAID, PAYMENT_INTENT, SETUP_INTENT } from '../../../../test/cards.ts';
import { createFetchMock, json, type Handler } from '../../../../test/fixtures.ts';
import { ANNUAL, BUNDLES, CATALOGUE, CREDITS_ORDER } from '../../../../test/plans.ts';
import { renderWithProviders } from '../../../../test/render.tsx';
import { PlanSection } from './plan-section.tsx';

vi.mock('../../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));
const { redirectTo } = vi.hoisted(() => ({ redirectTo: vi.fn() }));
vi.mock('../../../../lib/payment/card-redirect.ts', () => ({ redirectTo }));

/** The annual plan, on an installation that takes cards. */
const TAKES_CARD: TSubscription = { ...ANNUAL, availablePaymentMethods: ['BANK_TRANSFER', 'FIAT'] };
const INITIATE = `POST /api/payment/initiate/${FAILED_CHARGE.orderId}`;

const { fetchMock, route, bodies } = createFetchMock(() => ({
  'GET /api/account-plan/subscription': () => json(TAKES_CARD),
  'GET /api/account-plan/v2/fetch-plans': () => json(CATALOGUE),
  [`GET /api/account-plan/rate-plan/${BUNDLES.ratePlanId}/credit-bundles`]: () => json(BUNDLES),
  'GET /api/payment/card/status': () => json(CARD_STATUS),
  'POST /api/payment/card/setup': () => json(SETUP_INTENT),
  'POST /api/payment/card/order': () => json(PAYMENT_INTENT),
}));

function renderSection(handlers: Record<string, Handler> = {}, search = '') {
  route(handlers);
  window.history.replaceState(null, '', `/my-account${search}`);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return renderWithProviders(<PlanSection />, { route: `/my-account${search}`, path: '/my-account', queryClient });
}

const cardSection = async () => screen.findByRole('region', { name: /Payment card/ });

describe('My account’s payment card', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    redirectTo.mockReset();
    window.history.replaceState(null, '', '/');
  });

  it('shows the saved card with its brand, last four digits and expiry, and replaces it in a dialog', async () => {
    renderSection();
    const section = await cardSection();
    expect(within(section).getByTestId('saved-card')).toHaveTextContent('Visa •••• 4242');
    expect(within(section).getByText('Expires 04/2028')).toBeInTheDocument();
    expect(within(section).getByText('Sandbox')).toBeInTheDocument();

    fireEvent.click(within(section).getByRole('button', { name: 'Replace card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace your card' });
    expect(await within(dialog).findByRole('button', { name: 'Save card' })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Card number/ })).toBeInTheDocument();
    expect(bodies('POST /api/payment/card/setup')).toEqual([{}]);
  });

  it('offers to add a card when none is saved, and shows nothing where cards are not taken', async () => {
    const { unmount } = renderSection({ 'GET /api/payment/card/status': () => json({ ...CARD_STATUS, card: null }) });
    const section = await cardSection();
    expect(within(section).getByText('No card saved yet.')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Add a card' })).toBeInTheDocument();
    unmount();

    renderSection({
      'GET /api/payment/card/status': () => json({ available: false, provider: null, card: null, failedCharge: null }),
    });
    expect(await screen.findByTestId('plan-name')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/card/status'))).toBe(true));
    expect(screen.queryByRole('region', { name: /Payment card/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a card' })).not.toBeInTheDocument();
  });

  it('shows a failed monthly charge with its amount, attempts and next attempt, and pays it now with the saved card', async () => {
    let failed = true;
    renderSection({
      'GET /api/payment/card/status': () => json({ ...CARD_STATUS, failedCharge: failed ? FAILED_CHARGE : null }),
      [INITIATE]: () => {
        failed = false;
        return json({ ...PAID, orderId: FAILED_CHARGE.orderId });
      },
    });
    const section = await cardSection();
    const alert = within(section).getByText(CARD_MESSAGES.failed).closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent('We could not charge your card £42.50 for order CNX-USAGE001');
    expect(alert).toHaveTextContent('Your card has insufficient funds.');
    const row = (label: string) => within(alert).getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(row('Amount')).toHaveTextContent('£42.50');
    expect(row('Attempts so far')).toHaveTextContent('2');
    expect(row('Next attempt')).toHaveTextContent(formatDateTime(FAILED_CHARGE.nextAttemptAt));

    fireEvent.click(within(alert).getByRole('button', { name: 'Pay now' }));
    expect(await within(section).findByText('Payment received')).toBeInTheDocument();
    expect(bodies(INITIATE)).toHaveLength(1);
    // The status is read again: the charge is paid and its alert gone.
    await waitFor(() => expect(within(section).queryByText(CARD_MESSAGES.failed)).not.toBeInTheDocument());
    expect(within(section).getByText('Payment received')).toBeInTheDocument();
  });

  it('says Payment has failed with the reason and the advice when Pay now is declined', async () => {
    renderSection({
      'GET /api/payment/card/status': () => json({ ...CARD_STATUS, failedCharge: FAILED_CHARGE }),
      [INITIATE]: () =>
        json({
          ...PAID,
          orderId: FAILED_CHARGE.orderId,
          status: 'requires_payment_method',
          orderStatus: 'AWAITING_PAYMENT',
          failure: { code: 'card_declined', message: 'Your card was declined.' },
        }),
    });
    const section = await cardSection();
    fireEvent.click(within(section).getByRole('button', { name: 'Pay now' }));
    const declined = (await within(section).findByText(/Your card was declined\./)).closest('[role="alert"]');
    expect(declined).toHaveTextContent(CARD_MESSAGES.failed);
    expect(declined).toHaveTextContent(CARD_MESSAGES.checkDetails);
  });

  it('confirms a card saved on return, says Card saved, and takes the query out of the address', async () => {
    renderSection(
      { 'POST /api/payment/card/confirm': () => json(CARD_SAVED) },
      `?setup_intent=${SETUP_INTENT.intentId}&setup_intent_client_secret=${SETUP_INTENT.clientSecret}&redirect_status=succeeded`,
    );
    expect(await screen.findByText('Card saved')).toBeInTheDocument();
    expect(bodies('POST /api/payment/card/confirm')).toEqual([{ setupIntent: SETUP_INTENT.intentId }]);
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('confirms a payment back from 3-D Secure, says Payment received, and takes the query out of the address and the router', async () => {
    const { router } = renderSection(
      { 'POST /api/payment/card/confirm': () => json(PAID) },
      `?payment_intent=${PAYMENT_INTENT.intentId}&payment_intent_client_secret=${PAYMENT_INTENT.clientSecret}&redirect_status=succeeded`,
    );
    expect(await screen.findByText('Payment received')).toBeInTheDocument();
    expect(bodies('POST /api/payment/card/confirm')).toEqual([{ paymentIntent: PAYMENT_INTENT.intentId }]);
    // The router's location too: a later navigation of the page (the buy-credits dialog's query) keeps none of it.
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/my-account');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('says the card could not be saved, with the reason and advice, and offers another card', async () => {
    renderSection(
      {
        'POST /api/payment/card/confirm': () =>
          json({
            ...CARD_SAVED,
            status: 'requires_payment_method',
            card: null,
            failure: { code: 'card_declined', message: 'Your card was declined.' },
          }),
      },
      `?setup_intent=${SETUP_INTENT.intentId}&setup_intent_client_secret=${SETUP_INTENT.clientSecret}&redirect_status=failed`,
    );
    const alert = (await screen.findByText('Your card could not be saved')).closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent('Your card was declined.');
    expect(alert).toHaveTextContent(CARD_MESSAGES.checkDetails);
    expect(screen.queryByText('Card saved')).not.toBeInTheDocument();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try another card' }));
    expect(await screen.findByRole('dialog', { name: 'Replace your card' })).toBeInTheDocument();
  });

  it('buys credits by card: the order placed, then the card form in the dialog', async () => {
    const cardCredits = { ...CREDITS_ORDER, paymentMethod: 'FIAT' as const, bankTransfer: null };
    renderSection({
      'POST /api/account-plan/order/credits': () => json(cardCredits, 201),
      'POST /api/payment/card/order': () =>
        json({ ...PAYMENT_INTENT, orderId: cardCredits.id, amountGbpMinor: cardCredits.totalGbpMinor }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Buy credits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy credits' });
    fireEvent.click(await within(dialog).findByRole('radio', { name: /5,000 credits/ }));
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Card' }));
    for (const name of ['terms and conditions', 'acceptable use policy', 'privacy policy']) {
      fireEvent.click(within(dialog).getByRole('checkbox', { name: `I agree to the ${name}` }));
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Place order' }));

    const placed = await screen.findByRole('dialog', { name: 'Your order CNX-CR3D1TS0 has been placed' });
    expect(await within(placed).findByTestId('card-amount')).toHaveTextContent('£4,133.86');
    expect(within(placed).getByRole('button', { name: 'Pay £4,133.86' })).toBeInTheDocument();
    expect(bodies('POST /api/account-plan/order/credits')[0]).toMatchObject({ paymentMethod: 'FIAT' });
    expect(bodies('POST /api/payment/card/order')).toEqual([{ orderId: cardCredits.id }]);
  });
});
