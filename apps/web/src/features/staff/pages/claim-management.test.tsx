import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TClaimStatus } from '@connect/shared';
import { describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '../test/fixtures.ts';
import {
  claimDetail,
  CLAIMS_URL,
  claimsAnswer,
  PAID_CLAIM,
  PENDING_CLAIM,
  problemBody,
} from '../test/reward-fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { ClaimManagementPage } from './claim-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const CLAIM = `/api/campaign/management/reward/claims/${PENDING_CLAIM.id}`;
const OTHER_ACCOUNT = '7b000000-0000-4000-8000-0000000000bb';
const mock = createFetchMock(() => ({
  [`GET ${CLAIMS_URL}`]: (_body, url) =>
    url.searchParams.getAll('status').includes('COMPLETED')
      ? json(claimsAnswer([PAID_CLAIM], { totalElements: 7 }))
      : json(claimsAnswer(url.searchParams.get('accountId') === OTHER_ACCOUNT ? [] : [PENDING_CLAIM])),
  [`GET ${CLAIM}`]: () => json(claimDetail(PENDING_CLAIM)),
  [`GET /api/campaign/management/reward/claims/${PAID_CLAIM.id}`]: () => json(claimDetail(PAID_CLAIM)),
}));

const listQueries = () =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === CLAIMS_URL)
    .map((url) => url.searchParams);
const pendingQueries = () => listQueries().filter((query) => query.getAll('status').includes('PENDING'));
const lastPending = () => pendingQueries().at(-1)!;

function renderPage(route = '/claim-management') {
  return renderStaffPage(<ClaimManagementPage />, { route, path: '/claim-management' });
}
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
const rowOf = async (code: string) => (await screen.findByText(code)).closest<HTMLElement>('[role="row"]')!;

