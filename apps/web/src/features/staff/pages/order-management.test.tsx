import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ZManagementOrdersResponse, type TManagementOrder } from '@connect/shared';
import { describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '../test/fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { OrderManagementPage } from './order-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const LIST = '/api/account-plan/management/order-list';
const base = {
  kind: 'PLAN',
  planName: 'Annual Standard',
  credits: 0,
  totalGbpMinor: 600_000,
  refundedGbpMinor: 0,
  createdAt: '2026-11-20T10:00:00.000Z',
  dueAt: '2026-12-04T10:00:00.000Z',
  invoiceNumber: 'INV-000010',
  accountId: '7b000000-0000-4000-8000-0000000000aa',
  organisationName: 'Analytical Engines Ltd',
  ownerEmail: 'ada@example.com',
} as const;
const OPEN: TManagementOrder = {
  ...base,
  id: '7c000000-0000-4000-8000-000000000011',
  reference: 'CNX-OPEN0001',
  status: 'AWAITING_PAYMENT',
  paymentMethod: 'BANK_TRANSFER',
  paidGbpMinor: 0,
  paidBy: [],
  paidAt: null,
  invoiceId: '7d000000-0000-4000-8000-000000000011',
};
const PAID: TManagementOrder = {
  ...base,
  id: '7c000000-0000-4000-8000-000000000012',
  reference: 'CNX-PAID0001',
  status: 'PAID',
  paymentMethod: 'FIAT',
  paidGbpMinor: 600_000,
  paidBy: ['FIAT'],
  paidAt: '2026-11-20T10:05:00.000Z',
  invoiceId: '7d000000-0000-4000-8000-000000000012',
};
const answer = (rows: TManagementOrder[]) =>
  ZManagementOrdersResponse.parse({
    orderList: rows,
    totalItems: rows.length,
    totalPages: 1,
    totalCapped: false,
    page: 0,
    size: 5,
    hasNextPage: false,
    cursor: rows.length ? 'orders-0' : null,
  });
const mock = createFetchMock(() => ({
  [`GET ${LIST}`]: (_body, url) =>
    json(
      answer(
        url.searchParams.get('status') === 'PAID'
          ? [PAID]
          : url.searchParams.get('searchTerm') === 'nothing'
            ? []
            : [OPEN, PAID],
      ),
    ),
}));
const queries = () =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === LIST)
    .map((url) => url.searchParams);

function renderPage(route = '/order-management') {
  return renderStaffPage(<OrderManagementPage />, { route, path: '/order-management' });
}
const rowOf = async (reference: string) => (await screen.findByText(reference)).closest<HTMLElement>('[role="row"]')!;

describe('OrderManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);

  it('lists every account’s orders newest first with their account, total, received and status', async () => {
    renderPage();
    const open = await rowOf('CNX-OPEN0001');
    expect(open).toHaveTextContent('Analytical Engines Ltd');
    expect(open).toHaveTextContent('Annual Standard · Bank transfer');
    expect(open).toHaveTextContent('£6,000.00');
    expect(open).toHaveTextContent('Awaiting payment');
    expect(queries()[0]!.get('sort')).toBe('createdAt:desc');
    expect(queries()[0]!.get('size')).toBe('5');
  });

  it('offers a receipt for an open bank transfer and a refund for a paid order, from the row’s actions', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('CNX-OPEN0001')).getByRole('button', { name: 'Actions for CNX-OPEN0001' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Record receipt',
      'Open the account',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Record receipt' }));
    expect(await screen.findByRole('dialog', { name: 'Record a bank transfer for CNX-OPEN0001' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(within(await rowOf('CNX-PAID0001')).getByRole('button', { name: 'Actions for CNX-PAID0001' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Refund', 'Open the account']);
  });

  it('filters by status in the address and says when a search finds nothing', async () => {
    renderPage('/order-management?status=paid');
    await rowOf('CNX-PAID0001');
    expect(queries().at(-1)!.get('status')).toBe('PAID');
    expect(screen.queryByText('CNX-OPEN0001')).toBeNull();
    renderPage('/order-management?search=nothing');
    expect(await screen.findByText('No order matches this search.')).toBeInTheDocument();
  });
});
