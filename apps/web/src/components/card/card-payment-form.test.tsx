import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_MESSAGES } from '@connect/shared';
import { createFetchMock, json } from '../../test/fixtures.ts';
import { PAYMENT_INTENT, SETUP_INTENT } from '../../test/cards.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { CardPaymentForm } from './card-payment-form.tsx';

// Where the browser would go (jsdom does not navigate).
const { redirectTo } = vi.hoisted(() => ({ redirectTo: vi.fn() }));
vi.mock('../../lib/payment/card-redirect.ts', () => ({ redirectTo }));

// Stripe.js stands in for itself: the module that loads it must only be loaded in stripe mode.
const stripe = vi.hoisted(() => ({
  loadStripe: vi.fn(),
  confirmPayment: vi.fn(),
  confirmSetup: vi.fn(),
}));
vi.mock('@stripe/stripe-js', () => ({ loadStripe: stripe.loadStripe }));
vi.mock('@stripe/react-stripe-js', async () => {
  const { useEffect } = await import('react');
  const elements = { id: 'elements' };
  return {
    Elements: ({ children }: { children: React.ReactNode }) => children,
    PaymentElement: ({ onReady }: { onReady: () => void }) => {
      useEffect(() => onReady(), [onReady]);
      return <div data-testid="payment-element" />;
    },
    useStripe: () => ({ confirmPayment: stripe.confirmPayment, confirmSetup: stripe.confirmSetup }),
    useElements: () => elements,
  };
});

const RETURN_URL = `${window.location.origin}/account-plan/upgrade`;
const CONFIRM = `POST /api/card-sandbox/v1/payment_intents/${PAYMENT_INTENT.intentId}/confirm`;
const { fetchMock, route, bodies } = createFetchMock(() => ({
  [CONFIRM]: () => json({ status: 'succeeded', lastError: null, redirectUrl: null }),
}));

const field = (name: RegExp) => screen.getByRole('textbox', { name });
function type(name: RegExp, value: string) {
  fireEvent.change(field(name), { target: { value } });
  fireEvent.blur(field(name));
}
function fillCard(number: string, expiry = '12 / 30', cvc = '123') {
  type(/Card number/, number);
  type(/Expiry date/, expiry);
  type(/Security code/, cvc);
}
const pay = () => fireEvent.click(screen.getByRole('button', { name: 'Pay £6,880.00' }));

