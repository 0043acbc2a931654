import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPLICATION_MESSAGES, type TApplication } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { AMOY, APPLICATION, createFetchMock, json, page, SEPOLIA, USER } from '../test/fixtures.ts';
import { MyApplicationsPage } from './my-applications.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

// Whole MUI pages render slowly in jsdom on a shared runner: wait longer than the default second.
configure({ asyncUtilTimeout: 8_000 });

const mock = createFetchMock();
const USAGE = {
  from: '2026-11-10',
  to: '2026-11-23',
  total: 12,
  days: Array.from({ length: 14 }, (_, i) => ({
    day: `2026-11-${String(10 + i).padStart(2, '0')}`,
    requests: i === 13 ? 12 : 0,
  })),
  networks: [{ networkId: SEPOLIA.id, name: SEPOLIA.name, requests: 12 }],
};

function routes(applications: TApplication[] = [APPLICATION], quota = { used: 1, total: 3 as number | null }) {
  mock.route({
    'GET /api/application-manager/applications/': (_body, url) => {
      const search = url.searchParams.get('search');
      return json(page(search ? applications.filter((a) => a.name.includes(search)) : applications, quota));
    },
    'GET /api/application-manager/networks': () => json({ networks: [SEPOLIA, AMOY] }),
    [`GET /api/application-manager/networks/${APPLICATION.id}`]: () => json({ networks: [SEPOLIA, AMOY] }),
    [`GET /api/application-manager/application/${APPLICATION.id}`]: () => json(APPLICATION),
    [`GET /api/application-manager/application/${APPLICATION.id}/usage`]: () => json(USAGE),
    'PUT /api/application-manager/application': (body) => json({ ...APPLICATION, ...(body as object) }),
    [`DELETE /api/application-manager/application/${APPLICATION.id}`]: () => new Response(null, { status: 204 }),
    [`POST /api/application-manager/application/${APPLICATION.id}/rotate-secret`]: () =>
      json({
        clientSecret: 'brand-new-secret-value',
        application: {
          ...APPLICATION,
          secrets: [
            { ...APPLICATION.secrets[0]!, id: '66666666-6666-4666-8666-666666666666', hint: 'alue' },
            { ...APPLICATION.secrets[0]!, status: 'EXPIRING', expiresAt: '2026-11-24T10:00:00.000Z' },
          ],
        },
      }),
  });
}

function renderPage() {
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  return renderWithProviders(<MyApplicationsPage />, { route: '/my-applications', queryClient });
}

async function openAction(action: 'Details' | 'Edit' | 'Delete') {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${APPLICATION.name}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: action }));
}

