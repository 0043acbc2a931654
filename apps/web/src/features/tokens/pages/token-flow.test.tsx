import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { CATALOGUE, json, token, tokensPage, USER } from '../test-data.ts';
import { TokenFlowPage } from './token-flow.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const fetchMock = vi.fn<typeof fetch>();
/** The bodies of every POST /tokens, in order. */
const requests: Record<string, unknown>[] = [];

/** The catalogue's products.json, asked with its basic credentials (null: the catalogue fails). */
let catalogue: unknown = CATALOGUE;

function answer(page = tokensPage([token()])) {
  fetchMock.mockImplementation(async (input, init) => {
    if (String(input) === '/api/tokenise/tokens' && init?.method === 'POST') {
      requests.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json(page);
    }
    const headers = new Headers(init?.headers);
    if (String(input).startsWith('/jsons/products.json?') && headers.get('authorization')?.startsWith('Basic ')) {
      return catalogue ? json(catalogue) : json({ status: 500, title: 'Internal Server Error' }, 500);
    }
    return json({ status: 404, title: 'Not Found' }, 404);
  });
}

function renderPage(route = '/quant-flows/token-flow') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  return renderWithProviders(<TokenFlowPage />, { route, path: '/quant-flows/token-flow', queryClient });
}

async function optionsOf(label: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const listbox = await screen.findByRole('listbox');
  const names = within(listbox)
    .getAllByRole('option')
    .map((o) => o.textContent);
  return { listbox, names };
}

