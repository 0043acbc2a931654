import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUsageReport } from '@connect/shared';
import { ANNUAL, CATALOGUE } from '../../../test/plans.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { BALANCE, CAPS, createFetchMock, INDEXER, json, NOW, PAYMENTS, REPORT } from '../test/fixtures.ts';
import { UsagePage } from './usage.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const BASE = '/api/application-manager/usage';
const mock = createFetchMock();

function routes(report: TUsageReport | (() => Response) = REPORT) {
  mock.route({
    [`GET ${BASE}/report`]: typeof report === 'function' ? report : () => json(report),
    [`GET ${BASE}/balance-history`]: () => json(BALANCE),
    [`GET ${BASE}/caps`]: () => json(CAPS),
    [`PUT ${BASE}/caps/${INDEXER.id}`]: (body) => json({ ...CAPS.applications[1]!, ...(body as object), state: 'OK' }),
    [`PUT ${BASE}/caps/${PAYMENTS.id}`]: (body) => json({ ...CAPS.applications[0]!, ...(body as object), state: 'OK' }),
    [`GET ${BASE}/export.csv`]: () =>
      new Response('start,application\n', {
        headers: {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="usage-2026-11-17-2026-11-23.csv"',
        },
      }),
    'GET /api/account-plan/subscription': () => json(ANNUAL),
    'GET /api/account-plan/v2/fetch-plans': () => json(CATALOGUE),
  });
}

const urlsOf = (path: string) =>
  mock.fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith(`${BASE}${path}`));

function renderPage(route = '/usage') {
  return renderWithProviders(<UsagePage />, { route, path: '/usage' });
}