describe('MyApplicationsPage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    routes();
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('lists the applications with the counter created / allowed', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'My applications' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: APPLICATION.name })).toBeInTheDocument();
    expect(screen.getByTestId('applications-counter')).toHaveTextContent('1 / 3 applications');
    const row = screen.getByRole('row', { name: /Payments API/ });
    expect(within(row).getByText('abcdef…wxyz')).toBeInTheDocument();
    expect(within(row).getByText('Testnet')).toBeInTheDocument();
    expect(within(row).getByText('20.11.2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register new application' })).not.toHaveAttribute('aria-disabled');
  });

  it('shows the empty state, and a disabled create button with the reason when the allowance is used', async () => {
    routes([], { used: 3, total: 3 });
    renderPage();
    expect(await screen.findByText('No applications yet')).toBeInTheDocument();
    expect(screen.getByText(/registered all 3 applications your plan allows/)).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'Register new application' })) {
      expect(link).toHaveAttribute('aria-disabled', 'true');
    }
  });

  it('searches by name on the server', async () => {
    renderPage();
    await screen.findByRole('button', { name: APPLICATION.name });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), { target: { value: 'zzz' } });
    expect(
      await screen.findByText('No applications match your search or filters.', {}, { timeout: 8_000 }),
    ).toBeInTheDocument();
    expect(mock.fetchMock.mock.calls.some(([input]) => String(input).includes('search=zzz'))).toBe(true);
  });

  it('details dialog shows the credentials, the usage chart and rotates the secret showing it once', async () => {
    renderPage();
    await openAction('Details');
    const dialog = await screen.findByRole('dialog', { name: /Payments API/ });
    expect(within(dialog).getByText(APPLICATION.clientId)).toBeInTheDocument();
    expect(within(dialog).getByText(USER.accountId)).toBeInTheDocument();
    expect(
      within(dialog).getByText('20.11.2026, ' + new Date(APPLICATION.createdAt).toTimeString().slice(0, 5)),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy client ID' })).toBeInTheDocument();
    expect(within(dialog).getByText('Secret ending in Wxyz')).toBeInTheDocument();
    expect(await within(dialog).findByRole('img', { name: 'Requests per day, last 14 days' })).toBeInTheDocument();
    expect(within(dialog).getByText('12 requests in 14 days')).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    const rotate = await screen.findByRole('dialog', { name: 'Rotate the client secret of Payments API' });
    fireEvent.click(within(rotate).getByRole('radio', { name: '1 hour' }));
    fireEvent.click(within(rotate).getByRole('button', { name: 'Issue new secret' }));
    const done = await screen.findByRole('dialog', { name: 'New client secret for Payments API' });
    expect(within(done).getByTestId('client-secret')).toHaveTextContent('brand-new-secret-value');
    expect(within(done).getByText(/shown only this once/)).toBeInTheDocument();
    expect(within(done).getByText(/previous secret works until/)).toBeInTheDocument();
    expect(mock.bodies(`POST /api/application-manager/application/${APPLICATION.id}/rotate-secret`)).toEqual([
      { gracePeriodMinutes: 60 },
    ]);
    fireEvent.click(within(done).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('brand-new-secret-value')).not.toBeInTheDocument());
  });

  it('edit dialog validates, confirms testnet signing, selects all networks and saves', async () => {
    renderPage();
    await openAction('Edit');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Payments API' });
    const name = within(dialog).getByRole('textbox', { name: /Application name/ });
    fireEvent.change(name, { target: { value: '' } });
    fireEvent.blur(name);
    expect(await within(dialog).findByText(APPLICATION_MESSAGES.nameRequired)).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'Payments API v2' } });
    const callback = within(dialog).getByRole('textbox', { name: /Callback URL/ });
    fireEvent.change(callback, { target: { value: 'http://insecure.example.com' } });
    fireEvent.blur(callback);
    expect(await within(dialog).findByText(APPLICATION_MESSAGES.callbackInvalid)).toBeInTheDocument();
    fireEvent.change(callback, { target: { value: 'https://example.com/v2' } });

    await within(dialog).findByRole('checkbox', { name: /Polygon Testnet/ });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Select all' }));
    expect(await within(dialog).findByText(APPLICATION_MESSAGES.networksRequired)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Select all' }));

    fireEvent.click(within(dialog).getByRole('checkbox', { name: /sign testnet transactions/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Turn on testnet signing?' });
    expect(within(confirm).getByText(new RegExp(APPLICATION.signingKeyId))).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Turn on' }));
    // The edit dialog is inert until the confirmation has closed.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Turn on testnet signing?' })).toBeNull());
    await waitFor(() =>
      expect(within(dialog).getByRole('checkbox', { name: /sign testnet transactions/ })).toBeChecked(),
    );

    fireEvent.click(await within(dialog).findByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(APPLICATION_MESSAGES.updated)).toBeInTheDocument();
    expect(mock.bodies('PUT /api/application-manager/application')).toEqual([
      {
        id: APPLICATION.id,
        name: 'Payments API v2',
        callbackUrl: 'https://example.com/v2',
        networkIds: [SEPOLIA.id, AMOY.id],
        testnetSigning: true,
      },
    ]);
  });

  it('edit dialog shows a taken name under the field', async () => {
    mock.route({
      'GET /api/application-manager/applications/': () => json(page([APPLICATION])),
      'GET /api/application-manager/networks': () => json({ networks: [SEPOLIA] }),
      [`GET /api/application-manager/networks/${APPLICATION.id}`]: () => json({ networks: [SEPOLIA] }),
      'PUT /api/application-manager/application': () =>
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
    await openAction('Edit');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Payments API' });
    await within(dialog).findByRole('checkbox', { name: /Ethereum Testnet/ });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Application name/ }), { target: { value: 'Taken' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText(APPLICATION_MESSAGES.nameExists)).toBeInTheDocument();
  });

  it('delete dialog names the application and deletes it', async () => {
    renderPage();
    await openAction('Delete');
    const dialog = await screen.findByRole('dialog', { name: 'Delete Payments API?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete application' }));
    expect(await screen.findByText('Payments API has been deleted.')).toBeInTheDocument();
    expect(mock.fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });
});