describe('CardPaymentForm', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    route({});
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    redirectTo.mockReset();
    Object.values(stripe).forEach((fn) => fn.mockReset());
  });

  describe('in the sandbox', () => {
    it('shows the amount, the Sandbox chip and its own card fields, and never loads Stripe.js', async () => {
      renderWithProviders(<CardPaymentForm intent={PAYMENT_INTENT} returnUrl={RETURN_URL} />);
      expect(await screen.findByTestId('card-amount')).toHaveTextContent('£6,880.00');
      expect(screen.getByText('Sandbox')).toBeInTheDocument();
      expect(field(/Card number/)).toHaveAttribute('autocomplete', 'cc-number');
      expect(field(/Expiry date/)).toHaveAttribute('placeholder', 'MM / YY');
      expect(field(/Security code/)).toHaveAttribute('autocomplete', 'cc-csc');
      expect(stripe.loadStripe).not.toHaveBeenCalled();
    });

    it('formats what is typed and refuses a wrong number, a past expiry and a short code under their fields, sending nothing', async () => {
      renderWithProviders(<CardPaymentForm intent={PAYMENT_INTENT} returnUrl={RETURN_URL} />);
      await screen.findByTestId('card-amount');
      pay();
      expect(await screen.findByText('Enter your card number.')).toBeInTheDocument();
      expect(screen.getByText('Enter the expiry date.')).toBeInTheDocument();
      expect(screen.getByText('Enter the security code.')).toBeInTheDocument();

      fillCard('4242424242424241', '0120', '12');
      expect(field(/Card number/)).toHaveValue('4242 4242 4242 4241');
      expect(field(/Expiry date/)).toHaveValue('01 / 20');
      expect(await screen.findByText('Your card number is invalid.')).toBeInTheDocument();
      expect(screen.getByText('Your card’s expiry date is in the past.')).toBeInTheDocument();
      expect(screen.getByText('Your card’s security code is incomplete.')).toBeInTheDocument();
      expect(field(/Card number/)).toHaveAttribute('aria-invalid', 'true');
      pay();
      await waitFor(() => expect(field(/Card number/)).toHaveFocus());
      expect(bodies(CONFIRM)).toEqual([]);
    });

    it('goes to the return URL with Stripe’s query once the payment succeeds', async () => {
      renderWithProviders(<CardPaymentForm intent={PAYMENT_INTENT} returnUrl={RETURN_URL} />);
      await screen.findByTestId('card-amount');
      fillCard('4242 4242 4242 4242', '12 / 30', '123');
      pay();
      pay();
      await waitFor(() => expect(redirectTo).toHaveBeenCalledTimes(1));
      const url = new URL(redirectTo.mock.calls[0]![0] as string);
      expect(`${url.origin}${url.pathname}`).toBe(RETURN_URL);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        payment_intent: PAYMENT_INTENT.intentId,
        payment_intent_client_secret: PAYMENT_INTENT.clientSecret,
        redirect_status: 'succeeded',
      });
      expect(bodies(CONFIRM)).toEqual([
        {
          clientSecret: PAYMENT_INTENT.clientSecret,
          card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
          returnUrl: RETURN_URL,
        },
      ]);
      // Sending and leaving: the form cannot be sent twice.
      expect(screen.getByRole('button', { name: /Pay £6,880.00/ })).toBeDisabled();
      expect(field(/Card number/)).toBeDisabled();
    });

    it('says Payment has failed with the reason and the advice on a decline, and keeps the form and the amount for another card', async () => {
      route({
        [CONFIRM]: () =>
          json({
            status: 'requires_payment_method',
            lastError: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
            redirectUrl: null,
          }),
      });
      renderWithProviders(<CardPaymentForm intent={PAYMENT_INTENT} returnUrl={RETURN_URL} />);
      await screen.findByTestId('card-amount');
      fillCard('4000 0000 0000 0002');
      pay();
      const alert = (await screen.findByText(CARD_MESSAGES.failed)).closest('[role="alert"]')!;
      expect(alert).toHaveTextContent('Your card was declined.');
      expect(alert).toHaveTextContent(CARD_MESSAGES.checkDetails);
      await waitFor(() => expect(alert).toHaveFocus());
      expect(redirectTo).not.toHaveBeenCalled();
      expect(screen.getByTestId('card-amount')).toHaveTextContent('£6,880.00');
      expect(field(/Card number/)).toHaveValue('4000 0000 0000 0002');
      expect(field(/Card number/)).toBeEnabled();

      // Another card, through the test cards list.
      route({});
      fireEvent.click(screen.getByRole('button', { name: 'Test cards' }));
      expect(screen.getByRole('button', { name: 'Test cards' })).toHaveAttribute('aria-expanded', 'true');
      fireEvent.click(await screen.findByRole('button', { name: 'Use test card 4242 4242 4242 4242' }));
      expect(field(/Card number/)).toHaveValue('4242 4242 4242 4242');
      // The list folds away once a card is chosen, the focus back on its toggle.
      expect(screen.getByRole('button', { name: 'Test cards' })).toHaveAttribute('aria-expanded', 'false');
      expect(screen.getByRole('button', { name: 'Test cards' })).toHaveFocus();
      await waitFor(() => expect(screen.queryByText(CARD_MESSAGES.failed)).not.toBeInTheDocument());
      pay();
      await waitFor(() => expect(redirectTo).toHaveBeenCalledTimes(1));
      expect(bodies(CONFIRM)).toHaveLength(2);
    });

    it('sends a card that asks for authentication to the sandbox’s authentication page', async () => {
      const authenticate = `/card-sandbox/authenticate?intent=${PAYMENT_INTENT.intentId}&client_secret=${PAYMENT_INTENT.clientSecret}&return_url=${encodeURIComponent(RETURN_URL)}`;
      route({ [CONFIRM]: () => json({ status: 'requires_action', lastError: null, redirectUrl: authenticate }) });
      renderWithProviders(<CardPaymentForm intent={PAYMENT_INTENT} returnUrl={RETURN_URL} />);
      await screen.findByTestId('card-amount');
      fillCard('4000 0025 0000 3155');
      pay();
      await waitFor(() => expect(redirectTo).toHaveBeenCalledWith(authenticate));
    });

    it('opens the authentication page on this portal when the sandbox names it under the server’s own address', async () => {
      const query = `?intent=${PAYMENT_INTENT.intentId}&client_secret=${PAYMENT_INTENT.clientSecret}`;
      route({
        [CONFIRM]: () =>
          json({
            status: 'requires_action',
            lastError: null,
            redirectUrl: `http://localhost:8080/card-sandbox/authenticate${query}`,
          }),
      });
      renderWithProviders(<CardPaymentForm intent={PAYMENT_INTENT} returnUrl={RETURN_URL} />);
      await screen.findByTestId('card-amount');
      fillCard('4000 0025 0000 3155');
      pay();
      await waitFor(() =>
        expect(redirectTo).toHaveBeenCalledWith(`${window.location.origin}/card-sandbox/authenticate${query}`),
      );
    });

    it('never follows an authentication page on another site', async () => {
      route({
        [CONFIRM]: () =>
          json({ status: 'requires_action', lastError: null, redirectUrl: 'https://evil.example/authenticate' }),
      });
      renderWithProviders(<CardPaymentForm intent={PAYMENT_INTENT} returnUrl={RETURN_URL} />);
      await screen.findByTestId('card-amount');
      fillCard('4000 0025 0000 3155');
      pay();
      expect(await screen.findByText(CARD_MESSAGES.failed)).toBeInTheDocument();
      expect(redirectTo).not.toHaveBeenCalled();
    });

    it('saves a card for a SetupIntent and returns with setup_intent', async () => {
      const confirmSetup = `POST /api/card-sandbox/v1/setup_intents/${SETUP_INTENT.intentId}/confirm`;
      route({ [confirmSetup]: () => json({ status: 'succeeded', lastError: null, redirectUrl: null }) });
      renderWithProviders(<CardPaymentForm intent={SETUP_INTENT} returnUrl={RETURN_URL} />);
      fillCard('4242 4242 4242 4242');
      expect(screen.queryByTestId('card-amount')).not.toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Save card' }));
      await waitFor(() => expect(redirectTo).toHaveBeenCalledTimes(1));
      const url = new URL(redirectTo.mock.calls[0]![0] as string);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        setup_intent: SETUP_INTENT.intentId,
        setup_intent_client_secret: SETUP_INTENT.clientSecret,
        redirect_status: 'succeeded',
      });
      expect(bodies(confirmSetup)).toHaveLength(1);
    });
  });

  describe('with Stripe', () => {
    const STRIPE_INTENT = { ...PAYMENT_INTENT, provider: { mode: 'stripe', publishableKey: 'pk_test_123' } } as const;

    it('loads Stripe.js with the publishable key, shows the Payment Element, and confirms with the return URL', async () => {
      stripe.loadStripe.mockResolvedValue({});
      stripe.confirmPayment.mockResolvedValue({ error: { message: 'Your card was declined.' } });
      renderWithProviders(<CardPaymentForm intent={STRIPE_INTENT} returnUrl={RETURN_URL} />);
      expect(await screen.findByTestId('payment-element')).toBeInTheDocument();
      expect(stripe.loadStripe).toHaveBeenCalledWith('pk_test_123');
      expect(screen.queryByText('Sandbox')).not.toBeInTheDocument();
      expect(screen.queryByRole('textbox', { name: /Card number/ })).not.toBeInTheDocument();

      await waitFor(() => expect(screen.getByRole('button', { name: 'Pay £6,880.00' })).toBeEnabled());
      pay();
      await waitFor(() => expect(stripe.confirmPayment).toHaveBeenCalled());
      // Stripe redirects by itself when the payment goes through; a refusal comes back to the form.
      expect(await screen.findByText(CARD_MESSAGES.failed)).toBeInTheDocument();
      expect(screen.getByText(CARD_MESSAGES.failed).closest('[role="alert"]')).toHaveTextContent(
        'Your card was declined.',
      );
      expect(stripe.confirmPayment).toHaveBeenCalledWith({
        elements: { id: 'elements' },
        confirmParams: { return_url: RETURN_URL },
      });
      expect(stripe.confirmSetup).not.toHaveBeenCalled();
    });
  });
});
