import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPLICATION_MESSAGES, type TUser } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { AMOY, APPLICATION, createFetchMock, json, page, SEPOLIA, USER } from '../test/fixtures.ts';
import { RegisterApplicationPage } from './register-application.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

// Whole MUI pages render slowly in jsdom on a shared runner: wait longer than the default second.
configure({ asyncUtilTimeout: 8_000 });

const mock = createFetchMock();

function renderPage(user: TUser = USER) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  return renderWithProviders(<RegisterApplicationPage />, {
    route: '/my-applications/register-new-application',
    queryClient,
    routes: [
      { path: '/my-applications/kyc', element: <p>Identity verification page</p> },
      { path: '/my-applications', element: <p>My applications page</p> },
      { path: '/my-networks/select-new-networks', element: <p>Select networks page</p> },
    ],
  });
}

async function startDetails() {
  const start = await screen.findByRole('button', { name: 'Get started' });
  // Enabled once the allowance has loaded.
  await waitFor(() => expect(start).toBeEnabled());
  fireEvent.click(start);
  return screen.findByRole('textbox', { name: /Application name/ });
}

function fillDetails(name: string, callbackUrl: string, type = 'Testnet') {
  fireEvent.change(screen.getByRole('textbox', { name: /Application name/ }), { target: { value: name } });
  fireEvent.change(screen.getByRole('textbox', { name: /Callback URL/ }), { target: { value: callbackUrl } });
  fireEvent.click(screen.getByRole('radio', { name: new RegExp(`^${type}`) }));
}

