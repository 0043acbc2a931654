import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TTokenLocation, TUser } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { json, LOCATION, tier, token, tokensPage, USER } from '../test-data.ts';
import { CreateSmartContractPage } from './create-smart-contract.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const fetchMock = vi.fn<typeof fetch>();
const verifyBodies: Record<string, unknown>[] = [];

function answer(locations: TTokenLocation[] = [LOCATION], verify = { valid: true, invalidParams: [] as unknown[] }) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/tokenise/tokens') return json(tokensPage([]));
    if (url === '/api/tokenise/v2/orchestration/locations') return json({ locations });
    if (url.startsWith('/api/tokenise/v2/orchestration/tiers')) {
      return json({
        tiers: [
          tier(),
          tier({
            id: '30000000-0000-4000-8000-000000000002',
            type: 'flex',
            name: 'Flex',
            refererTier: 'Base',
            shortListFunctions: ['mint', 'burn'],
          }),
        ],
      });
    }
    if (url === '/api/tokenise/v2/token' && init?.method === 'POST') return json({ token: token(), deployment: null });
    if (url === '/api/tokenise/token/verify') {
      verifyBodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return json({ ...verify, creditAmount: 10, credits: 100 });
    }
    return json({ status: 404, title: 'Not Found' }, 404);
  });
}

function renderPage(user: TUser = USER) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  return renderWithProviders(<CreateSmartContractPage />, {
    route: '/quant-flows/token-flow/deploy/create-new-smart-contract',
    queryClient,
    routes: [{ path: '/quant-flows/kyc', element: <p>Identity verification page</p> }],
  });
}

const textbox = (name: RegExp) => screen.getByRole('textbox', { name });

async function toDetails() {
  fireEvent.click(await screen.findByRole('button', { name: 'Continue' }, { timeout: 8000 }));
  fireEvent.click(await screen.findByRole('radio', { name: 'Base' }, { timeout: 8000 }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Token details' });
}

describe('CreateSmartContractPage', { timeout: 60_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    verifyBodies.length = 0;
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('asks for a tier before going on, and shows what each tier adds and costs', async () => {
    answer();
    renderPage();
    expect(
      await screen.findByText(/Your plan allows 10 more token deployments\. You have 500 credits\./),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const flex = await screen.findByRole('radio', { name: 'Flex' }, { timeout: 8000 });
    expect(flex).toHaveTextContent('Adds to Base:');
    expect(flex).toHaveTextContent('mint');
    expect(flex).toHaveTextContent('10 credits with the provider');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please choose a smart contract tier');
    fireEvent.click(flex);
    expect(flex).toHaveAttribute('aria-checked', 'true');
  });

  it('shows the spec §5 rules under a field as soon as it is left', async () => {
    answer();
    renderPage();
    await toDetails();
    const name = textbox(/^Token name/);
    fireEvent.change(name, { target: { value: 'Pay GBP Coin' } });
    fireEvent.blur(name);
    expect(await screen.findByText('The token name must not contain the currency code GBP')).toBeInTheDocument();
    const decimals = textbox(/^Decimals/);
    fireEvent.change(decimals, { target: { value: '19' } });
    fireEvent.blur(decimals);
    expect(await screen.findByText('Decimals must be a whole number from 0 to 18')).toBeInTheDocument();
    const supply = textbox(/^Initial supply/);
    fireEvent.change(supply, { target: { value: '1000000001' } });
    fireEvent.blur(supply);
    expect(
      await screen.findByText('The initial supply must be a whole number from 0 to 1,000,000,000'),
    ).toBeInTheDocument();
    const holder = textbox(/^Supply holder address/);
    fireEvent.change(holder, { target: { value: '0x12345' } });
    fireEvent.blur(holder);
    expect(await screen.findByText(/Please enter a valid address: 0x followed by 40 hexadecimal/)).toBeInTheDocument();
    expect(holder).toHaveAttribute('aria-invalid', 'true');
    // Nothing is sent while the form has errors.
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByText('Please enter the token unit (symbol)')).toBeInTheDocument());
    expect(verifyBodies).toHaveLength(0);
  });

  it('puts the server’s field errors under the fields, and goes on to the summary when the server agrees', async () => {
    answer([LOCATION], {
      valid: false,
      invalidParams: [{ name: 'unit', reason: 'The unit is taken on this network' }],
    });
    renderPage();
    await toDetails();
    fireEvent.change(textbox(/^Token name/), { target: { value: 'Loyalty Points' } });
    fireEvent.change(textbox(/^Token unit/), { target: { value: 'LOYAL' } });
    fireEvent.change(textbox(/^Decimals/), { target: { value: '18' } });
    fireEvent.change(textbox(/^Initial supply/), { target: { value: '1000' } });
    fireEvent.change(textbox(/^Supply holder address/), {
      target: { value: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The unit is taken on this network')).toBeInTheDocument();
    expect(verifyBodies[0]).toMatchObject({
      networkId: LOCATION.networkId,
      tokenType: 'QRC20',
      deploymentType: 'QUANT',
      name: 'Loyalty Points',
      decimal: 18,
      initialSupply: 1000,
    });

    answer();
    fireEvent.change(textbox(/^Token unit/), { target: { value: 'LOYAL2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Check your token' })).toBeInTheDocument();
    expect(screen.getByText('10 credits (you have 500)')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Token name' }));
    expect(await screen.findByRole('heading', { name: 'Token details' })).toBeInTheDocument();
    expect(textbox(/^Token name/)).toHaveValue('Loyalty Points');
  });

  it('sends a user without a verified identity who picks a mainnet to identity verification', async () => {
    const mainnet = {
      ...LOCATION,
      networkId: '10000000-0000-4000-8000-000000000009',
      network: 'Ethereum Mainnet',
      networkType: 'mainnet' as const,
      isLocal: false,
    };
    answer([mainnet]);
    renderPage({ ...USER, onfidoApplicantStatus: 'UNVERIFIED' } as TUser);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }, { timeout: 8000 }));
    expect(await screen.findByText(/Deploying on a mainnet needs a verified identity/)).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('radio', { name: 'Base' }, { timeout: 8000 }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Identity verification page')).toBeInTheDocument();
  });

  it('scrolls back to the top with the success panel, so the stepper shows, and focuses its heading', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    answer();
    renderPage();
    await toDetails();
    fireEvent.change(textbox(/^Token name/), { target: { value: 'Loyalty Points' } });
    fireEvent.change(textbox(/^Token unit/), { target: { value: 'LOYAL' } });
    fireEvent.change(textbox(/^Decimals/), { target: { value: '18' } });
    fireEvent.change(textbox(/^Initial supply/), { target: { value: '1000' } });
    fireEvent.change(textbox(/^Supply holder address/), {
      target: { value: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue to deployment' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Deploy now' }));
    scrollTo.mockClear();

    const success = await screen.findByRole('heading', { name: 'Loyalty Points is live' });
    await waitFor(() => expect(success).toHaveFocus());
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
  });
});
