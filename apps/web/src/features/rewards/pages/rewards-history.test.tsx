import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { TCampaignHistoryResponse, TClaim, TOptinsResponse } from '@connect/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { session } from '../../../lib/storage.ts';
import { initTestI18n, TEST_RUNTIME_CONFIG, TestProviders } from '../../../test/render.tsx';
import { getOptinsQueryOptions } from '../api/get-optins.ts';
import { rewardsHistoryGuard } from '../guard.ts';
import { API, CLAIM, createFetchMock, json, OPTED_IN, OPTINS, problem, USER } from '../test/fixtures.ts';
import { RewardsHistoryPage } from './rewards-history.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const OPTINS_URL = `GET ${API}/campaigns/optins`;
const CAMPAIGNS_URL = `${API}/campaigns/completed`;
const CLAIMS_URL = `${API}/reward/transactions`;
const mock = createFetchMock();

const campaignRow = (index: number): TCampaignHistoryResponse['content'][number] => ({
  campaignId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  visibleName: `Campaign ${index}`,
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  qntValue: '3.5',
  earned: '1.5',
  tasksDone: 1,
  taskCount: 2,
});

const claimRow = (index: number, extra: Partial<TClaim> = {}): TClaim => ({
  ...CLAIM,
  id: `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  trackingCode: `RWD-${String(index).padStart(6, '0')}`,
  ...extra,
});

/** A page of `total` rows as the server pages them (zero-based). */
function pageOf<T>(all: T[], url: URL) {
  const page = Number(url.searchParams.get('page') ?? 0);
  const size = Number(url.searchParams.get('size') ?? 5);
  return {
    content: all.slice(page * size, page * size + size),
    totalElements: all.length,
    totalPages: Math.ceil(all.length / size),
    number: page,
    size,
  };
}

let optins: TOptinsResponse;
const CAMPAIGNS = Array.from({ length: 12 }, (_, index) => campaignRow(index + 1));
const CLAIMS = [
  claimRow(1, {
    status: 'COMPLETED',
    txHash: '0xabc1230000000000000000000000000000000000000000000000000000def456',
    completedAt: '2026-12-08T10:00:00.000Z',
  }),
  claimRow(2, { status: 'PENDING', txHash: null }),
  ...Array.from({ length: 6 }, (_, index) => claimRow(index + 3, { status: 'REJECTED' })),
];

/** The queries sent to a list, in order. */
const queriesOf = (pathname: string) =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === pathname)
    .map((url) => `page=${url.searchParams.get('page')}&size=${url.searchParams.get('size')}`);

/** /rewards/history as the router has it (its guard first), and /rewards to land on. */
function renderHistory(route = '/rewards/history') {
  setRuntimeConfig(TEST_RUNTIME_CONFIG);
  initTestI18n();
  const router = createMemoryRouter(
    [
      {
        path: '/rewards/history',
        loader: rewardsHistoryGuard,
        element: <RewardsHistoryPage />,
        HydrateFallback: () => null,
      },
      { path: '/rewards', element: <h1>Rewards page</h1> },
    ],
    { initialEntries: [route] },
  );
  render(
    <TestProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return router;
}

describe('RewardsHistoryPage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    session.setMarker(USER.id, USER.role);
    optins = OPTED_IN;
    mock.route({
      [OPTINS_URL]: () => json(optins),
      [`GET ${CAMPAIGNS_URL}`]: (_body, url) => json(pageOf(CAMPAIGNS, url)),
      [`GET ${CLAIMS_URL}`]: (_body, url) => json(pageOf(CLAIMS, url)),
    });
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('sends a customer who never opted in to Rewards', async () => {
    optins = OPTINS;
    const router = renderHistory();
    expect(await screen.findByRole('heading', { name: 'Rewards page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/rewards');
    expect(queriesOf(CAMPAIGNS_URL)).toEqual([]);
  });

  it('sends a customer who may not use rewards to Rewards, which says what is needed', async () => {
    mock.route({ [OPTINS_URL]: () => json(problem('REWARDS_NEED_QNT_PLAN', 409, 'Rewards need a QNT plan.'), 409) });
    const router = renderHistory();
    await waitFor(() => expect(router.state.location.pathname).toBe('/rewards'));
  });

  it('reads the reward state again on entering, so a customer who just opted in gets in', async () => {
    // The cache still says "never opted in", from before the opt-in.
    queryClient.setQueryData(getOptinsQueryOptions().queryKey, OPTINS);
    renderHistory();
    expect(await screen.findByRole('heading', { level: 1, name: 'Rewards history' })).toBeInTheDocument();
    expect(mock.fetchMock.mock.calls.some(([input]) => String(input).endsWith('/campaigns/optins'))).toBe(true);
  });

  it('opens on Campaign history, five to a page, and pages through it', async () => {
    renderHistory();
    const tab = await screen.findByRole('tab', { name: 'Campaign history' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'The campaigns you took part in' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Campaign 1', '01.10.2026 – 31.10.2026', '1 of 2', '1.5 QNT of 3.5 QNT']);
    expect(screen.getByText('1–5 of 12')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(await screen.findByText('Campaign 6')).toBeInTheDocument();
    expect(screen.getByText('6–10 of 12')).toBeInTheDocument();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Rows per page/ }));
    const sizes = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(sizes).toEqual(['5', '10', '50', '100']);
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: '10' }));
    expect(await screen.findByText('1–10 of 12')).toBeInTheDocument();
    expect(queriesOf(CAMPAIGNS_URL)).toEqual(['page=0&size=5', 'page=1&size=5', 'page=0&size=10']);
  });

  it('shows the claims on their own tab: code, date, amount, address, status, and the transaction once paid', async () => {
    const router = renderHistory();
    fireEvent.click(await screen.findByRole('tab', { name: 'Claim history' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=claims'));
    const table = await screen.findByRole('table', { name: 'Your claims' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Claim ID', 'Date', 'Amount', 'Address', 'Status', 'Transaction']);
    const [paid, pending] = within(table).getAllByRole('row').slice(1);
    const paidCells = within(paid!).getAllByRole('cell');
    expect(paidCells[0]).toHaveTextContent('RWD-000001');
    expect(paidCells[1]).toHaveTextContent('05.12.2026');
    expect(paidCells[2]).toHaveTextContent('2 QNT');
    expect(paidCells[3]).toHaveTextContent('0x5290…9ee7');
    expect(paidCells[4]).toHaveTextContent('Paid');
    expect(paidCells[5]).toHaveTextContent('0xabc1…f456');
    const pendingCells = within(pending!).getAllByRole('cell');
    expect(pendingCells[4]).toHaveTextContent('Pending');
    expect(pendingCells[5]).toHaveTextContent('–');

    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(await screen.findByText('RWD-000006')).toBeInTheDocument();
    expect(queriesOf(CLAIMS_URL)).toEqual(['page=0&size=5', 'page=1&size=5']);
    // Each tab keeps its own paging.
    fireEvent.click(screen.getByRole('tab', { name: 'Campaign history' }));
    expect(await screen.findByText('Campaign 1')).toBeInTheDocument();
  });

  it('opens on the claims from ?tab=claims, and says when there are none yet', async () => {
    mock.route({
      [OPTINS_URL]: () => json(optins),
      [`GET ${CLAIMS_URL}`]: (_body, url) => json(pageOf([], url)),
    });
    renderHistory('/rewards/history?tab=claims');
    expect(await screen.findByText('No claims yet')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Claim history' })).toHaveAttribute('aria-selected', 'true');
  });
});
