import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TTokenDetails } from '@connect/shared';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { json, token, USER } from '../test-data.ts';
import { CoinDetailsPage } from './coin-details.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const ID = token().id;
const fetchMock = vi.fn<typeof fetch>();

const details = (overrides: Partial<TTokenDetails> = {}): TTokenDetails => ({
  ...token({ tierType: 'base', maxSupply: '5000' }),
  functions: ['transfer', 'mint', 'burn'],
  explorer: { contractUrl: null, transactionUrl: null },
  onChain: {
    totalSupply: '1500000000000000000000',
    holder: token().supplyHolderAddress,
    holderBalance: '1000000000000000000000',
    blockNumber: '42',
    error: null,
  },
  deployment: null,
  ...overrides,
});

function renderPage(id = ID) {
  session.setMarker(USER.id, USER.role);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderWithProviders(<CoinDetailsPage />, {
    route: `/quant-flows/token-flow/qrc20/flex${id ? `?id=${id}` : ''}`,
    path: '/quant-flows/token-flow/qrc20/flex',
    queryClient,
  });
}

describe('CoinDetailsPage', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows the contract, the supply read from the chain, the parameters and the functions', async () => {
    fetchMock.mockImplementation(async () => json(details()));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Loyalty Points (LOYAL)' }, { timeout: 8000 })).toBeVisible();
    const contract = screen.getByRole('region', { name: 'Contract' });
    expect(within(contract).getByText(/chain id 31337/)).toBeInTheDocument();
    expect(screen.getByTestId('total-supply')).toHaveTextContent('1,500 LOYAL');
    expect(screen.getByTestId('holder-balance')).toHaveTextContent('1,000 LOYAL');
    expect(within(screen.getByRole('region', { name: 'On chain' })).getByText('5,000 LOYAL')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Parameters' })).getByText('1,000 LOYAL')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Smart contract functions' })).getByText('mint'),
    ).toBeInTheDocument();
  });

  it('says an unknown token was not found, by the problem’s code, with a way back', async () => {
    fetchMock.mockImplementation(async () =>
      json({ status: 404, title: 'Not Found', code: 'TOKEN_NOT_FOUND', detail: 'The token was not found.' }, 404),
    );
    renderPage();
    expect(
      await screen.findByText('This token does not exist or is not yours.', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Token Flow' })).toHaveAttribute('href', '/quant-flows/token-flow');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('shows any other failure with a retry that loads the token again', async () => {
    let isDown = true;
    fetchMock.mockImplementation(async () =>
      isDown
        ? json({ status: 503, title: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE', detail: 'Away.' }, 503)
        : json(details()),
    );
    renderPage();
    expect(await screen.findByRole('alert', {}, { timeout: 8000 })).toHaveTextContent(
      'The token could not be loaded. Away.',
    );
    isDown = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Loyalty Points (LOYAL)' }, { timeout: 8000 })).toBeVisible();
  });
});
