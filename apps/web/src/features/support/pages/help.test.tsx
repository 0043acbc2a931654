import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { HelpPage } from './help.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const fetchMock = vi.fn<typeof fetch>();

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('HelpPage', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('links the documentation in a new tab and the FAQ through the router', () => {
    fetchMock.mockImplementation(() => new Promise<Response>(() => undefined));
    renderWithProviders(<HelpPage />, { route: '/support/help' });
    const docs = screen.getByRole('link', { name: /Open the documentation/ });
    expect(docs).toHaveAttribute('href', 'https://docs.example.com/');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Read the FAQ' })).toHaveAttribute('href', '/support/faq');
  });

  it('shows whether each service of the deployment answers its status check', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/connect/status'
        ? json({ service: 'connect', status: 'up', version: '0.1.0' })
        : json({ status: 404, title: 'Not Found' }, 404),
    );
    renderWithProviders(<HelpPage />, { route: '/support/help', config: { services: ['connect', 'tokenise'] } });
    const status = screen.getByRole('region', { name: /Service status/ });
    expect(await within(status).findByText('Some services unavailable')).toBeInTheDocument();
    const rows = within(status).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Account and contentOperational');
    expect(rows[1]).toHaveTextContent('TokensUnavailable');
    // The status checks are public: no session is needed to read them.
    const [, init] = fetchMock.mock.calls[0]!;
    expect(new Headers(init?.headers).has('authorization')).toBe(false);
  });

  it('reports only what the health checks measure: the built services and the database, no unbuilt area', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/health') {
        return json({ status: 'ok', version: '0.1.0', database: { status: 'up', kind: 'pglite' }, services: [] });
      }
      const service = /^\/api\/([a-z-]+)\/status$/.exec(url)?.[1];
      return service
        ? json({ service, status: 'up', version: '0.1.0' })
        : json({ status: 404, title: 'Not Found' }, 404);
    });
    renderWithProviders(<HelpPage />, {
      route: '/support/help',
      config: {
        services: [
          'connect',
          'integrate',
          'account-plan',
          'application-manager',
          'tokenise',
          'bridge',
          'payment',
          'campaign',
        ],
      },
    });
    const status = screen.getByRole('region', { name: /Service status/ });
    expect(await within(status).findByText('All services operational')).toBeInTheDocument();
    const rows = within(status)
      .getAllByRole('listitem')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'Account and contentOperational',
      'NetworksOperational',
      'Plan status and creditsOperational',
      'Applications and gatewayOperational',
      'TokensOperational',
      'Payments and invoicesOperational',
      'RewardsOperational',
      'DatabaseOperational',
    ]);
    // Areas that are not built are not reported as working; the page says they are still to come.
    expect(status).not.toHaveTextContent(/Bridges/);
    expect(within(status).getByText(/Not available yet: bridges\./)).toBeInTheDocument();
    // Their status checks are not even asked.
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked).not.toContain('/api/bridge/status');
    expect(asked).toContain('/api/health');
  });

  it('says the database is unavailable when the health check says so', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/health'
        ? json(
            { status: 'degraded', version: '0.1.0', database: { status: 'down', kind: 'pglite' }, services: [] },
            503,
          )
        : json({ service: 'connect', status: 'up', version: '0.1.0' }),
    );
    renderWithProviders(<HelpPage />, { route: '/support/help', config: { services: ['connect'] } });
    const status = screen.getByRole('region', { name: /Service status/ });
    expect(await within(status).findByText('Some services unavailable')).toBeInTheDocument();
    expect(
      within(status)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['Account and contentOperational', 'DatabaseUnavailable']);
  });

  it('opens the support enquiry form', () => {
    fetchMock.mockImplementation(() => new Promise<Response>(() => undefined));
    renderWithProviders(<HelpPage />, { route: '/support/help' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Contact support' })[0]!);
    expect(screen.getByRole('dialog', { name: 'Contact support' })).toBeInTheDocument();
  });
});
