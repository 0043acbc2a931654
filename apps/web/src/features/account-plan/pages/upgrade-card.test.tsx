import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_MESSAGES, type TSubscription } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import {
  CARD_ORDER,
  CARD_SAVED,
  DECLINED,
  PAID,
  PAYG_CARD_ORDER,
  PAYMENT_INTENT,
  SETUP_INTENT,
} from '../../../test/cards.ts';
import { createFetchMock, json, TEST_USER, type Handler } from '../../../test/fixtures.ts';
import { ANNUAL_STANDARD, BUNDLES, CATALOGUE, TRIAL } from '../../../test/plans.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { UpgradePage } from './upgrade.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));
const { redirectTo } = vi.hoisted(() => ({ redirectTo: vi.fn() }));
vi.mock('../../../lib/payment/card-redirect.ts', () => ({ redirectTo }));

/** This installation takes cards (and bank transfers). */
const TAKES_CARD: TSubscription = { ...TRIAL, availablePaymentMethods: ['BANK_TRANSFER', 'FIAT'] };
/** The annual plan ordered by card, waiting for its payment. */
const PENDING_CARD: TSubscription = { ...TAKES_CARD, status: 'PENDING', pendingOrder: CARD_ORDER };

const { fetchMock, route, bodies } = createFetchMock(() => ({
  'GET /api/account-plan/v2/fetch-plans': () => json(CATALOGUE),
  'GET /api/account-plan/subscription': () => json(TAKES_CARD),
  [`GET /api/account-plan/rate-plan/${ANNUAL_STANDARD.id}/credit-bundles`]: () => json(BUNDLES),
  'POST /api/account-plan/order/plan': () => json(CARD_ORDER),
  'POST /api/payment/card/order': () => json(PAYMENT_INTENT),
  'POST /api/payment/card/confirm': () => json(PAID),
}));

function renderPage(handlers: Record<string, Handler> = {}, search = '') {
  route(handlers);
  // The address bar, as the browser has it back from the card provider (clearCardReturn edits it).
  window.history.replaceState(null, '', `/account-plan/upgrade${search}`);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  session.setMarker(TEST_USER.id, TEST_USER.role);
  queryClient.setQueryData(currentUserQuery(TEST_USER.id).queryKey, TEST_USER);
  return renderWithProviders(<UpgradePage />, {
    route: `/account-plan/upgrade${search}`,
    path: '/account-plan/upgrade',
    queryClient,
  });
}

/** Back from the card provider with the payment, as Stripe's redirect writes it. */
const BACK_FROM_CARD = `?payment_intent=${PAYMENT_INTENT.intentId}&payment_intent_client_secret=${PAYMENT_INTENT.clientSecret}&redirect_status=succeeded`;

const click = (name: string | RegExp) => fireEvent.click(screen.getByRole('button', { name }));
function agreeToAll() {
  for (const name of [/terms and conditions/, /acceptable use policy/, /privacy policy/]) {
    fireEvent.click(screen.getByRole('checkbox', { name }));
  }
}
const activeStep = () => document.querySelector('[aria-current="step"]')?.textContent;