// Generous timeouts: MUI's first renders in jsdom take seconds when the two cores are busy.
describe('TokenFlowPage', { timeout: 45_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    requests.length = 0;
    catalogue = CATALOGUE;
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows the counter, the use-case tiles and the table with the spec’s columns', async () => {
    const onMainnet = token({
      id: '40000000-0000-4000-8000-000000000002',
      tokenName: 'Mainnet Points',
      network: 'Ethereum Mainnet',
      networkType: 'mainnet',
      isLocal: false,
    });
    answer(tokensPage([token(), onMainnet], { quota: { deployed: 3, allowed: 10 } }));
    renderPage();
    const table = await screen.findByRole('table', { name: 'Your smart tokens' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Token name', 'Unit', 'Blockchain', 'Token type', 'Tier', 'Status', 'Actions']);
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByRole('link', { name: 'Loyalty Points' })).toHaveAttribute(
      'href',
      '/quant-flows/token-flow/qrc20/base?id=40000000-0000-4000-8000-000000000001',
    );
    expect(within(row).getByText('Active')).toBeInTheDocument();
    // A token on a local chain says so; one on a public network does not.
    expect(within(row).getByText('Sandbox')).toBeInTheDocument();
    expect(within(within(table).getAllByRole('row')[2]!).queryByText('Sandbox')).not.toBeInTheDocument();
    expect(screen.getByTestId('tokens-counter')).toHaveTextContent('3 / 10 deployed');
    // The use-case tiles are the catalogue's token use cases, with its text, not its product areas.
    const tiles = within(screen.getByRole('region', { name: 'Use cases' }));
    expect(await tiles.findByRole('link', { name: /Payments/ })).toHaveAttribute(
      'href',
      '/quant-flows/token-flow/payments',
    );
    expect(tiles.getByRole('link', { name: /Payments/ })).toHaveTextContent('Catalogue summary of payments.');
    expect(tiles.getByRole('link', { name: /Sustainability/ })).toHaveAttribute(
      'href',
      '/quant-flows/token-flow/sustainability',
    );
    expect(tiles.getAllByRole('link')).toHaveLength(2);
  });

  it('says when the use cases could not be loaded, and loads them again on retry, the tokens shown all along', async () => {
    catalogue = null;
    answer();
    renderPage();
    await screen.findByRole('table', { name: 'Your smart tokens' });
    const tiles = within(screen.getByRole('region', { name: 'Use cases' }));
    expect(await tiles.findByText('The use cases could not be loaded.')).toBeInTheDocument();
    catalogue = CATALOGUE;
    fireEvent.click(tiles.getByRole('button', { name: 'Try again' }));
    expect(await tiles.findByRole('link', { name: /Sustainability/ })).toBeInTheDocument();
  });

  it('offers the spec’s filter options, each starting with its "All" option', async () => {
    answer();
    renderPage();
    await screen.findByRole('table', { name: 'Your smart tokens' });
    let options = await optionsOf('Blockchain');
    expect(options.names).toEqual(['All Blockchains', 'Ethereum', 'Polygon']);
    fireEvent.keyDown(options.listbox, { key: 'Escape' });
    options = await optionsOf('Token type');
    expect(options.names).toEqual(['All Token types', 'Fungible (QRC20)', 'Non-fungible (QRC721)']);
    fireEvent.keyDown(options.listbox, { key: 'Escape' });
    options = await optionsOf('Tier');
    expect(options.names).toEqual(['All Tiers', 'Base', 'Flex', 'Vari']);
    fireEvent.keyDown(options.listbox, { key: 'Escape' });
    options = await optionsOf('Status');
    expect(options.names).toEqual(['All Statuses', 'Active', 'Not Active', 'Deprecated']);
  });

  it('sends the search and the chosen filters to POST /tokens and starts from the first page', async () => {
    answer();
    renderPage();
    await screen.findByRole('table', { name: 'Your smart tokens' });
    expect(requests[0]).toEqual({ page: 0, size: 10 });

    const { listbox } = await optionsOf('Status');
    fireEvent.click(within(listbox).getByRole('option', { name: 'Deprecated' }));
    await waitFor(() => expect(requests.at(-1)).toMatchObject({ status: 'DEPRECATED', page: 0 }));

    const types = await optionsOf('Token type');
    fireEvent.click(within(types.listbox).getByRole('option', { name: 'Non-fungible (QRC721)' }));
    await waitFor(() => expect(requests.at(-1)).toMatchObject({ status: 'DEPRECATED', tokenType: 'QRC721' }));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name or unit' }), { target: { value: 'LOY' } });
    await waitFor(() => expect(requests.at(-1)).toMatchObject({ search: 'LOY', tokenType: 'QRC721' }));
  });

  it('offers the page sizes 5, 10, 50 and 100', async () => {
    answer(tokensPage([token()], { totalElements: 120, totalPages: 12 }));
    renderPage();
    await screen.findByRole('table', { name: 'Your smart tokens' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Tokens per page/ }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['5', '10', '50', '100']);
    fireEvent.click(within(listbox).getByRole('option', { name: '50' }));
    await waitFor(() => expect(requests.at(-1)).toMatchObject({ size: 50, page: 0 }));
  });

  it('shows the empty state with the create action, and a filtered empty state that clears the filters', async () => {
    answer(tokensPage([], { quota: { deployed: 0, allowed: 10 } }));
    renderPage();
    expect(await screen.findByText('You have no smart tokens yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Create smart token' })[0]).toHaveAttribute(
      'href',
      '/quant-flows/token-flow/deploy/create-new-smart-contract',
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name or unit' }), { target: { value: 'zzz' } });
    expect(await screen.findByText('No tokens match your search and filters.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    expect(await screen.findByText('You have no smart tokens yet')).toBeInTheDocument();
  });

  it('says a wallet deployment deleted unsent keeps its credits, and a failed one is just removed', async () => {
    const unsent = token({
      id: '40000000-0000-4000-8000-000000000031',
      tokenName: 'Wallet Coin',
      tokenUnit: 'WLT',
      deploymentType: 'META_MASK',
      status: 'PENDING',
      transactionId: null,
      creditsCharged: 10,
    });
    const failed = token({
      id: '40000000-0000-4000-8000-000000000032',
      tokenName: 'Failed Coin',
      tokenUnit: 'FLD',
      status: 'FAILED',
      transactionId: null,
      creditsCharged: 0,
    });
    answer(tokensPage([unsent, failed]));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Wallet Coin' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Its 10 credits are not refunded');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Failed Coin' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const other = await screen.findByRole('dialog');
    expect(other.textContent).toContain('nothing on chain changes.');
    expect(other.textContent).not.toContain('refunded');
  });

  it('explains a redirect by the quota guard and disables creating', async () => {
    answer(tokensPage([token()], { quota: { deployed: 1, allowed: 1 } }));
    renderPage('/quant-flows/token-flow?notice=quota');
    expect(
      await screen.findByText('You have deployed all the tokens your plan allows. Upgrade your plan to deploy more.'),
    ).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Your smart tokens' });
    expect(screen.getByRole('link', { name: 'Create smart token' })).toHaveAttribute('aria-disabled', 'true');
  });
});
