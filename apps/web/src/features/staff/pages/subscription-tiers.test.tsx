import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '../test/fixtures.ts';
import { ANNUAL_TIER, PAYG_TIER, RETIRED_TIER, TIERS } from '../test/tier-fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { SubscriptionTiersPage } from './subscription-tiers.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const BASE = '/api/account-plan/management/subscription-tiers';
/** The server's catalogue: a reorder changes what the next GET answers. */
let catalogue = TIERS;
const mock = createFetchMock(() => ({
  [`GET ${BASE}`]: () => json({ tiers: catalogue }),
  [`PUT ${BASE}/order`]: (body) => {
    const ids = (body as { tierIds: string[] }).tierIds;
    catalogue = ids.map((id, index) => ({ ...TIERS.find((tier) => tier.id === id)!, order: index + 1 }));
    return json({ tiers: catalogue });
  },
  [`POST ${BASE}/${ANNUAL_TIER.id}/retire`]: () => json({ ...ANNUAL_TIER, retired: true }),
  [`POST ${BASE}/${RETIRED_TIER.id}/unretire`]: () => json({ ...RETIRED_TIER, retired: false }),
  [`DELETE ${BASE}/${RETIRED_TIER.id}`]: () => new Response(null, { status: 204 }),
}));

function renderPage() {
  return renderStaffPage(<SubscriptionTiersPage />, {
    route: '/subscription-management',
    path: '/subscription-management',
  });
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;
const names = () =>
  within(screen.getByRole('table', { name: 'Subscription tiers' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.querySelector('span')!.textContent);

describe('SubscriptionTiersPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);
  beforeEach(() => {
    catalogue = TIERS;
  });

  it('lists the tiers in order with their prices, allowances, bundles, status and use', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Subscription tiers' })).toBeInTheDocument();
    const annual = await rowOf('Annual Subscription — Standard');
    expect(names()).toEqual(['Pay as you go — Standard', 'Annual Subscription — Standard', 'Annual — Gold']);
    expect(annual).toHaveTextContent('£6,000.00 a year');
    expect(annual).toHaveTextContent('75 QNT a year');
    expect(annual).toHaveTextContent('all blockchains');
    expect(annual).toHaveTextContent('2 bundles');
    expect(annual).toHaveTextContent('3 accounts');
    expect(within(annual).getByText('On sale')).toBeInTheDocument();
    const payg = await rowOf('Pay as you go — Standard');
    expect(payg).toHaveTextContent('$1.20 a credit');
    expect(payg).toHaveTextContent('3 blockchains');
    expect(within(await rowOf('Annual — Gold')).getByText('Retired')).toBeInTheDocument();
    expect(within(await rowOf('Annual — Gold')).getByText('Not in use')).toBeInTheDocument();
  });

  it('moves a tier down with the keyboard-reachable buttons and keeps the focus on it', async () => {
    renderPage();
    await rowOf('Pay as you go — Standard');
    expect(screen.getByRole('button', { name: `Move ${PAYG_TIER.name} up` })).toBeDisabled();
    expect(screen.getByRole('button', { name: `Move ${RETIRED_TIER.name} down` })).toBeDisabled();
    const down = screen.getByRole('button', { name: `Move ${PAYG_TIER.name} down` });
    down.focus();
    fireEvent.click(down);
    await waitFor(() => expect(names()[1]).toBe('Pay as you go — Standard'));
    expect(mock.bodies(`PUT ${BASE}/order`)).toEqual([{ tierIds: [ANNUAL_TIER.id, PAYG_TIER.id, RETIRED_TIER.id] }]);
    await waitFor(() => expect(screen.getByRole('button', { name: `Move ${PAYG_TIER.name} down` })).toHaveFocus());
  });

  it('says when the tiers changed meanwhile and shows them as they are', async () => {
    mock.route({
      [`PUT ${BASE}/order`]: () =>
        json(
          {
            status: 409,
            code: 'TIER_ORDER_STALE',
            title: 'Conflict',
            detail: 'The tiers have changed since this page loaded. Reload the page and order them again.',
          },
          409,
        ),
    });
    renderPage();
    await rowOf('Pay as you go — Standard');
    fireEvent.click(screen.getByRole('button', { name: `Move ${ANNUAL_TIER.name} up` }));
    expect(await screen.findByText('The tiers could not be reordered')).toBeInTheDocument();
    expect(screen.getByText(/The tiers have changed since this page loaded/)).toBeInTheDocument();
    expect(names()[0]).toBe('Pay as you go — Standard');
  });

  it('retires a tier after a confirmation naming it', async () => {
    renderPage();
    await rowOf('Annual Subscription — Standard');
    fireEvent.click(screen.getByRole('button', { name: `Retire ${ANNUAL_TIER.name}` }));
    const dialog = screen.getByRole('dialog', { name: `Retire ${ANNUAL_TIER.name}?` });
    expect(dialog).toHaveTextContent('The accounts on it keep it');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retire' }));
    expect(await screen.findByText(`${ANNUAL_TIER.name} is retired`)).toBeInTheDocument();
    expect(
      mock.fetchMock.mock.calls.some(([url, init]) => init?.method === 'POST' && String(url).endsWith('/retire')),
    ).toBe(true);
  });

  it('refuses to delete a tier in use (the button says why) and deletes an unused one after confirming', async () => {
    renderPage();
    await rowOf('Annual — Gold');
    const inUse = screen.getByRole('button', { name: `Delete ${ANNUAL_TIER.name}` });
    expect(inUse).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(inUse);
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.mouseOver(inUse);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Retire it instead');

    fireEvent.click(screen.getByRole('button', { name: `Delete ${RETIRED_TIER.name}` }));
    const dialog = screen.getByRole('dialog', { name: `Delete ${RETIRED_TIER.name}?` });
    expect(dialog).toHaveTextContent('cannot be undone');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`${RETIRED_TIER.name} is deleted`)).toBeInTheDocument();
  });

  it('shows the server’s refusal in the confirmation', async () => {
    mock.route({
      [`POST ${BASE}/${RETIRED_TIER.id}/unretire`]: () =>
        json(
          { status: 404, code: 'TIER_NOT_FOUND', title: 'Not Found', detail: 'The subscription tier was not found.' },
          404,
        ),
    });
    renderPage();
    await rowOf('Annual — Gold');
    fireEvent.click(screen.getByRole('button', { name: `Put ${RETIRED_TIER.name} on sale again` }));
    const dialog = screen.getByRole('dialog', { name: `Put ${RETIRED_TIER.name} on sale again?` });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Put on sale' }));
    expect(await within(dialog).findByText('The subscription tier was not found.')).toBeInTheDocument();
  });

  it('shows a skeleton while loading, then an error with a retry, and an empty state', async () => {
    mock.route({ [`GET ${BASE}`]: () => json({ status: 500, code: 'INTERNAL_ERROR', title: 'Error' }, 500) });
    const { container } = renderPage();
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(await screen.findByText(/The subscription tiers could not be loaded/)).toBeInTheDocument();
    mock.route({ [`GET ${BASE}`]: () => json({ tiers: [] }) });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No subscription tier yet/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New tier' })).toHaveLength(2);
  });
});
