import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TManagementPrivateNetwork } from '@connect/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, createFetchMock, json } from '../test/fixtures.ts';
import {
  FAILED_CHECK,
  ORPHAN_NETWORK,
  PASSED_CHECK,
  REJECTED_NETWORK,
  REMOVAL_NETWORK,
  reviewsAnswer,
  UNDER_REVIEW_NETWORK,
} from '../test/network-review-fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { NetworkReviewPage } from './network-review.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const LIST = '/api/integrate/management/private-networks';
const one = (network: TManagementPrivateNetwork) => `${LIST}/${network.id}`;
const BY_STATUS: Record<string, TManagementPrivateNetwork[]> = {
  UNDER_REVIEW: [UNDER_REVIEW_NETWORK, ORPHAN_NETWORK],
  REJECTED: [REJECTED_NETWORK],
  REMOVAL_REQUESTED: [REMOVAL_NETWORK],
};
/** What the server holds now: a decision moves a network, as the server would. */
let current: Record<string, TManagementPrivateNetwork> = {};
const mock = createFetchMock(() => ({
  [`GET ${LIST}`]: (_body, url) => json(reviewsAnswer(BY_STATUS[url.searchParams.get('status') ?? ''] ?? [])),
  ...Object.fromEntries(
    [UNDER_REVIEW_NETWORK, ORPHAN_NETWORK, REJECTED_NETWORK, REMOVAL_NETWORK].map((network) => [
      `GET ${one(network)}`,
      () => json(current[network.id] ?? network),
    ]),
  ),
}));

const listQueries = () =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === LIST)
    .map((url) => url.searchParams);

function renderPage(route = '/network-review') {
  return renderStaffPage(<NetworkReviewPage />, { route, path: '/network-review' });
}

const rowOf = async (name: string) => {
  const cells = await screen.findAllByRole('gridcell', { name: new RegExp(`^${name}`) });
  return cells.find((cell) => cell.dataset.field === 'name')!.closest<HTMLElement>('[role="row"]')!;
};
const cellOf = (row: HTMLElement, field: string) => row.querySelector<HTMLElement>(`[data-field="${field}"]`)!;

async function openDetails(name = UNDER_REVIEW_NETWORK.name) {
  fireEvent.click(cellOf(await rowOf(name), 'chainId'));
  return screen.findByRole('dialog', { name });
}

