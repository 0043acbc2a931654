import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVERSE_CHARGE_LEGEND, type RouteItem } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ORDER } from '../../../test/plans.ts';
import { createFetchMock, json, MONTHLY, PAID, RECEIPT, USER } from '../test/fixtures.ts';
import { InvoicePage } from './invoice.tsx';
import { AppBreadcrumbs } from '../../../components/layouts/main-layout/app-breadcrumbs.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

configure({ asyncUtilTimeout: 8_000 });

const mock = createFetchMock(() => ({
  [`GET /api/payment/user/invoice/${MONTHLY.id}`]: () => json(MONTHLY),
  [`GET /api/payment/user/invoice/${PAID.id}`]: () => json(PAID),
  'POST /api/connect/user/invoice/create-receipt': () => json(RECEIPT),
  [`GET /api/payment/user/invoice/${PAID.id}/receipt.pdf`]: () =>
    new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } }),
}));

function renderPage(id: string) {
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  // The shell's breadcrumbs above the page, as the main layout puts them.
  return renderWithProviders(
    <>
      <AppBreadcrumbs
        routes={[{ name: 'Invoices', title: 'My Invoices', path: '/invoices/my-invoices' } satisfies RouteItem]}
      />
      <InvoicePage />
    </>,
    {
      route: `/invoices/my-invoices/${id}`,
      path: '/invoices/my-invoices/:invoiceId',
      queryClient,
    },
  );
}