describe('ClaimManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);

  it('opens on the pending tab (PENDING and PAYING), oldest first as field,order, with spec §3’s columns', async () => {
    renderPage();
    const row = await rowOf('CLM-7Q2K9X');
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Account ID',
      'Claim ID',
      'Created',
      'Amount claimed',
      'Completed',
      'Status',
      'Actions',
    ]);
    expect(pendingQueries()[0]!.getAll('status')).toEqual(['PENDING', 'PAYING']);
    expect(pendingQueries()[0]!.get('sort')).toBe('createdAt,asc');
    expect(pendingQueries()[0]!.get('page')).toBe('0');
    expect(pendingQueries()[0]!.get('size')).toBe('5');
    expect(row).toHaveTextContent('2 QNT');
    expect(row).toHaveTextContent('Pending');
    expect(header('Created')).toHaveAttribute('aria-sort', 'ascending');
    // Each tab's count, the completed one from its own request.
    await waitFor(() => expect(screen.getByRole('tab', { name: /Completed/ })).toHaveTextContent('7'));
    expect(
      listQueries()
        .find((query) => query.getAll('status').includes('COMPLETED'))!
        .getAll('status'),
    ).toEqual(['COMPLETED', 'REJECTED']);
  });

  it('cycles the sort on the wire as field,order: createdAt,desc, none, then accountId,asc', async () => {
    renderPage();
    await rowOf('CLM-7Q2K9X');
    fireEvent.click(header('Created'));
    await waitFor(() => expect(lastPending().get('sort')).toBe('createdAt,desc'));
    const before = pendingQueries().length;
    fireEvent.click(header('Created'));
    await waitFor(() => expect(pendingQueries().length).toBe(before + 1));
    expect(lastPending().has('sort')).toBe(false);
    fireEvent.click(header('Account ID'));
    await waitFor(() => expect(lastPending().get('sort')).toBe('accountId,asc'));
    // The claim id, amount and dates of completion do not sort.
    fireEvent.click(header('Claim ID'));
    fireEvent.click(header('Amount claimed'));
    expect(header('Account ID')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('filters by account id: a UUID is sent, anything else is said under the field and not sent', async () => {
    const { router } = renderPage();
    await rowOf('CLM-7Q2K9X');
    const field = screen.getByRole('textbox', { name: 'Account ID' });
    fireEvent.change(field, { target: { value: 'not-an-id' } });
    await waitFor(() => expect(field).toHaveAccessibleDescription('The account id must be a UUID.'));
    expect(listQueries().some((query) => query.has('accountId'))).toBe(false);

    fireEvent.change(field, { target: { value: ` ${OTHER_ACCOUNT} ` } });
    await waitFor(() => expect(lastPending().get('accountId')).toBe(OTHER_ACCOUNT));
    expect(new URLSearchParams(router.state.location.search).get('accountId')).toBe(OTHER_ACCOUNT);
    expect(await screen.findByText('No claim of this account on this tab.')).toBeInTheDocument();
    // An empty list is its sentence alone, not a grid without rows (axe: aria-required-children).
    expect(screen.queryByRole('grid')).toBeNull();
    expect(screen.getByRole('status', { name: 'Claims' })).toHaveTextContent('No claim of this account on this tab.');
    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await waitFor(() => expect(field).toHaveValue(''));
    // The unfiltered list again (the account's was empty).
    await rowOf('CLM-7Q2K9X');
    expect(router.state.location.search).toBe('');
  });

  it('shows a paid claim’s wallet address, transaction id and history in its details dialog', async () => {
    renderPage('/claim-management?tab=completed');
    fireEvent.click(await rowOf('CLM-PAID01'));
    const dialog = await screen.findByRole('dialog', { name: 'Claim CLM-PAID01' });
    expect(within(dialog).getByText(PAID_CLAIM.address)).toBeInTheDocument();
    const tx = within(dialog).getAllByText(PAID_CLAIM.txHash!)[0]!;
    expect(tx.tagName).toBe('CODE');
    expect(tx.closest('a')).toBeNull();
    expect(within(dialog).getAllByRole('button', { name: 'Copy the transaction ID' }).length).toBeGreaterThan(0);
    const history = await within(dialog).findByRole('list', { name: 'Transaction history' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.firstChild?.textContent),
    ).toEqual(['Claimed', 'Transaction sent', 'Confirmed on chain']);
    // Done: nothing more to do with it.
    expect(within(dialog).queryByRole('button', { name: 'Pay' })).toBeNull();
  });

  it('pays a pending claim after saying what leaves the treasury, then follows it until the chain confirms', async () => {
    let status: TClaimStatus = 'PENDING';
    let refuse = true;
    mock.route({
      [`GET ${CLAIM}`]: () =>
        json(
          claimDetail({
            ...PENDING_CLAIM,
            status,
            ...(status === 'COMPLETED' ? { txHash: PAID_CLAIM.txHash, completedAt: PAID_CLAIM.completedAt } : {}),
          }),
        ),
      [`POST ${CLAIM}/pay`]: () => {
        if (refuse) return json(problemBody('TREASURY_SHORT', 'The treasury does not hold enough QNT.'), 409);
        status = 'PAYING';
        return json({ ...PENDING_CLAIM, status });
      },
    });
    renderPage();
    fireEvent.click(within(await rowOf('CLM-7Q2K9X')).getByRole('button', { name: 'Actions for CLM-7Q2K9X' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Details',
      'Pay',
      'Reject',
      "Show this account's claims",
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Pay' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay claim CLM-7Q2K9X?' });
    expect(dialog).toHaveTextContent(
      `This sends 2 QNT to ${PENDING_CLAIM.address} from the treasury. A payment cannot be undone.`,
    );
    expect(mock.bodies(`POST ${CLAIM}/pay`)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay 2 QNT' }));
    expect(await within(dialog).findByText('The treasury does not hold enough QNT.')).toBeInTheDocument();

    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay 2 QNT' }));
    const details = await screen.findByRole('dialog', { name: 'Claim CLM-7Q2K9X' });
    expect(await within(details).findByText('Paying')).toBeInTheDocument();
    expect(mock.bodies(`POST ${CLAIM}/pay`)).toHaveLength(2);
    // The chain confirms: the next poll shows it, without a reload.
    status = 'COMPLETED';
    expect(await within(details).findByText('Paid', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(details).getAllByText(PAID_CLAIM.txHash!).length).toBeGreaterThan(0);
  });

  it('rejects a pending claim with a reason', async () => {
    mock.route({ [`POST ${CLAIM}/reject`]: () => json({ ...PENDING_CLAIM, status: 'REJECTED' }) });
    renderPage();
    fireEvent.click(await rowOf('CLM-7Q2K9X'));
    const details = await screen.findByRole('dialog', { name: 'Claim CLM-7Q2K9X' });
    fireEvent.click(await within(details).findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject claim CLM-7Q2K9X?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject claim' }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(mock.bodies(`POST ${CLAIM}/reject`)).toEqual([]);
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), {
      target: { value: 'The address belongs to a sanctioned exchange.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject claim' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.bodies(`POST ${CLAIM}/reject`)).toEqual([{ reason: 'The address belongs to a sanctioned exchange.' }]);
  });
});
