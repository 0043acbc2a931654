import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '../../test/fixtures.ts';
import { PAYMENT_INTENT, SETUP_INTENT } from '../../test/cards.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { SandboxAuthenticationPage } from './sandbox-authentication-page.tsx';

const { redirectTo } = vi.hoisted(() => ({ redirectTo: vi.fn() }));
vi.mock('../../lib/payment/card-redirect.ts', () => ({ redirectTo }));

const RETURN_URL = `${window.location.origin}/account-plan/upgrade`;
const INTENT = `/api/card-sandbox/v1/payment_intents/${PAYMENT_INTENT.intentId}`;
const { fetchMock, route, bodies } = createFetchMock(() => ({
  [`GET ${INTENT}`]: () =>
    json({ id: PAYMENT_INTENT.intentId, amount: 688_000, currency: 'gbp', status: 'requires_action', lastError: null }),
  [`POST ${INTENT}/authenticate`]: (body) =>
    json({
      status: (body as { outcome: string }).outcome === 'complete' ? 'succeeded' : 'requires_payment_method',
      returnUrl: RETURN_URL,
    }),
}));

const linkTo = (intent: { intentId: string; clientSecret: string }, returnUrl = RETURN_URL) =>
  `/card-sandbox/authenticate?intent=${intent.intentId}&client_secret=${intent.clientSecret}&return_url=${encodeURIComponent(returnUrl)}`;

function renderPage(route = linkTo(PAYMENT_INTENT)) {
  return renderWithProviders(<SandboxAuthenticationPage />, { route, path: '/card-sandbox/authenticate' });
}

/** The query of the page the browser was sent back to. */
const returnedTo = () => {
  const url = new URL(redirectTo.mock.calls[0]![0] as string);
  return { page: `${url.origin}${url.pathname}`, query: Object.fromEntries(url.searchParams) };
};

describe('SandboxAuthenticationPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    route({});
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    redirectTo.mockReset();
  });

  it('shows the amount and says it is the sandbox’s page', async () => {
    renderPage();
    expect(await screen.findByTestId('authentication-amount')).toHaveTextContent('£6,880.00');
    expect(screen.getByRole('heading', { level: 1, name: 'Authenticate payment' })).toBeInTheDocument();
    expect(screen.getByText('This is a sandbox authentication page')).toBeInTheDocument();
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
    expect(new URL(String(fetchMock.mock.calls[0]![0]), 'http://x').searchParams.get('client_secret')).toBe(
      PAYMENT_INTENT.clientSecret,
    );
  });

  it('completes the authentication and returns with redirect_status succeeded, as Stripe does', async () => {
    renderPage();
    const complete = await screen.findByRole('button', { name: 'Complete authentication' });
    fireEvent.click(complete);
    fireEvent.click(complete);
    await waitFor(() => expect(redirectTo).toHaveBeenCalledTimes(1));
    expect(bodies(`POST ${INTENT}/authenticate`)).toEqual([
      { clientSecret: PAYMENT_INTENT.clientSecret, outcome: 'complete' },
    ]);
    expect(returnedTo()).toEqual({
      page: RETURN_URL,
      query: {
        payment_intent: PAYMENT_INTENT.intentId,
        payment_intent_client_secret: PAYMENT_INTENT.clientSecret,
        redirect_status: 'succeeded',
      },
    });
    // Leaving: neither answer can be sent again.
    expect(screen.getByRole('button', { name: 'Fail authentication' })).toBeDisabled();
  });

  it('fails the authentication and returns with redirect_status failed', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Fail authentication' }));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledTimes(1));
    expect(bodies(`POST ${INTENT}/authenticate`)).toEqual([
      { clientSecret: PAYMENT_INTENT.clientSecret, outcome: 'fail' },
    ]);
    expect(returnedTo().query).toMatchObject({ payment_intent: PAYMENT_INTENT.intentId, redirect_status: 'failed' });
  });

  it('returns a SetupIntent with setup_intent, saying a card is being saved', async () => {
    const setup = `/api/card-sandbox/v1/setup_intents/${SETUP_INTENT.intentId}`;
    route({
      [`GET ${setup}`]: () => json({ id: SETUP_INTENT.intentId, status: 'requires_action', lastError: null }),
      [`POST ${setup}/authenticate`]: () =>
        json({ status: 'succeeded', returnUrl: `${window.location.origin}/my-account` }),
    });
    renderPage(linkTo(SETUP_INTENT, `${window.location.origin}/my-account`));
    expect(await screen.findByTestId('authentication-amount')).toHaveTextContent('Saving your card for later payments');
    // Titled for what it does: nothing is paid here, a card is saved.
    expect(screen.getByRole('heading', { level: 1, name: 'Save your card' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Authenticate this card' })).toBeInTheDocument();
    expect(screen.queryByText(/payment/i, { selector: 'h1, h2' })).not.toBeInTheDocument();
    expect(screen.getByText(/approve saving this card/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Complete authentication' }));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledTimes(1));
    expect(returnedTo()).toEqual({
      page: `${window.location.origin}/my-account`,
      query: {
        setup_intent: SETUP_INTENT.intentId,
        setup_intent_client_secret: SETUP_INTENT.clientSecret,
        redirect_status: 'succeeded',
      },
    });
  });

  it('refuses a link that would return to another site', async () => {
    renderPage(linkTo(PAYMENT_INTENT, 'https://evil.example/steal'));
    expect(await screen.findByText('This authentication link is incomplete or not valid.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Complete authentication' })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