describe('UsagePage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    // Only the clock: the timers of waitFor and MUI stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW));
    vi.stubGlobal('fetch', mock.fetchMock);
    routes();
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the month, the forecast and the balance with the way to buy credits', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Usage' })).toBeInTheDocument();
    const used = await screen.findByRole('region', { name: 'Credits used this month' });
    expect(await within(used).findByText('120.5 credits')).toBeInTheDocument();
    expect(within(used).getByText(/November 2026 so far/)).toBeInTheDocument();
    const predicted = screen.getByRole('region', { name: 'Predicted by month end' });
    expect(within(predicted).getByText('160.67 credits')).toBeInTheDocument();
    expect(within(predicted).getByText('Your credits last the month')).toBeInTheDocument();
    const balance = screen.getByRole('region', { name: 'Credit balance' });
    expect(await within(balance).findByText('4,950 credits')).toBeInTheDocument();
    expect(await within(balance).findByRole('link', { name: 'Buy credits' })).toHaveAttribute(
      'href',
      '/my-account?buy-credits',
    );
    expect(urlsOf('/report')).toContain(`${BASE}/report?from=2026-11-17&to=2026-11-23&granularity=day`);
    expect(urlsOf('/balance-history')).toContain(`${BASE}/balance-history?from=2026-11-17&to=2026-11-23`);
  });

  it('tells a prepaid account the day its credits run out, and pay as you go its predicted bill', async () => {
    routes({ ...REPORT, forecast: { ...REPORT.forecast, creditsRunOutOn: '2026-11-28' } });
    const { unmount } = renderPage();
    expect(await screen.findByText('At this rate your credits last until 28.11.2026')).toBeInTheDocument();
    unmount();
    routes({ ...REPORT, forecast: { ...REPORT.forecast, predictedCostUsdCents: 17_674, creditPriceUsdCents: 110 } });
    renderPage();
    expect(await screen.findByText('About $176.74 on your bill at $1.10 a credit')).toBeInTheDocument();
  });

  it('draws each chart under the question it answers, with its data as a table', async () => {
    renderPage();
    const methods = await screen.findByRole('figure', { name: 'Which methods are called most?' });
    const methodsTable = within(methods).getByRole('table', { name: 'Which methods are called most?' });
    expect(
      within(methodsTable)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day (UTC)', 'eth_blockNumber', 'eth_call', 'eth_getLogs', 'Total']);
    // Seven days, the empty ones filled with zeros.
    const rows = within(methodsTable).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toHaveTextContent('17.11.20260000');
    expect(rows[6]).toHaveTextContent('23.11.202603,0004003,400');

    const credits = screen.getByRole('figure', { name: 'Which applications use the credits?' });
    expect(
      within(credits)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day (UTC)', 'Token deployments', 'Payments API', 'Indexer', 'Total']);
    const balance = await screen.findByRole('figure', { name: 'How has the credit balance changed?' });
    expect(within(balance).getByRole('row', { name: /Token deployment -50 4,950/ })).toBeInTheDocument();
  });

  it('lists where the credits went, by credits first, and sorts by calls', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Where your credits went' });
    const bodyRows = () =>
      within(table)
        .getAllByRole('row')
        .slice(1, -1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        );
    expect(bodyRows()).toEqual([
      ['—', 'Ethereum Testnet', 'Token deployment', '1', '50', '96.7%'],
      ['Payments API', 'Ethereum Testnet', 'eth_blockNumber', '12,000', '1.2', '2.3%'],
      ['Indexer', 'Ethereum Testnet', 'eth_call', '3,000', '0.3', '0.6%'],
      ['Payments API', 'Ethereum Testnet', 'eth_getLogs', '400', '0.2', '0.4%'],
    ]);
    expect(within(table).getByRole('columnheader', { name: /Credits/ })).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(within(table).getByRole('button', { name: 'Calls' }));
    expect(bodyRows().map((row) => row[2])).toEqual(['eth_blockNumber', 'eth_call', 'eth_getLogs', 'Token deployment']);
    fireEvent.click(within(table).getByRole('button', { name: 'Calls' }));
    expect(bodyRows()[0]![2]).toBe('Token deployment');
    expect(within(table).getAllByRole('row').at(-1)).toHaveTextContent('Total15,40151.7100%');
  });

  it('asks again for the period and application chosen, starting from the address', async () => {
    renderPage(`/usage?applicationId=${PAYMENTS.id}`);
    await screen.findByRole('table', { name: 'Where your credits went' });
    expect(urlsOf('/report')[0]).toBe(
      `${BASE}/report?from=2026-11-17&to=2026-11-23&granularity=day&applicationId=${PAYMENTS.id}`,
    );
    expect(screen.getByRole('combobox', { name: 'Application' })).toHaveTextContent('Payments API');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Period' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Last 24 hours, by hour' }));
    await waitFor(() =>
      expect(urlsOf('/report')).toContain(
        `${BASE}/report?from=2026-11-22&to=2026-11-23&granularity=hour&applicationId=${PAYMENTS.id}`,
      ),
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Application' }));
    fireEvent.click(await screen.findByRole('option', { name: 'All applications' }));
    await waitFor(() =>
      expect(urlsOf('/report')).toContain(`${BASE}/report?from=2026-11-22&to=2026-11-23&granularity=hour`),
    );
  });

  it('downloads the CSV of the filters shown, with the session token', async () => {
    const createObjectURL = vi.fn(() => 'blob:usage');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderPage(`/usage?period=30d&applicationId=${INDEXER.id}`);
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [input, init] = mock.fetchMock.mock.calls.find(([url]) => String(url).includes('export.csv'))!;
    expect(String(input)).toBe(
      `${BASE}/export.csv?from=2026-10-25&to=2026-11-23&granularity=day&applicationId=${INDEXER.id}`,
    );
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-token');
    const [blob] = createObjectURL.mock.calls[0] as unknown as [Blob];
    expect(await blob.text()).toBe('start,application\n');
    expect(clicked[0]!.download).toBe('usage-2026-11-17-2026-11-23.csv');
    expect(clicked[0]!.href).toBe('blob:usage');
  });

  it('says when there are no calls yet, and where to start', async () => {
    routes({ ...REPORT, buckets: [], applications: [], networks: [], totals: { calls: 0, credits: 0 } });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No calls yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My applications' })).toHaveAttribute('href', '/my-applications');
    expect(screen.getByRole('link', { name: 'How to call the gateway' })).toHaveAttribute(
      'href',
      'https://docs.example.com/',
    );
    expect(screen.queryByRole('table', { name: 'Where your credits went' })).not.toBeInTheDocument();
  });

  it('shows a failed report with a retry that loads it again', async () => {
    let fails = true;
    routes(() => (fails ? json({ status: 500, title: 'Internal Server Error' }, 500) : json(REPORT)));
    renderPage();
    const alert = await screen.findByText('Usage could not be loaded.');
    fails = false;
    fireEvent.click(within(alert.closest('[role="alert"]')!).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Where your credits went' })).toBeInTheDocument();
  });

  it('shows each cap against the month, and a reached cap says calls are refused', async () => {
    renderPage();
    const caps = await screen.findByRole('table', { name: 'Spending caps' });
    const payments = within(caps).getByRole('row', { name: /Payments API/ });
    expect(within(payments).getByRole('progressbar')).toHaveAttribute('aria-valuetext', '100.5% of the cap used');
    expect(within(payments).getByText('Calls refused until the cap is raised or the month turns')).toBeInTheDocument();
    const indexer = within(caps).getByRole('row', { name: /Indexer/ });
    expect(within(indexer).getByText('No cap')).toBeInTheDocument();
    expect(within(indexer).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('sets a cap through the dialog, checking it as the server does', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Set cap for Indexer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Spending cap of Indexer' });
    const field = within(dialog).getByRole('textbox', { name: /Monthly cap/ });
    expect(within(dialog).getByText(/85% and at 100%.*429 Too Many Requests/)).toBeInTheDocument();

    fireEvent.change(field, { target: { value: 'lots' } });
    fireEvent.blur(field);
    expect(await within(dialog).findByText('Enter a number of credits, such as 250 or 12.50.')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '12.345' } });
    expect(await within(dialog).findByText('A cap has at most two decimals.')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '0' } });
    expect(await within(dialog).findByText('A cap is at least 0.01 credits.')).toBeInTheDocument();
    expect(mock.bodies(`PUT ${BASE}/caps/${INDEXER.id}`)).toEqual([]);

    const capsBefore = urlsOf('/caps').length;
    fireEvent.change(field, { target: { value: '250.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save cap' }));
    expect(await screen.findByText('Spending cap saved')).toBeInTheDocument();
    expect(mock.bodies(`PUT ${BASE}/caps/${INDEXER.id}`)).toEqual([{ monthlyCapCredits: 250.5 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The caps are asked for again.
    await waitFor(() => expect(urlsOf('/caps').length).toBeGreaterThan(capsBefore));
  });

  it('removes a cap', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the cap of Payments API' }));
    const dialog = await screen.findByRole('dialog', { name: 'Spending cap of Payments API' });
    expect(within(dialog).getByRole('textbox', { name: /Monthly cap/ })).toHaveValue('100');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove cap' }));
    expect(await screen.findByText('Spending cap removed')).toBeInTheDocument();
    expect(mock.bodies(`PUT ${BASE}/caps/${PAYMENTS.id}`)).toEqual([{ monthlyCapCredits: null }]);
  });
});
