import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { AMOY, APPLICATION, createFetchMock, json, SEPOLIA } from '../test/fixtures.ts';
import { ApplicationDetailsDialog } from './application-details-dialog.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

// Whole MUI dialogs render slowly in jsdom on a shared runner: wait longer than the default second.
configure({ asyncUtilTimeout: 8_000 });

const mock = createFetchMock();
const APP = { ...APPLICATION, networks: [SEPOLIA, AMOY] };
const ORIGIN = window.location.origin;
const writeText = vi.fn(async (_text: string) => undefined);

function renderDialog() {
  return renderWithProviders(<ApplicationDetailsDialog application={APP} open onClose={() => undefined} />);
}

describe('ApplicationDetailsDialog: connecting to the gateway', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    mock.route({
      [`GET /api/application-manager/application/${APP.id}`]: () => json(APP),
      [`GET /api/application-manager/application/${APP.id}/usage`]: () =>
        json({ from: '2026-11-10', to: '2026-11-23', total: 0, days: [], networks: [] }),
    });
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    writeText.mockClear();
    vi.unstubAllGlobals();
  });

  it('shows the real gateway endpoint of each associated network, never a {networkId} placeholder', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: /Payments API/ });
    const endpoints = within(dialog).getByRole('region', { name: 'Connect to the gateway' });
    expect(within(endpoints).getByText(`${ORIGIN}/api/gateway/ethereum-testnet`)).toBeInTheDocument();
    expect(within(endpoints).getByText(`${ORIGIN}/api/gateway/polygon-testnet`)).toBeInTheDocument();
    expect(dialog).not.toHaveTextContent('{networkId}');

    fireEvent.click(within(endpoints).getByRole('button', { name: 'Copy the gateway URL of Polygon Testnet' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${ORIGIN}/api/gateway/polygon-testnet`));
  });

  it('offers a curl example with the real URLs and client id, the secret as a variable, and copies it', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: /Payments API/ });
    const curl = within(dialog).getByRole('tabpanel', { name: 'curl' });
    const text = curl.textContent ?? '';
    expect(text).toContain(`${ORIGIN}/oauth2/token`);
    expect(text).toContain(`client_id=${APP.clientId}`);
    expect(text).toContain('grant_type=client_credentials');
    expect(text).toContain("CLIENT_SECRET='<your client secret>'");
    expect(text).toContain(`${ORIGIN}/api/gateway/ethereum-testnet`);
    expect(text).toContain('eth_chainId');

    fireEvent.click(within(curl).getByRole('button', { name: 'Copy the curl example' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(writeText.mock.calls[0]![0]).toBe(text.trim());
    expect(await within(curl).findByText('Copied')).toBeInTheDocument();
  });

  it('switches the examples to another network and to viem', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: /Payments API/ });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Network of the examples' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Polygon Testnet' }));
    expect(within(dialog).getByRole('tabpanel', { name: 'curl' })).toHaveTextContent(
      `${ORIGIN}/api/gateway/polygon-testnet`,
    );

    fireEvent.click(within(dialog).getByRole('tab', { name: 'viem' }));
    const viem = within(dialog).getByRole('tabpanel', { name: 'viem' });
    expect(viem).toHaveTextContent(`'${ORIGIN}/oauth2/token'`);
    expect(viem).toHaveTextContent(`client_id: '${APP.clientId}'`);
    expect(viem).toHaveTextContent('process.env.CLIENT_SECRET');
    expect(viem).toHaveTextContent(`http('${ORIGIN}/api/gateway/polygon-testnet'`);
    fireEvent.click(within(viem).getByRole('button', { name: 'Copy the viem example' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(expect.stringContaining('createPublicClient')));
  });
});