/** The value beside a label of a definition list inside `within`. */
const valueOf = (scope: HTMLElement, label: string) =>
  within(scope).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('InvoicePage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({});
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('shows the issuer, the customer and the header of a month’s invoice', async () => {
    renderPage(MONTHLY.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice INV-000042' })).toBeInTheDocument();
    const from = screen.getByRole('region', { name: 'From' });
    for (const text of [
      'Connect Platform Ltd',
      '1 Ledger Lane',
      'London',
      'EC1A 1AA',
      'Company number: 01234567',
      'VAT number: GB123456789',
      'billing@connect.example.com',
    ]) {
      expect(within(from).getByText(text)).toBeInTheDocument();
    }
    const to = screen.getByRole('region', { name: 'Billed to' });
    for (const text of ['Analytical Engines Ltd', '12 Difference Street', 'Cambridge', 'CB1 2AB', 'ada@example.com']) {
      expect(within(to).getByText(text)).toBeInTheDocument();
    }
    const details = screen.getByRole('region', { name: 'Invoice details' });
    expect(valueOf(details, 'Invoice number')).toBe('INV-000042');
    expect(valueOf(details, 'Invoice date')).toBe('02.11.2026');
    expect(valueOf(details, 'Reference')).toBe('CNX-QNT00001');
    expect(valueOf(details, 'Account number')).toBe('ACC-6A1D7B3F');
    expect(valueOf(details, 'Due date')).toBe('16.11.2026');
    expect(valueOf(details, 'Terms')).toBe('14 days');
    expect(valueOf(details, 'Period')).toBe('01.10.2026 – 31.10.2026');
  });

  it('shows the lines and the summary’s figures: VAT inside the price, pounds, dollars and the QNT amount at its rate', async () => {
    renderPage(MONTHLY.id);
    const table = await screen.findByRole('table', { name: 'Lines' });
    const cells = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(cells).toEqual([
      ['Description', 'Quantity', 'Unit price', 'VAT', 'Amount'],
      ['Gateway calls — read (1,500,000 calls): 150 credits', '1,500,000', '–', '–', '–'],
      ['Pay-as-you-go credits, October 2026', '12,000', '£0.9449', '£1,889.80 (20 %)', '£9,449.00'],
    ]);
    const summary = screen.getByTestId('invoice-summary');
    expect(valueOf(summary, 'Subtotal')).toBe('£9,449.00');
    expect(valueOf(summary, 'Total without VAT')).toBe('£9,449.00');
    expect(valueOf(summary, 'VAT (20 %)')).toBe('£1,889.80');
    expect(valueOf(summary, 'Total (GBP)')).toBe('£11,338.80');
    expect(valueOf(summary, 'Total (USD)')).toBe('$14,400.28 (at $1.27 per £1)');
    expect(valueOf(summary, 'Payment received')).toBe('£0.00');
    expect(valueOf(summary, 'Date received')).toBe('–');
    expect(valueOf(summary, 'Amount due')).toBe('£11,338.80');
    expect(valueOf(summary, 'Amount in QNT')).toBe('141.735 QNT');
    expect(valueOf(summary, 'Exchange rate')).toBe('£80.00 per QNT');
    expect(valueOf(summary, 'Exchange date and time')).toBe(formatDateTime(MONTHLY.qnt!.rateAt, { withZone: true }));
    // The footer: the terms and the reference to quote; no receipt while it is due.
    expect(
      screen.getByText(
        'Payment is due within 14 days of the invoice date, by 16.11.2026. Quote the reference CNX-QNT00001 with a bank transfer.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('invoice-status')).toHaveTextContent('Due');
    expect(screen.queryByRole('button', { name: 'Create receipt' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay with QNT' })).toBeInTheDocument();
  });

  it('shows where to send a bank transfer while the invoice is due and its order waits for one', async () => {
    mock.route({ 'POST /api/account-plan/order/track': () => json({ ...ORDER, id: MONTHLY.orderId }) });
    renderPage(MONTHLY.id);
    const bank = await screen.findByTestId('invoice-bank');
    expect(valueOf(bank, 'Account name')).toBe('Connect Sandbox Ltd (sample account)');
    expect(valueOf(bank, 'Sort code')).toBe('00-00-00');
    expect(valueOf(bank, 'IBAN')).toBe('GB00SAND00000000000000');
    expect(valueOf(bank, 'Reference')).toBe('CNX-7K2M9QXA');
    expect(mock.bodies('POST /api/account-plan/order/track')).toEqual([{ orderId: MONTHLY.orderId }]);
  });

  it('prints the invoice alone: Print calls the browser’s print, and the print styles show only the document', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderPage(MONTHLY.id);
    fireEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    // The document sits in the print root; the buttons and the shell are hidden when printing.
    expect(screen.getByTestId('invoice-document').closest('[data-print-root]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Print' }).closest('.no-print')).not.toBeNull();
    const styles = [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n');
    expect(styles).toMatch(/@media print/);
    expect(styles).toMatch(/\[data-print-root\]/);
  });

  it('a paid, reverse-charged order invoice: the legend, the credit note, no payment, and the receipt created and downloaded', async () => {
    const createObjectURL = vi.fn(() => 'blob:receipt');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    // Once created, the invoice carries its receipt.
    let receipt: typeof RECEIPT | null = null;
    mock.route({
      [`GET /api/payment/user/invoice/${PAID.id}`]: () => json({ ...PAID, receipt }),
      'POST /api/connect/user/invoice/create-receipt': () => {
        receipt = RECEIPT;
        return json(RECEIPT);
      },
    });
    renderPage(PAID.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice INV-000041' })).toBeInTheDocument();
    const to = screen.getByRole('region', { name: 'Billed to' });
    expect(within(to).getByText('Address not given')).toBeInTheDocument();
    expect(within(to).getByText('VAT number: DE123456789')).toBeInTheDocument();
    const summary = screen.getByTestId('invoice-summary');
    expect(valueOf(summary, 'VAT (reverse charge, 0 %)')).toBe('£0.00');
    expect(valueOf(summary, 'Payment received')).toBe('£6,000.00');
    expect(valueOf(summary, 'Date received')).toBe('16.09.2026');
    expect(valueOf(summary, 'Amount due')).toBe('£0.00');
    expect(screen.getByTestId('vat-note')).toHaveTextContent(REVERSE_CHARGE_LEGEND);
    expect(screen.getByText('Credit note CN-000003 — £100.00 — Refund of unused credits')).toBeInTheDocument();
    expect(screen.getByText('Paid in full on 16.09.2026 in QNT. Thank you.')).toBeInTheDocument();
    expect(screen.getByTestId('invoice-status')).toHaveTextContent('Paid');
    expect(screen.getByText('Credited')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay with QNT' })).toBeNull();
    // Nothing is due: no transfer instructions are asked for.
    expect(screen.queryByTestId('invoice-bank')).toBeNull();
    expect(mock.bodies('POST /api/account-plan/order/track')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Create receipt' }));
    expect(await screen.findByText('Receipt RCT-000007 sent to your email')).toBeInTheDocument();
    expect(mock.bodies('POST /api/connect/user/invoice/create-receipt')).toEqual([{ invoiceId: PAID.id }]);
    // The page shows the receipt, and offers it for download.
    expect(await screen.findByTestId('invoice-receipt')).toHaveTextContent(
      'Receipt RCT-000007 — £6,000.00 received on 16.09.2026',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download receipt' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe('receipt-INV-000041.pdf');
  });

  it('says when the receipt cannot be created', async () => {
    mock.route({
      'POST /api/connect/user/invoice/create-receipt': () =>
        json({ status: 409, code: 'INVOICE_NOT_PAID', title: 'Conflict', detail: 'The invoice is not paid.' }, 409),
    });
    renderPage(PAID.id);
    fireEvent.click(await screen.findByRole('button', { name: 'Create receipt' }));
    expect(await screen.findByText('The receipt could not be created. The invoice is not paid.')).toBeInTheDocument();
  });

  it('the breadcrumb names the invoice by its number, not its id', async () => {
    renderPage(MONTHLY.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoice INV-000042' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await waitFor(() =>
      expect(
        within(nav)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['Invoices', 'My invoices', 'INV-000042']),
    );
    expect(within(nav).getByText('INV-000042')).toHaveAttribute('aria-current', 'page');
    expect(nav).not.toHaveTextContent(MONTHLY.id);
    expect(within(nav).getByRole('link', { name: 'My invoices' })).toHaveAttribute('href', '/invoices/my-invoices');
  });

  it('says when the invoice is not the account’s', async () => {
    mock.route({
      [`GET /api/payment/user/invoice/${MONTHLY.id}`]: () =>
        json({ status: 404, code: 'INVOICE_NOT_FOUND', title: 'Not Found', detail: 'No such invoice.' }, 404),
    });
    renderPage(MONTHLY.id);
    expect(await screen.findByText("There is no such invoice among your account's invoices.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Invoices' })).toHaveAttribute('href', '/invoices/my-invoices');
  });
});
