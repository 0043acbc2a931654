import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import {
  createFetchMock,
  invoicePage,
  json,
  MONTHLY_ROW,
  OVERDUE_ROW,
  PAID_ROW,
  USER,
  VOID_ROW,
} from '../test/fixtures.ts';
import { MyInvoicesPage } from './my-invoices.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

// Whole MUI pages render slowly in jsdom on a shared runner: wait longer than the default second.
configure({ asyncUtilTimeout: 8_000 });

const LIST = '/api/payment/user/invoices';
const ROWS = [MONTHLY_ROW, PAID_ROW, OVERDUE_ROW, VOID_ROW];
const mock = createFetchMock();

function routes(rows = ROWS) {
  mock.route({
    [`GET ${LIST}`]: (_body, url) =>
      json(
        invoicePage(rows, {
          page: Number(url.searchParams.get('page')),
          size: Number(url.searchParams.get('size')),
          sort: url.searchParams.get('sort') ?? '',
        }),
      ),
    [`GET /api/payment/user/invoice/${MONTHLY_ROW.id}/csv`]: () =>
      new Response('number,total\nINV-000042,14814.80\n', {
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="INV-000042.csv"' },
      }),
  });
}

/** The list requests' query strings, in order. */
const listQueries = () =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === LIST)
    .map((url) => url.searchParams);

const lastSort = () => listQueries().at(-1)?.get('sort');

function renderPage(route = '/invoices/my-invoices') {
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  return renderWithProviders(<MyInvoicesPage />, {
    route,
    path: '/invoices/my-invoices',
    queryClient,
    routes: [{ path: '/invoices/my-invoices/:invoiceId', element: <h1>Invoice page</h1> }],
  });
}

const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
const sortButton = (name: string) => within(header(name)).getByRole('button');