describe('UpgradePage paying by card', { timeout: 30_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockClear();
    vi.unstubAllGlobals();
    redirectTo.mockReset();
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('places the order by card, keeping the card unless told not to, and shows the card form with the amount to pay', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Annual Subscription — Standard' }));
    fireEvent.click(await screen.findByRole('radio', { name: /1,000 credits/ }));
    click('Continue to summary');
    await screen.findByRole('heading', { name: 'Plan summary' });
    click('Continue to payment');
    await screen.findByRole('heading', { name: 'Payment' });
    fireEvent.click(screen.getByRole('radio', { name: 'Card' }));
    expect(
      await screen.findByRole('checkbox', { name: 'Keep this card for renewals and month-end bills' }),
    ).toBeChecked();
    agreeToAll();
    click('Continue to card payment');

    expect(await screen.findByRole('heading', { name: 'Card details' })).toBeInTheDocument();
    expect(await screen.findByTestId('card-amount')).toHaveTextContent('£6,880.00');
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay £6,880.00' })).toBeInTheDocument();
    expect(activeStep()).toMatch(/Payment$/);
    expect(bodies('POST /api/account-plan/order/plan')[0]).toMatchObject({ paymentMethod: 'FIAT' });
    expect(bodies('POST /api/account-plan/order/plan')[0]).not.toHaveProperty('saveCard');
    expect(bodies('POST /api/payment/card/order')).toEqual([{ orderId: CARD_ORDER.id, saveCard: true }]);
  });

  it('does not keep the card when the customer says so', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Annual Subscription — Standard' }));
    click('Continue to summary');
    await screen.findByRole('heading', { name: 'Plan summary' });
    click('Continue to payment');
    await screen.findByRole('heading', { name: 'Payment' });
    fireEvent.click(screen.getByRole('radio', { name: 'Card' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Keep this card for renewals and month-end bills' }));
    agreeToAll();
    click('Continue to card payment');
    expect(await screen.findByRole('heading', { name: 'Card details' })).toBeInTheDocument();
    await waitFor(() =>
      expect(bodies('POST /api/payment/card/order')).toEqual([{ orderId: CARD_ORDER.id, saveCard: false }]),
    );
  });

  it('keeps a card for pay as you go, with nothing to pay now', async () => {
    renderPage({
      'POST /api/account-plan/order/plan': () => json(PAYG_CARD_ORDER),
      'POST /api/payment/card/order': () => json({ ...SETUP_INTENT, orderId: PAYG_CARD_ORDER.id }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Pay as you go — Standard' }));
    click('Continue to summary');
    await screen.findByRole('heading', { name: 'Plan summary' });
    click('Continue to payment');
    expect(
      await screen.findByText(
        'Nothing to pay now: the credits you use are billed at the end of each month to the card you add on the next step.',
      ),
    ).toBeInTheDocument();
    agreeToAll();
    click('Place order');
    expect(await screen.findByRole('button', { name: 'Save card' })).toBeInTheDocument();
    expect(screen.getByText(/add the card your month-end bills are charged to/)).toBeInTheDocument();
    expect(screen.queryByTestId('card-amount')).not.toBeInTheDocument();
    expect(bodies('POST /api/payment/card/order')).toEqual([{ orderId: PAYG_CARD_ORDER.id }]);
  });

  it('recognises an order awaiting its card payment: Resume payment opens the card form for it', async () => {
    renderPage({ 'GET /api/account-plan/subscription': () => json(PENDING_CARD) });
    const pending = await screen.findByRole('region', { name: 'Order awaiting payment' });
    expect(pending).toHaveTextContent(CARD_ORDER.reference);
    expect(pending).toHaveTextContent('Annual Subscription — Standard');
    expect(screen.queryByRole('heading', { name: 'Card details' })).not.toBeInTheDocument();
    expect(bodies('POST /api/payment/card/order')).toEqual([]);
    click('Resume payment');
    expect(await screen.findByRole('heading', { name: 'Card details' })).toBeInTheDocument();
    expect(await screen.findByTestId('card-amount')).toHaveTextContent('£6,880.00');
    expect(activeStep()).toMatch(/Payment$/);
    expect(bodies('POST /api/payment/card/order')).toEqual([{ orderId: CARD_ORDER.id }]);
  });

  it('cancels an order awaiting its card payment only once confirmed, then offers the plans again', async () => {
    let subscription: TSubscription = PENDING_CARD;
    renderPage({
      'GET /api/account-plan/subscription': () => json(subscription),
      [`POST /api/account-plan/order/${CARD_ORDER.id}/cancel`]: () => {
        subscription = TAKES_CARD;
        return json({ ...CARD_ORDER, status: 'CANCELLED' });
      },
    });
    await screen.findByRole('region', { name: 'Order awaiting payment' });
    click('Cancel order');
    const dialog = await screen.findByRole('dialog', { name: `Cancel order ${CARD_ORDER.reference}?` });
    expect(bodies(`POST /api/account-plan/order/${CARD_ORDER.id}/cancel`)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(
      await screen.findByRole('heading', { name: `Order ${CARD_ORDER.reference} is cancelled` }),
    ).toBeInTheDocument();
    expect(bodies(`POST /api/account-plan/order/${CARD_ORDER.id}/cancel`)).toHaveLength(1);
    click('Choose a plan');
    expect(await screen.findByRole('button', { name: 'Upgrade Annual Subscription — Standard' })).toBeInTheDocument();
  });

  it('offers pay as you go’s month-end bills by exactly the methods its summary lists, and says the plan starts now', async () => {
    renderPage({
      'GET /api/account-plan/subscription': () => json({ ...TAKES_CARD, availablePaymentMethods: ['FIAT', 'QNT'] }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Pay as you go — Standard' }));
    click('Continue to summary');
    await screen.findByRole('heading', { name: 'Plan summary' });
    const listed = screen.getByText('Accepted payment methods', { selector: 'dt' }).nextElementSibling?.textContent;
    expect(listed).toBe('Card, QNT');
    expect(screen.getByText('Your new plan starts now.')).toBeInTheDocument();
    expect(screen.queryByText('Your new plan starts once it is paid.')).not.toBeInTheDocument();
    expect(
      screen.getByText(
        'Pay-as-you-go credits are billed at the end of each month, at most $1.20 per credit in QNT and $1.21 including VAT.',
      ),
    ).toBeInTheDocument();
    click('Continue to payment');
    await screen.findByRole('heading', { name: 'Payment' });
    const offered = screen
      .getAllByRole('radio')
      .filter((radio) => radio.getAttribute('name') === 'paymentMethod')
      .map((radio) => radio.closest('label')?.textContent);
    expect(offered.join(', ')).toBe(listed);
    expect(screen.getByRole('radio', { name: 'Card' })).toBeChecked();
    expect(screen.getByText(/to the card you add on the next step/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'QNT' }));
    expect(
      screen.getByText(/Nothing to pay now: the credits you use are billed at the end of each month/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/to the card you add on the next step/)).not.toBeInTheDocument();
  });

  it('confirms the payment it comes back with, shows the fiat success screen and takes the query out of the address', async () => {
    renderPage({ 'GET /api/account-plan/subscription': () => json(PENDING_CARD) }, BACK_FROM_CARD);
    expect(await screen.findByRole('heading', { name: 'Welcome to the blockchain economy' })).toBeInTheDocument();
    expect(screen.getByText('Your Annual Subscription — Standard plan is active.')).toBeInTheDocument();
    expect(screen.getByText('Visit My Networks to configure your test nets and main nets.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Networks' })).toHaveAttribute('href', '/my-networks');
    expect(activeStep()).toMatch(/Confirmation$/);
    expect(bodies('POST /api/payment/card/confirm')).toEqual([{ paymentIntent: PAYMENT_INTENT.intentId }]);
    // A reload does not confirm it again.
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(window.location.pathname).toBe('/account-plan/upgrade');
  });

  it('says Payment has failed with the advice, and goes back to the card form for another card', async () => {
    renderPage(
      {
        'GET /api/account-plan/subscription': () => json(PENDING_CARD),
        'POST /api/payment/card/confirm': () => json(DECLINED),
      },
      BACK_FROM_CARD.replace('succeeded', 'failed'),
    );
    expect(await screen.findByRole('heading', { name: CARD_MESSAGES.failed })).toBeInTheDocument();
    expect(screen.getByText(/Your card was declined\./)).toHaveTextContent(CARD_MESSAGES.checkDetails);
    expect(screen.queryByText('Welcome to the blockchain economy')).not.toBeInTheDocument();
    await waitFor(() => expect(window.location.search).toBe(''));

    click('Try another card');
    expect(await screen.findByTestId('card-amount')).toHaveTextContent('£6,880.00');
    expect(screen.getByRole('heading', { name: 'Card details' })).toBeInTheDocument();
    expect(activeStep()).toMatch(/Payment$/);
    expect(bodies('POST /api/payment/card/order')).toEqual([{ orderId: CARD_ORDER.id }]);
  });

  it('tells a failed authentication in words for the customer, not the provider’s words for developers', async () => {
    renderPage(
      {
        'GET /api/account-plan/subscription': () => json(PENDING_CARD),
        'POST /api/payment/card/confirm': () =>
          json({
            ...DECLINED,
            failure: {
              code: 'payment_intent_authentication_failure',
              message:
                'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
            },
          }),
      },
      BACK_FROM_CARD.replace('succeeded', 'failed'),
    );
    expect(await screen.findByRole('heading', { name: CARD_MESSAGES.failed })).toBeInTheDocument();
    expect(screen.getByText(/We are unable to authenticate your payment method\./)).toHaveTextContent(
      CARD_MESSAGES.checkDetails,
    );
    expect(screen.queryByText(/payment_method_data/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try another card' })).toBeInTheDocument();
  });

  it('says the card was not saved for pay as you go, and offers another card for the plan already active', async () => {
    renderPage(
      {
        'POST /api/payment/card/confirm': () =>
          json({
            ...CARD_SAVED,
            orderId: PAYG_CARD_ORDER.id,
            orderStatus: 'PAID',
            status: 'requires_payment_method',
            card: null,
            failure: { code: 'card_declined', message: 'Your card was declined.' },
          }),
        'POST /api/payment/card/order': () => json({ ...SETUP_INTENT, orderId: PAYG_CARD_ORDER.id }),
      },
      `?setup_intent=${SETUP_INTENT.intentId}&setup_intent_client_secret=${SETUP_INTENT.clientSecret}&redirect_status=failed`,
    );
    expect(await screen.findByRole('heading', { name: 'Your card could not be saved' })).toBeInTheDocument();
    expect(screen.getByText(/Your card was declined\./)).toHaveTextContent(CARD_MESSAGES.checkDetails);
    expect(bodies('POST /api/payment/card/confirm')).toEqual([{ setupIntent: SETUP_INTENT.intentId }]);
    click('Try another card');
    expect(await screen.findByRole('button', { name: 'Save card' })).toBeInTheDocument();
    expect(bodies('POST /api/payment/card/order')).toEqual([{ orderId: PAYG_CARD_ORDER.id }]);
  });

  it('shows the payment being processed, asks again, and lands on the success screen once it went through', async () => {
    let confirmations = 0;
    renderPage(
      {
        'GET /api/account-plan/subscription': () => json(PENDING_CARD),
        'POST /api/payment/card/confirm': () =>
          json(++confirmations === 1 ? { ...PAID, status: 'processing', orderStatus: 'AWAITING_PAYMENT' } : PAID),
      },
      BACK_FROM_CARD.replace('succeeded', 'processing'),
    );
    expect(await screen.findByRole('heading', { name: 'Your payment is being processed' })).toBeInTheDocument();
    expect(window.location.search).not.toBe('');
    expect(await screen.findByRole('heading', { name: 'Welcome to the blockchain economy' })).toBeInTheDocument();
    expect(confirmations).toBe(2);
  });
});
