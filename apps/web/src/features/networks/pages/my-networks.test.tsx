import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TCatalogueResponse, TUserNetwork } from '@connect/shared';
import { availableFeaturesQuery, currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { catalogue, catalogueEntry, json, privateRow, testnetRow, USER } from '../test-data.ts';
import { MyNetworksPage } from './my-networks.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const fetchMock = vi.fn<typeof fetch>();

type Lists = Partial<Record<'testnet' | 'mainnet' | 'private', () => Response>>;

function answer(lists: Lists = {}, catalogueBody: TCatalogueResponse = catalogue([catalogueEntry()])) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/integrate/v2/networks') return json(catalogueBody);
    for (const type of ['testnet', 'mainnet', 'private'] as const) {
      if (url === `/api/integrate/v2/user-networks?networkType=${type}`) {
        return (lists[type] ?? (() => json({ networks: [] })))();
      }
    }
    if (url === '/api/integrate/private-networks' && init?.method === 'DELETE') {
      const { id } = JSON.parse(String(init.body)) as { id: string };
      return json(
        privateRow({
          id,
          status: 'REMOVAL_REQUESTED',
          private: { ...privateRow().private!, removalRequestedAt: '2026-11-22T10:00:00.000Z' },
        }),
      );
    }
    return json({ status: 404, title: 'Not Found' }, 404);
  });
}

function renderPage(
  route = '/my-networks',
  features: Record<string, { t: number | null; a: number }> = {
    'mynetworks:v2': { t: null, a: 0 },
    privateNetwork: { t: null, a: 0 },
  },
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  queryClient.setQueryData(availableFeaturesQuery(USER.id).queryKey, features);
  return renderWithProviders(<MyNetworksPage />, { route, path: '/my-networks', queryClient });
}

const section = (name: string) => screen.getByRole('region', { name });

describe('MyNetworksPage', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('lists the account’s testnets with every column, the status chip and the Sandbox chip', async () => {
    answer({ testnet: () => json({ networks: [testnetRow()] }) });
    renderPage();
    const testnets = section('Testnets');
    const table = await within(testnets).findByRole('table', { name: 'Testnets' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Network type', 'Network', 'Technology', 'Status', 'Activated', 'Rate limit', 'Actions']);
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('Testnet')).toBeInTheDocument();
    expect(within(row).getByText('Ethereum testnet')).toBeInTheDocument();
    expect(within(row).getByText('Sandbox')).toBeInTheDocument();
    expect(within(row).getByText('Online')).toBeInTheDocument();
    expect(within(row).getByText('20.11.2026')).toBeInTheDocument();
    expect(within(row).getByText('1,250 req/s')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/integrate/v2/user-networks?networkType=testnet', expect.anything());
  });

  it('shows the rate limit the gateway enforces for the account: the plan’s, per network, shared by the applications', async () => {
    answer(
      { testnet: () => json({ networks: [testnetRow({ networkRateLimit: 50 })] }) },
      catalogue([catalogueEntry()], { rateLimit: 50 }),
    );
    renderPage();
    expect(
      await screen.findByText('Gateway rate limit: 50 requests a second per network, shared by your applications.'),
    ).toBeInTheDocument();
    const table = await within(section('Testnets')).findByRole('table', { name: 'Testnets' });
    expect(within(table).getByText('50 req/s')).toBeInTheDocument();
    fireEvent.click(within(table).getByRole('button', { name: 'Actions for Ethereum testnet' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'View details' }));
    const dialog = await screen.findByRole('dialog', { name: /Ethereum testnet/ });
    expect(
      within(dialog).getByText('50 requests a second per network, shared by your applications'),
    ).toBeInTheDocument();
  });

  it('shows empty states with the action that fills them, and the mainnet plan notice', async () => {
    answer();
    renderPage();
    expect(await screen.findByText(/You have no testnets yet/)).toBeInTheDocument();
    expect(within(section('Testnets')).getByRole('link', { name: 'Select new networks' })).toHaveAttribute(
      'href',
      '/my-networks/select-new-networks',
    );
    expect(await within(section('Mainnets')).findByText('Mainnets need an upgraded plan.')).toBeInTheDocument();
    expect(within(section('Mainnets')).getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute(
      'href',
      '/account-plan/upgrade',
    );
    expect(
      await within(section('Private networks')).findByRole('link', { name: 'Connect private network' }),
    ).toHaveAttribute('href', '/my-networks/connect-private-network');
  });

  it('drops the mainnet notice when the plan allows mainnets', async () => {
    answer({}, catalogue([catalogueEntry()], { mainnetsAllowed: true }));
    renderPage();
    expect(await screen.findByText(/You have no mainnets yet/)).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/integrate/v2/networks', expect.anything()));
    expect(screen.queryByText('Mainnets need an upgraded plan.')).not.toBeInTheDocument();
  });

  it('shows the configure-networks message when sent here from the token flow', async () => {
    answer();
    renderPage('/my-networks?configureNetworks=true');
    expect(screen.getByText('Please configure your networks before you can deploy tokens')).toBeInTheDocument();
  });

  it('shows a skeleton while loading and an error with a retry that loads the section again', async () => {
    let failures = 1;
    answer({
      testnet: () =>
        failures-- > 0
          ? json({ status: 500, title: 'Internal Server Error' }, 500)
          : json({ networks: [testnetRow()] }),
      mainnet: () => new Promise<Response>(() => undefined) as unknown as Response,
    });
    renderPage();
    expect(screen.getByLabelText('Loading mainnets')).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByText(/Your testnets could not be loaded/)).toBeInTheDocument();
    fireEvent.click(within(section('Testnets')).getByRole('button', { name: 'Try again' }));
    expect(await within(section('Testnets')).findByText('Ethereum testnet')).toBeInTheDocument();
  });

  it('shows a private network under review with its promise, and hides private networks without the feature', async () => {
    answer({ private: () => json({ networks: [privateRow()] }) });
    const { unmount } = renderPage();
    const privateSection = section('Private networks');
    expect(await within(privateSection).findByText('Under review')).toBeInTheDocument();
    expect(within(privateSection).getByText('Answer within 5 working days')).toBeInTheDocument();
    // Not reviewed, not served by the gateway: no activation date, no rate limit.
    expect(within(privateSection).getAllByText('–', { selector: 'td' })).toHaveLength(2);
    unmount();

    answer();
    renderPage('/my-networks', { 'mynetworks:v2': { t: null, a: 0 } });
    expect(await screen.findByText(/You have no testnets yet/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Private networks' })).not.toBeInTheDocument();
  });

  it('asks in a dialog naming the network before requesting its removal, then shows the removal state', async () => {
    let rows: TUserNetwork[] = [privateRow()];
    answer({ private: () => json({ networks: rows }) });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Acme Ledger' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Request removal' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Acme Ledger?' });
    expect(dialog).toHaveTextContent('Removal takes 2–5 working days');

    rows = [privateRow({ status: 'REMOVAL_REQUESTED' })];
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request removal' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove Acme Ledger?' })).not.toBeInTheDocument());
    const deleteCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(JSON.parse(String(deleteCall![1]!.body))).toEqual({ id: privateRow().id });
    await waitFor(() => expect(section('Private networks')).toHaveTextContent('Removal requested'));
    expect(section('Private networks')).toHaveTextContent('Completes in 2–5 working days');

    // No second removal from the menu once requested.
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Acme Ledger' }));
    expect(screen.queryByRole('menuitem', { name: 'Request removal' })).not.toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'View details' })).toBeInTheDocument();
  });
});