describe('MyInvoicesPage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    routes();
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('shows spec §3’s columns, initially sorted by invoice number descending, and asks the server for that', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'My Invoices' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'INV-000042' })).toBeInTheDocument();
    const names = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(names).toEqual([
      'Invoice Numbersorted descending',
      'Start Date',
      'End Date',
      'Amount',
      'Status',
      'Last Change Date',
      'Actions',
    ]);
    expect(header('Invoice Number')).toHaveAttribute('aria-sort', 'descending');
    for (const other of ['Start Date', 'End Date', 'Amount', 'Status', 'Last Change Date', 'Actions']) {
      expect(header(other)).not.toHaveAttribute('aria-sort');
    }
    // Last Change Date and Actions cannot be sorted.
    expect(within(header('Last Change Date')).queryByRole('button')).toBeNull();
    expect(within(header('Actions')).queryByRole('button')).toBeNull();
    const first = listQueries()[0]!;
    expect(first.get('sort')).toBe('invoiceNumber:desc');
    expect(first.get('page')).toBe('0');
    expect(first.get('size')).toBe('10');
  });

  it('shows each row’s figures: dates with dots, the amount (subtotal) in pounds with separators', async () => {
    renderPage();
    const row = (await screen.findByRole('link', { name: 'INV-000042' })).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 6)).toEqual(['INV-000042', '01.10.2026', '31.10.2026', '£12,345.67', 'Due', '02.11.2026']);
    expect(screen.getByRole('link', { name: 'INV-000042' })).toHaveAttribute(
      'href',
      `/invoices/my-invoices/${MONTHLY_ROW.id}`,
    );
  });

  it('cycles the sort exactly as spec §4 says: unmarked → desc, desc → asc, asc → desc; another column clears the first', async () => {
    const { router } = renderPage();
    await screen.findByRole('link', { name: 'INV-000042' });

    // The marked column, descending → ascending → descending.
    fireEvent.click(sortButton('Invoice Number'));
    await waitFor(() => expect(header('Invoice Number')).toHaveAttribute('aria-sort', 'ascending'));
    await waitFor(() => expect(lastSort()).toBe('invoiceNumber:asc'));
    expect(router.state.location.search).toContain('sort=invoiceNumber%3Aasc');
    fireEvent.click(sortButton('Invoice Number'));
    await waitFor(() => expect(header('Invoice Number')).toHaveAttribute('aria-sort', 'descending'));
    expect(router.state.location.search).toContain('sort=invoiceNumber%3Adesc');

    // An unmarked column starts descending, and the first column loses its marker.
    fireEvent.click(sortButton('Amount'));
    await waitFor(() => expect(header('Amount')).toHaveAttribute('aria-sort', 'descending'));
    expect(header('Invoice Number')).not.toHaveAttribute('aria-sort');
    await waitFor(() => expect(lastSort()).toBe('subtotal:desc'));
    fireEvent.click(sortButton('Amount'));
    await waitFor(() => expect(header('Amount')).toHaveAttribute('aria-sort', 'ascending'));
    await waitFor(() => expect(lastSort()).toBe('subtotal:asc'));
    // Back to a sort asked before: its rows come from the cache, the address and marker say it.
    fireEvent.click(sortButton('Amount'));
    await waitFor(() => expect(header('Amount')).toHaveAttribute('aria-sort', 'descending'));
    expect(router.state.location.search).toContain('sort=subtotal%3Adesc');

    // Each of the other sortable columns: first click descending, with only its own marker.
    for (const [name, field] of [
      ['Start Date', 'startDate'],
      ['End Date', 'endDate'],
      ['Status', 'status'],
    ] as const) {
      fireEvent.click(sortButton(name));
      await waitFor(() => expect(lastSort()).toBe(`${field}:desc`));
      await waitFor(() => expect(header(name)).toHaveAttribute('aria-sort', 'descending'));
      expect(screen.getAllByRole('columnheader').filter((cell) => cell.hasAttribute('aria-sort'))).toHaveLength(1);
    }
  });

  it('reads the sort and the one-based page from the address', async () => {
    renderPage('/invoices/my-invoices?sort=status:asc&page=3&size=50');
    await screen.findByRole('link', { name: 'INV-000042' });
    const first = listQueries()[0]!;
    expect(first.get('sort')).toBe('status:asc');
    expect(first.get('page')).toBe('2');
    expect(first.get('size')).toBe('50');
    expect(header('Status')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('offers the page sizes 5, 10, 50 and 100 and asks for the one chosen', async () => {
    const { router } = renderPage();
    await screen.findByRole('link', { name: 'INV-000042' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Rows per page/ }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['5', '10', '50', '100']);
    fireEvent.click(options[3]!);
    await waitFor(() => expect(listQueries().at(-1)?.get('size')).toBe('100'));
    expect(router.state.location.search).toContain('size=100');
  });

  it('shows the status chips: Due, Overdue, Paid with Credited, Void', async () => {
    renderPage();
    const rowOf = async (number: string) => (await screen.findByRole('link', { name: number })).closest('tr')!;
    expect(within(await rowOf('INV-000042')).getByTestId('invoice-status')).toHaveTextContent('Due');
    expect(within(await rowOf('INV-000040')).getByTestId('invoice-status')).toHaveTextContent('Overdue');
    const paid = await rowOf('INV-000041');
    expect(within(paid).getByTestId('invoice-status')).toHaveTextContent('Paid');
    expect(within(paid).getByText('Credited')).toBeInTheDocument();
    expect(within(await rowOf('INV-000039')).getByTestId('invoice-status')).toHaveTextContent('Void');
    expect(within(await rowOf('INV-000042')).queryByText('Credited')).toBeNull();
  });

  it('explains when invoices appear, with a link to the plans, when there are none', async () => {
    routes([]);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No invoices yet' })).toBeInTheDocument();
    expect(
      screen.getByText(/when you place an order, and for pay-as-you-go plans after each month ends/),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/account-plan/upgrade');
  });

  it('shows a load failure with a retry that loads again', async () => {
    mock.route({ [`GET ${LIST}`]: () => json({ status: 500, title: 'Internal', detail: 'Database away.' }, 500) });
    renderPage();
    expect(await screen.findByText(/Your invoices could not be loaded\./)).toBeInTheDocument();
    routes();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'INV-000042' })).toBeInTheDocument();
  });

  it('row actions: see details, download PDF and CSV, and pay with QNT only while the invoice is due', async () => {
    const createObjectURL = vi.fn(() => 'blob:invoice');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { router } = renderPage();

    // A paid invoice: no payment.
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for invoice INV-000041' }));
    let menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['See details', 'Download PDF', 'Download CSV']);
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    // The open one: CSV with the session's token, named by the server.
    fireEvent.click(screen.getByRole('button', { name: 'Actions for invoice INV-000042' }));
    menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['See details', 'Download PDF', 'Download CSV', 'Pay with QNT']);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [, init] = mock.fetchMock.mock.calls.find(([url]) => String(url).endsWith('/csv'))!;
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer test-token');
    expect(clicked[0]!.download).toBe('INV-000042.csv');

    // The PDF is the account's: GET /{accountId}/invoice/{invoiceId}/pdf; a refusal is said.
    fireEvent.click(screen.getByRole('button', { name: 'Actions for invoice INV-000042' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Download PDF' }));
    expect(await screen.findByText(/The file could not be downloaded\./)).toBeInTheDocument();
    expect(
      mock.fetchMock.mock.calls.some(
        ([url]) => String(url) === `/api/payment/${USER.accountId}/invoice/${MONTHLY_ROW.id}/pdf`,
      ),
    ).toBe(true);

    // Pay with QNT opens the payment dialog.
    fireEvent.click(screen.getByRole('button', { name: 'Actions for invoice INV-000042' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Pay with QNT' }));
    expect(await screen.findByRole('dialog', { name: 'Pay invoice INV-000042 with QNT' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // See details opens the invoice's page.
    fireEvent.click(screen.getByRole('button', { name: 'Actions for invoice INV-000042' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'See details' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/invoices/my-invoices/${MONTHLY_ROW.id}`));
  });
});
