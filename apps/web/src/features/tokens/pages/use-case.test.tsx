import { screen, fireEvent, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { basicAuthorization } from '../../../lib/product-catalogue.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { json, PAYMENTS_PAGE } from '../test-data.ts';
import { PaymentsPage, SustainabilityPage } from './use-case.tsx';

const fetchMock = vi.fn<typeof fetch>();

/** What the page asked for: the URL and its Authorization header. */
const asked: { url: string; authorization: string | null }[] = [];

function answer(respond: (url: string) => Response | Promise<Response>) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    asked.push({ url, authorization: new Headers(init?.headers).get('authorization') });
    return respond(url);
  });
}

// Generous timeouts: MUI's first renders in jsdom take seconds when the two cores are busy.
describe('the token use-case pages (spec §2.3), from the product catalogue', { timeout: 45_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    asked.length = 0;
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('shows the catalogue page of its use case, asked with the configured basic credentials and the version', async () => {
    answer((url) => (url.startsWith('/jsons/payments.json') ? json(PAYMENTS_PAGE) : json({ status: 404 }, 404)));
    renderWithProviders(<PaymentsPage />, {
      route: '/quant-flows/token-flow/payments',
      config: { version: '9.8.7', productCatalogue: { username: 'acme', password: 'ünïcode-pass' } },
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Catalogue heading of payments' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Payments' })).toBeInTheDocument();
    expect(screen.getByText('Catalogue description of payments.')).toBeInTheDocument();
    expect(screen.getByText('First catalogue point.')).toBeInTheDocument();
    expect(screen.getByText('Second catalogue point.')).toBeInTheDocument();
    expect(screen.getByText('Catalogue text on how to start.')).toBeInTheDocument();
    expect(screen.getByText('Fungible (QRC20)')).toBeInTheDocument();
    expect(asked).toEqual([
      { url: '/jsons/payments.json?v=9.8.7', authorization: basicAuthorization('acme', 'ünïcode-pass') },
    ]);
    // RFC 7617: user-id ":" password, UTF-8, base64.
    expect(basicAuthorization('acme', 'ünïcode-pass')).toBe(
      `Basic ${Buffer.from('acme:ünïcode-pass', 'utf8').toString('base64')}`,
    );
    expect(screen.getByRole('link', { name: 'Back to Token Flow' })).toHaveAttribute('href', '/quant-flows/token-flow');
  });

  it('shows a placeholder while loading, then says when the page could not be loaded and loads it again on retry', async () => {
    let release: (response: Response) => void = () => undefined;
    answer(() => new Promise<Response>((resolve) => (release = resolve)));
    renderWithProviders(<SustainabilityPage />, { route: '/quant-flows/token-flow/sustainability' });
    expect(screen.getByRole('heading', { level: 1, name: 'Sustainability' })).toBeInTheDocument();
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]!.url).toMatch(/^\/jsons\/sustainability\.json\?v=/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();

    release(json({ status: 401, code: 'CATALOGUE_CREDENTIALS_REQUIRED', title: 'Unauthorized' }, 401));
    expect(await screen.findByText('This use case could not be loaded.')).toBeInTheDocument();
    // The page around it still works.
    expect(screen.getByRole('link', { name: 'Back to Token Flow' })).toBeInTheDocument();

    answer(() => json({ ...PAYMENTS_PAGE, name: 'sustainability', heading: 'Loaded on retry', tokenType: 'QRC721' }));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Loaded on retry' })).toBeInTheDocument();
    expect(screen.getByText('Non-fungible (QRC721)')).toBeInTheDocument();
  });
});