describe('NetworkReviewPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);
  beforeEach(() => {
    current = {};
  });

  it('opens on the networks under review, the longest wait first, with each status’s count', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Network review' })).toBeInTheDocument();
    const row = await rowOf(UNDER_REVIEW_NETWORK.name);
    expect(Object.fromEntries(listQueries()[0]!)).toEqual({
      page: '0',
      size: '5',
      sort: 'submittedAt:asc',
      status: 'UNDER_REVIEW',
    });
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Network',
      'Chain id',
      'Account',
      'Submitted by',
      'Submitted',
      'Actions',
    ]);
    expect(cellOf(row, 'name')).toHaveTextContent('Engine Ledgerhttps://rpc.engines.example/v1');
    expect(cellOf(row, 'account')).toHaveTextContent('Analytical Engines Ltdada@example.com');
    expect(cellOf(row, 'submittedAt')).toHaveTextContent('21.11.2026, 09:30');
    // An account without an organisation, a submitter who is gone: the row still says whose it is.
    const orphan = await rowOf(ORPHAN_NETWORK.name);
    expect(cellOf(orphan, 'account')).toHaveTextContent('No organisation');
    expect(cellOf(orphan, 'submittedBy')).toHaveTextContent('No longer a user');

    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['Under review 2', 'Removal requested 1', 'Active 7', 'Rejected 1', 'Removed 0']);
    expect(screen.getByRole('tab', { name: /Under review/ })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows another status on its tab, in the address, with when it was decided', async () => {
    const { router } = renderPage();
    await rowOf(UNDER_REVIEW_NETWORK.name);
    fireEvent.click(screen.getByRole('tab', { name: /Rejected/ }));
    const row = await rowOf(REJECTED_NETWORK.name);
    expect(listQueries().at(-1)!.get('status')).toBe('REJECTED');
    expect(router.state.location.search).toBe('?tab=rejected');
    expect(cellOf(row, 'reviewedAt')).toHaveTextContent('23.11.2026, 10:00');
    // Nothing to decide on a rejected network: its menu has only the details.
    fireEvent.click(within(row).getByRole('button', { name: 'Actions for Rejected Ledger' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Details']);
  });

  it('shows every field of the network and runs the live RPC check on demand', async () => {
    renderPage();
    const panel = await openDetails();
    for (const text of [
      'Under review',
      '4242',
      'https://rpc.engines.example/v1',
      'Production',
      'Archive',
      'ENG',
      '18',
      '12',
      'Ada Lovelace · ada@example.com',
      'Analytical Engines Ltd',
      UNDER_REVIEW_NETWORK.account.accountId,
      UNDER_REVIEW_NETWORK.id,
    ]) {
      expect(within(panel).getAllByText(text).length, text).toBeGreaterThan(0);
    }

    mock.route({ [`POST ${one(UNDER_REVIEW_NETWORK)}/rpc-check`]: () => json(PASSED_CHECK) });
    fireEvent.click(within(panel).getByRole('button', { name: 'Run RPC check' }));
    const status = within(panel).getByRole('status', { name: 'Live RPC check' });
    expect(await within(status).findByText('The node answers as submitted')).toBeInTheDocument();
    expect(status).toHaveTextContent('Chain id 4242 (submitted 4242), latest block 1,234,567, EIP-1559 fees yes.');

    mock.route({ [`POST ${one(UNDER_REVIEW_NETWORK)}/rpc-check`]: () => json(FAILED_CHECK) });
    fireEvent.click(within(panel).getByRole('button', { name: 'Run again' }));
    expect(await within(status).findByText('The node does not answer as submitted')).toBeInTheDocument();
    expect(status).toHaveTextContent('The node at this URL reports chain id 1, not 4242');
    // A report only: nothing was decided, the network is still under review.
    expect(mock.bodies(`PUT ${one(UNDER_REVIEW_NETWORK)}/review`)).toEqual([]);
  });

  it('approves after a confirmation naming the network and its owner; the list and panel are read again', async () => {
    renderPage();
    const panel = await openDetails();
    mock.route({
      [`PUT ${one(UNDER_REVIEW_NETWORK)}/review`]: () => {
        current[UNDER_REVIEW_NETWORK.id] = { ...UNDER_REVIEW_NETWORK, status: 'ACTIVE', reviewedBy: ADMIN.email };
        return json(current[UNDER_REVIEW_NETWORK.id]);
      },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Engine Ledger?' });
    expect(dialog).toHaveTextContent('ada@example.com is told in the portal and by email');
    const before = listQueries().length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Approve Engine Ledger?' })).not.toBeInTheDocument(),
    );
    expect(mock.bodies(`PUT ${one(UNDER_REVIEW_NETWORK)}/review`)).toEqual([{ decision: 'APPROVE' }]);
    expect(await screen.findByText('Engine Ledger approved')).toBeInTheDocument();
    await waitFor(() => expect(listQueries().length).toBeGreaterThan(before));
    // The panel shows where the network stands now, with who decided; no decision is left to take.
    const refreshed = screen.getByRole('dialog', { name: UNDER_REVIEW_NETWORK.name });
    expect(await within(refreshed).findByText(ADMIN.email)).toBeInTheDocument();
    expect(within(refreshed).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('rejects only with a reason, checked before sending, and sends it', async () => {
    renderPage();
    fireEvent.click(within(await rowOf(UNDER_REVIEW_NETWORK.name)).getByRole('button', { name: /^Actions for/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Engine Ledger' });
    mock.route({ [`PUT ${one(UNDER_REVIEW_NETWORK)}/review`]: () => json(REJECTED_NETWORK) });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please say why the network is rejected.')).toBeInTheDocument();
    expect(mock.bodies(`PUT ${one(UNDER_REVIEW_NETWORK)}/review`)).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), {
      target: { value: '  The node is not an archive node.  ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(mock.bodies(`PUT ${one(UNDER_REVIEW_NETWORK)}/review`)).toEqual([
        { decision: 'REJECT', note: 'The node is not an archive node.' },
      ]),
    );
    expect(await screen.findByText('Engine Ledger rejected')).toBeInTheDocument();
  });

  it('says so when another staff member decided first, and reads the list again', async () => {
    renderPage();
    const panel = await openDetails();
    mock.route({
      [`PUT ${one(UNDER_REVIEW_NETWORK)}/review`]: () =>
        json(
          {
            status: 409,
            code: 'NETWORK_NOT_UNDER_REVIEW',
            title: 'Conflict',
            detail: 'Only a network under review can be approved or rejected (this one is ACTIVE).',
          },
          409,
        ),
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Engine Ledger?' });
    const before = listQueries().length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText(/no longer waiting for this decision/)).toBeInTheDocument();
    expect(dialog).toHaveTextContent('(this one is ACTIVE)');
    await waitFor(() => expect(listQueries().length).toBeGreaterThan(before));
    // The dialog stays until the person closes it.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Approve Engine Ledger?' })).not.toBeInTheDocument(),
    );
  });

  it('completes a requested removal from the Removal requested tab after a confirmation', async () => {
    renderPage('/network-review?tab=removal-requested');
    const row = await rowOf(REMOVAL_NETWORK.name);
    expect(cellOf(row, 'removalRequestedAt')).toHaveTextContent('24.11.2026, 08:00');
    mock.route({
      [`PUT ${one(REMOVAL_NETWORK)}/review`]: () => json({ ...REMOVAL_NETWORK, status: 'REMOVED' }),
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Actions for Old Ledger' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Complete removal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Complete the removal of Old Ledger?' });
    expect(dialog).toHaveTextContent('asked for its removal on 24.11.2026, 08:00');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Complete removal' }));
    await waitFor(() =>
      expect(mock.bodies(`PUT ${one(REMOVAL_NETWORK)}/review`)).toEqual([{ decision: 'COMPLETE_REMOVAL' }]),
    );
    expect(await screen.findByText('Old Ledger removed')).toBeInTheDocument();
  });

  it('says when nothing waits, and when a search finds nothing offers to clear it', async () => {
    mock.route({ [`GET ${LIST}`]: () => json(reviewsAnswer([])) });
    renderPage();
    expect(await screen.findByText('No network is waiting for review.')).toBeInTheDocument();
    renderPage('/network-review?search=nothing');
    expect(await screen.findByText('No network matches this search.')).toBeInTheDocument();
  });
});
