import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TCatalogueResponse } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { catalogue, catalogueEntry, json, USER } from '../test-data.ts';
import { SelectNewNetworksPage } from './select-new-networks.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const fetchMock = vi.fn<typeof fetch>();

const ETH_TEST = catalogueEntry();
const POLY_TEST = catalogueEntry({
  id: '30000000-0000-4000-8000-000000000002',
  code: 'polygon-testnet',
  network: 'Polygon testnet',
  technology: 'Polygon',
  chainId: 31338,
});
const ETH_MAIN = catalogueEntry({
  id: '30000000-0000-4000-8000-000000000003',
  code: 'ethereum-mainnet',
  network: 'Ethereum mainnet',
  networkType: 'mainnet',
  chainId: 1,
  isLocal: false,
  status: 'NOT_CONFIGURED',
  activatable: false,
  reason: 'NO_RPC_URL',
});

function answer(body: TCatalogueResponse, activate: () => Response = () => json({ activated: [], networks: [] })) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/integrate/v2/networks' && init?.method === 'POST') return activate();
    if (url === '/api/integrate/v2/networks') return json(body);
    return json({ status: 404, title: 'Not Found' }, 404);
  });
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  return renderWithProviders(<SelectNewNetworksPage />, { route: '/my-networks/select-new-networks', queryClient });
}

const next = () => fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

describe('SelectNewNetworksPage', { timeout: 30_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('walks the five steps and activates the chosen testnet', async () => {
    answer(catalogue([ETH_TEST, POLY_TEST, ETH_MAIN]), () => json({ activated: [ETH_TEST.id], networks: [] }));
    renderPage();
    expect(await screen.findByText('Your plan allows networks of every blockchain.')).toBeInTheDocument();
    expect(
      screen.getByText(
        "Your plan's gateway rate limit: 1,250 requests a second per network, shared by your applications.",
      ),
    ).toBeInTheDocument();
    for (const label of ['Important info', 'Select testnets', 'Select mainnets', 'Summary', 'Confirmation']) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
    next();
    fireEvent.click(await screen.findByRole('checkbox', { name: /Ethereum testnet/ }));
    expect(screen.getByText(/Chain id 31337 · 1,250 req\/s/)).toBeInTheDocument();
    next();
    // A mainnet without an RPC URL stays listed, disabled, with the reason, and the plan notice.
    expect(await screen.findByRole('checkbox', { name: /Ethereum mainnet/ })).toBeDisabled();
    expect(screen.getByText(/No RPC URL is configured for this network yet/)).toBeInTheDocument();
    expect(screen.getByText('Mainnets need an upgraded plan.')).toBeInTheDocument();
    next();
    expect(await screen.findByRole('heading', { name: 'Your selection' })).toBeInTheDocument();
    expect(screen.getByText('Ethereum testnet (Ethereum)')).toBeInTheDocument();
    expect(screen.getByText('Nothing selected')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Activate networks' }));
    expect(await screen.findByRole('heading', { name: 'Your networks are active' })).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post![1]!.body))).toEqual({ networkIds: [ETH_TEST.id] });
  });

  it('says to select a network when the summary is empty, and edits go back to the step', async () => {
    answer(catalogue([ETH_TEST]));
    renderPage();
    await screen.findByText('Your plan allows networks of every blockchain.');
    next();
    await screen.findByRole('checkbox', { name: /Ethereum testnet/ });
    next();
    next();
    fireEvent.click(await screen.findByRole('button', { name: 'Activate networks' }));
    expect(await screen.findByText('Please select at least one of the available networks!')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Testnets' }));
    expect(await screen.findByRole('checkbox', { name: /Ethereum testnet/ })).toBeInTheDocument();
  });

  it('applies the blockchain allowance to the picks: a second blockchain cannot be added', async () => {
    answer(catalogue([ETH_TEST, POLY_TEST], { blockchainAllowance: 1, blockchainsLeft: 1 }));
    renderPage();
    expect(await screen.findByText('Your plan allows networks of 1 blockchain; 1 left.')).toBeInTheDocument();
    next();
    const polygon = await screen.findByRole('checkbox', { name: /Polygon testnet/ });
    expect(polygon).toBeEnabled();
    fireEvent.click(screen.getByRole('checkbox', { name: /Ethereum testnet/ }));
    await waitFor(() => expect(polygon).toBeDisabled());
    expect(screen.getByText(/Your plan's blockchain allowance is used up/)).toBeInTheDocument();
    // Unpicking frees it again.
    fireEvent.click(screen.getByRole('checkbox', { name: /Ethereum testnet/ }));
    await waitFor(() => expect(polygon).toBeEnabled());
  });

  it('shows an active network checked and disabled, and the server’s refusal on activation', async () => {
    answer(catalogue([ETH_TEST, { ...POLY_TEST, activated: true, activatable: false }]), () =>
      json(
        {
          status: 400,
          title: 'Bad Request',
          invalidParams: [{ name: 'networkIds.0', reason: 'Ethereum testnet: This network does not exist' }],
        },
        400,
      ),
    );
    renderPage();
    await screen.findByText('Your plan allows networks of every blockchain.');
    next();
    const polygon = await screen.findByRole('checkbox', { name: /Polygon testnet/ });
    expect(polygon).toBeChecked();
    expect(polygon).toBeDisabled();
    expect(screen.getByText(/Already active/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: /Ethereum testnet/ }));
    next();
    next();
    fireEvent.click(await screen.findByRole('button', { name: 'Activate networks' }));
    expect(await screen.findByText('Ethereum testnet: This network does not exist')).toBeInTheDocument();
  });
});
