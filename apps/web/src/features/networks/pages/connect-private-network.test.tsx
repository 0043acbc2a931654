import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { json, privateRow, USER } from '../test-data.ts';
import { ConnectPrivateNetworkPage } from './connect-private-network.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const fetchMock = vi.fn<typeof fetch>();

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  return renderWithProviders(<ConnectPrivateNetworkPage />, {
    route: '/my-networks/connect-private-network',
    queryClient,
    routes: [{ path: '/my-networks', element: <p>My networks page</p> }],
  });
}

const field = (label: RegExp) => screen.getByLabelText(label);
const type = (label: RegExp, value: string) => {
  fireEvent.change(field(label), { target: { value } });
  fireEvent.blur(field(label));
};

function fillValidForm() {
  type(/^Network name/, 'Acme Ledger');
  fireEvent.click(screen.getByRole('radio', { name: 'Sandbox' }));
  type(/^RPC URL/, 'http://127.0.0.1:8545');
  type(/^Chain id/, '777');
  type(/^Token symbol/, 'ACME');
  type(/^Token decimals/, '18');
  type(/^Blocks for a successful transaction/, '12');
  fireEvent.mouseDown(screen.getByRole('combobox', { name: /Node type/ }));
  fireEvent.click(screen.getByRole('option', { name: 'Full' }));
  fireEvent.click(screen.getByRole('checkbox', { name: 'The network uses EIP-1559 fees' }));
}

describe('ConnectPrivateNetworkPage', { timeout: 30_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows the four steps and explains what is needed first', () => {
    renderPage();
    for (const label of ['Intro', 'Network details', 'Summary', 'Confirmation']) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
    expect(screen.getByText(/answers within 5 working days/)).toBeInTheDocument();
  });

  it('checks the fields before asking the server, with one message under each field', async () => {
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter a network name')).toBeInTheDocument();
    expect(screen.getByText('Please enter the RPC URL of a node')).toBeInTheDocument();
    expect(screen.getByText('Please enter the token symbol')).toBeInTheDocument();
    expect(screen.getByText('Please choose production or sandbox')).toBeInTheDocument();
    expect(screen.getByText('Please choose the node type')).toBeInTheDocument();

    type(/^Network name/, 'Acme <ledger>');
    type(/^Blocks for a successful transaction/, '51');
    type(/^Token decimals/, '19');
    type(/^RPC URL/, 'ftp://node');
    type(/^Token symbol/, 'A');
    expect(
      await screen.findByText('The network name may only contain letters, numbers, spaces, hyphens and underscores'),
    ).toBeInTheDocument();
    expect(screen.getByText('The number of blocks must be a whole number from 1 to 50')).toBeInTheDocument();
    expect(screen.getByText('Token decimals must be a whole number from 0 to 18')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid http:// or https:// URL')).toBeInTheDocument();
    expect(screen.getByText('The token symbol must be 2 to 10 letters or digits')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('puts the server’s RPC check failures under their fields', async () => {
    fetchMock.mockImplementation(async () =>
      json(
        {
          status: 400,
          title: 'Bad Request',
          invalidParams: [{ name: 'chainId', reason: 'The node at this URL reports chain id 31338, not 777' }],
        },
        400,
      ),
    );
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Network details' });
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const chainId = field(/^Chain id/);
    await waitFor(() =>
      expect(chainId).toHaveAccessibleDescription('The node at this URL reports chain id 31338, not 777'),
    );
    expect(chainId).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('heading', { name: 'Network details' })).toBeInTheDocument();
  });

  it('repeats every choice in the summary with edit links, then submits for review', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/integrate/private-networks/validate') {
        return json({ valid: true, chainId: 777, latestBlock: 1234, eip1559: true });
      }
      if (url === '/api/integrate/private-networks') return json(privateRow(), 201);
      return json({ status: 404, title: 'Not Found' }, 404);
    });
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Network details' });
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('heading', { name: 'Check your network' })).toBeInTheDocument();
    expect(screen.getByText('The node answered: chain id 777, latest block 1,234.')).toBeInTheDocument();
    const summary = screen.getByText('Network name', { selector: 'dt' }).closest('dl')!;
    expect(within(summary).getAllByRole('button', { name: /^Edit / })).toHaveLength(9);
    expect(summary).toHaveTextContent('Acme Ledger');
    expect(summary).toHaveTextContent('http://127.0.0.1:8545');
    expect(summary).toHaveTextContent('ACME');
    const validateBody = JSON.parse(String(fetchMock.mock.calls[0]![1]!.body)) as Record<string, unknown>;
    expect(validateBody).toEqual({
      name: 'Acme Ledger',
      networkType: 'sandbox',
      chainId: 777,
      eip1559: true,
      numberOfBlocks: 12,
      url: 'http://127.0.0.1:8545',
      tokenSymbol: 'ACME',
      tokenDecimals: 18,
      nodeType: 'full',
    });

    // An edit link goes back to the field, with the value kept.
    fireEvent.click(screen.getByRole('button', { name: 'Edit Token symbol' }));
    await waitFor(() => expect(field(/^Token symbol/)).toHaveFocus());
    expect(field(/^Token symbol/)).toHaveValue('ACME');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    fireEvent.click(await screen.findByRole('button', { name: 'Submit for review' }));
    expect(await screen.findByRole('heading', { name: 'Acme Ledger is under review' })).toBeInTheDocument();
    expect(screen.getByText(/We will answer within 5 working days/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'Go to My networks' }));
    expect(await screen.findByText('My networks page')).toBeInTheDocument();
  });

  it('asks before leaving a half-filled form', async () => {
    const { router } = renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Network details' });
    type(/^Network name/, 'Half done');
    void router.navigate('/my-networks');
    const dialog = await screen.findByRole('dialog', { name: 'Leave this page?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(field(/^Network name/)).toHaveValue('Half done');

    void router.navigate('/my-networks');
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Leave this page?' })).getByRole('button', { name: 'Leave' }),
    );
    expect(await screen.findByText('My networks page')).toBeInTheDocument();
  });
});