describe('RegisterApplicationPage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({
      'GET /api/application-manager/applications/': () => json(page([], { used: 0, total: 3 })),
      'GET /api/application-manager/networks': () => json({ networks: [SEPOLIA, AMOY] }),
      'POST /api/application-manager/validate': () => json({ valid: true }),
      'POST /api/application-manager/create-application/': (body) =>
        json(
          { ...APPLICATION, ...(body as object), networks: [SEPOLIA, AMOY], clientSecret: 'the-secret-shown-once' },
          201,
        ),
    });
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('shows the spec’s messages under the fields and does not continue', async () => {
    renderPage();
    await startDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(APPLICATION_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(APPLICATION_MESSAGES.callbackRequired)).toBeInTheDocument();
    expect(screen.getByText(APPLICATION_MESSAGES.typeRequired)).toBeInTheDocument();

    fillDetails('x'.repeat(50), 'http://example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(APPLICATION_MESSAGES.nameTooLong)).toBeInTheDocument();
    expect(screen.getByText(APPLICATION_MESSAGES.callbackInvalid)).toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox', { name: /Application name/ }), { target: { value: 'Bad <name>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(APPLICATION_MESSAGES.nameSpecialCharacters)).toBeInTheDocument();
    expect(mock.bodies('POST /api/application-manager/validate')).toEqual([]);
  });

  it('shows the server’s answer when the name is taken', async () => {
    mock.route({
      'GET /api/application-manager/applications/': () => json(page([], { used: 0, total: 3 })),
      'POST /api/application-manager/validate': () =>
        json(
          {
            status: 409,
            title: 'Conflict',
            code: 'APPLICATION_NAME_EXISTS',
            detail: APPLICATION_MESSAGES.nameExists,
            invalidParams: [{ name: 'name', reason: APPLICATION_MESSAGES.nameExists }],
          },
          409,
        ),
    });
    renderPage();
    await startDetails();
    fillDetails('Payments API', 'https://example.com/cb');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(APPLICATION_MESSAGES.nameExists)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Application details' })).toBeInTheDocument();
  });

  it('registers an application and shows the credentials once', async () => {
    renderPage();
    await startDetails();
    fillDetails('Payments API', 'https://example.com/cb');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Select networks' })).toBeInTheDocument();
    await screen.findByRole('checkbox', { name: /Ethereum Testnet/ });
    // The plan's rate limit, once for the list, as the gateway enforces it.
    expect(
      screen.getByText(
        "Your plan's gateway rate limit: 1,250 requests a second per network, shared by your applications.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Ethereum Testnet.*Ethereum · 1,250 req\/s/ })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Register application' }));
    expect(await screen.findByText(APPLICATION_MESSAGES.networksRequired)).toBeInTheDocument();
    expect(mock.bodies('POST /api/application-manager/create-application/')).toEqual([]);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByRole('checkbox', { name: /Polygon Testnet/ })).toBeChecked();
    // Testnet signing is confirmed in a dialog first.
    fireEvent.click(screen.getByRole('checkbox', { name: /sign testnet transactions/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Turn on testnet signing?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: /sign testnet transactions/ })).toBeChecked());

    fireEvent.click(screen.getByRole('button', { name: 'Register application' }));
    expect(await screen.findByRole('heading', { name: 'Payments API is registered' })).toBeInTheDocument();
    expect(mock.bodies('POST /api/application-manager/create-application/')).toEqual([
      {
        name: 'Payments API',
        callbackUrl: 'https://example.com/cb',
        applicationType: 'testnet',
        networkIds: [SEPOLIA.id, AMOY.id],
        testnetSigning: true,
      },
    ]);
    expect(screen.getByTestId('client-secret')).toHaveTextContent('the-secret-shown-once');
    // Never captured by session recording or analytics, when they are configured.
    expect(screen.getByTestId('client-secret')).toHaveAttribute('data-hj-suppress');
    expect(screen.getByTestId('client-secret')).toHaveClass('ph-no-capture');
    expect(screen.getByText(/shown only this once/)).toBeInTheDocument();
    for (const value of [
      APPLICATION.clientId,
      APPLICATION.signingKeyId,
      APPLICATION.signingPublicKey,
      'quant-testnet-signing',
    ]) {
      expect(screen.getByText(value)).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Copy client secret' })).toBeInTheDocument();
  });

  it('sends an unverified user who chooses mainnet to identity verification', async () => {
    renderPage();
    await startDetails();
    fillDetails('Mainnet app', 'https://example.com/cb', 'Mainnet');
    expect(screen.getByText(/need a verified identity/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Identity verification page')).toBeInTheDocument();
  });

  it('explains and disables the flow when the allowance is used up', async () => {
    mock.route({ 'GET /api/application-manager/applications/': () => json(page([], { used: 3, total: 3 })) });
    renderPage();
    expect(await screen.findByText(/registered all 3 applications your plan allows/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get started' })).toBeDisabled();
  });

  it('asks before leaving a half-filled flow', async () => {
    const { router } = renderPage();
    await startDetails();
    fillDetails('Half done', 'https://example.com/cb');
    void router.navigate('/my-applications');
    const dialog = await screen.findByRole('dialog', { name: 'Leave the registration?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: /Application name/ })).toHaveValue('Half done');
  });

  it('asks before "Go to My networks" leaves the filled-in details, as any other way out', async () => {
    mock.route({
      'GET /api/application-manager/applications/': () => json(page([], { used: 0, total: 3 })),
      'POST /api/application-manager/validate': () => json({ valid: true }),
      // No active testnet: the step offers to activate some.
      'GET /api/application-manager/networks': () => json({ networks: [] }),
    });
    renderPage();
    await startDetails();
    fillDetails('Half done', 'https://example.com/cb');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const activate = await screen.findByRole('link', { name: 'Go to My networks' });

    fireEvent.click(activate);
    const dialog = await screen.findByRole('dialog', { name: 'Leave the registration?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Select networks' })).toBeInTheDocument();
    expect(screen.queryByText('Select networks page')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('link', { name: 'Go to My networks' }));
    const again = await screen.findByRole('dialog', { name: 'Leave the registration?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Leave and lose details' }));
    expect(await screen.findByText('Select networks page')).toBeInTheDocument();
  });
});
