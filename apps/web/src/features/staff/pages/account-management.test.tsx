import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TUser } from '@connect/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT,
  ACCOUNT_FEATURES,
  ACCOUNT_OVERRIDES,
  accountsAnswer,
  ADMIN,
  createFetchMock,
  ETH_ADDRESS,
  json,
  PENDING_ACCOUNT,
  REMOVED_ACCOUNT,
  SALES,
} from '../test/fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { AccountManagementPage } from './account-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const ACCOUNTS = '/api/connect/management/accounts';
const FEATURES = `/api/connect/management/feature/account/${ACCOUNT.accountId}`;
const OVERRIDES = `/api/connect/management/accounts/${ACCOUNT.accountId}/overrides`;
const ETH_ADDRESS_URL = `/api/payment/management/account/${ACCOUNT.accountId}/eth-address`;
const TRIAL = `/api/account-plan/management/accounts/${ACCOUNT.accountId}/trial-extension`;
/** The list's rows; a test may change what the server answers next. */
let rows = [ACCOUNT, PENDING_ACCOUNT];
const mock = createFetchMock(() => ({
  [`GET ${ACCOUNTS}`]: (_body, url) =>
    json(accountsAnswer(url.searchParams.get('status') === 'REMOVED' ? [REMOVED_ACCOUNT] : rows, { totalItems: 12 })),
  [`GET ${FEATURES}`]: () => json(ACCOUNT_FEATURES),
  [`GET ${OVERRIDES}`]: () => json(ACCOUNT_OVERRIDES),
  [`GET ${ETH_ADDRESS_URL}`]: () => json(ETH_ADDRESS),
}));

const requested = () => mock.fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost'));
/** The list requests' query strings, in order. */
const listQueries = () =>
  requested()
    .filter((url) => url.pathname === ACCOUNTS)
    .map((url) => url.searchParams);
const lastQuery = () => listQueries().at(-1)!;

function renderPage(route = '/account-management', user: TUser = SALES) {
  return renderStaffPage(<AccountManagementPage />, { route, path: '/account-management' }, user);
}

/** The column headed `name` (by its text: "Plan" must not find "Plan expiry"). */
const header = (name: string) => screen.getAllByRole('columnheader').find((cell) => cell.textContent === name)!;
/** The row whose Organisation cell starts with `organisation`. */
const rowOf = async (organisation: string) => {
  const cells = await screen.findAllByRole('gridcell', { name: new RegExp(`^${organisation}`) });
  return cells.find((cell) => cell.dataset.field === 'organisationName')!.closest<HTMLElement>('[role="row"]')!;
};
const cellOf = (row: HTMLElement, field: string) => row.querySelector<HTMLElement>(`[data-field="${field}"]`)!;

async function openDetails(user: TUser) {
  renderPage('/account-management', user);
  fireEvent.click(cellOf(await rowOf(ACCOUNT.organisationName!), 'currentPlan'));
  return screen.findByRole('dialog', { name: ACCOUNT.organisationName! });
}

describe('AccountManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);
  beforeEach(() => {
    rows = [ACCOUNT, PENDING_ACCOUNT];
  });

  it('shows spec §3’s account columns, newest account first, five rows a page', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Account management' })).toBeInTheDocument();
    const row = await rowOf(ACCOUNT.organisationName!);
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Organisation',
      'Account owner',
      'Plan',
      'Plan expiry',
      'Last login',
      'Created',
      'Actions',
    ]);
    // The contract's default order, on the wire but not in the address; no status means all of them.
    expect(Object.fromEntries(listQueries()[0]!)).toEqual({ page: '0', size: '5', sort: 'createdAt:desc' });
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');

    // The owner's name over their email; a plan that is not active says so beside its name.
    expect(cellOf(row, 'accountOwner')).toHaveTextContent('Ada Lovelaceada@example.com');
    expect(cellOf(row, 'currentPlan')).toHaveTextContent('StarterPending');
    expect(cellOf(row, 'organisationName')).toHaveTextContent(/^Analytical Engines Ltd$/);
    expect(cellOf(row, 'planExpiryDate')).toHaveTextContent('02.12.2026, 10:30');
    expect(cellOf(row, 'lastLogin')).toHaveTextContent('20.11.2026, 08:15');
    expect(cellOf(row, 'createdAt')).toHaveTextContent('02.11.2026, 10:30');

    // A pending account says so beside its organisation; its owner without a name is their email.
    const pending = await rowOf(PENDING_ACCOUNT.organisationName!);
    expect(cellOf(pending, 'organisationName')).toHaveTextContent('Difference Engines plcPending');
    expect(cellOf(pending, 'accountOwner')).toHaveTextContent(/^charles@example\.com$/);
    expect(cellOf(pending, 'currentPlan')).toHaveTextContent(/^Growth$/);
    expect(cellOf(pending, 'lastLogin')).toHaveTextContent('–');
  });

  it('cycles the Organisation sort ascending → descending → none and sends organisationName:asc, :desc, then no sort', async () => {
    const { router } = renderPage();
    await rowOf(ACCOUNT.organisationName!);

    fireEvent.click(header('Organisation'));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('organisationName:asc'));
    expect(header('Organisation')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Created')).toHaveAttribute('aria-sort', 'none');
    expect(router.state.location.search).toBe('?sort=organisationName%3Aasc');

    fireEvent.click(header('Organisation'));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('organisationName:desc'));
    expect(header('Organisation')).toHaveAttribute('aria-sort', 'descending');

    const before = listQueries().length;
    fireEvent.click(header('Organisation'));
    await waitFor(() => expect(listQueries().length).toBe(before + 1));
    expect(lastQuery().has('sort')).toBe(false);
    expect(screen.getAllByRole('columnheader').filter((cell) => cell.getAttribute('aria-sort') !== 'none')).toEqual([]);

    // Plan sorts too; the owner column does not.
    fireEvent.click(header('Plan'));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('currentPlan:asc'));
    fireEvent.click(header('Account owner'));
    fireEvent.click(header('Last login'));
    expect(header('Plan')).toHaveAttribute('aria-sort', 'ascending');
    expect(lastQuery().get('sort')).toBe('currentPlan:asc');
  });

  it('filters by status: Removed sends status=REMOVED and is kept in the address; All statuses sends none', async () => {
    const { router } = renderPage('/account-management?page=2');
    await rowOf(ACCOUNT.organisationName!);
    expect(listQueries()[0]!.has('status')).toBe(false);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['All statuses', 'Active', 'Removed']);
    fireEvent.click(options[2]!);
    await waitFor(() => expect(lastQuery().getAll('status')).toEqual(['REMOVED']));
    // Another filter starts from the first page.
    expect(lastQuery().get('page')).toBe('0');
    expect(router.state.location.search).toBe('?status=removed');
    const removed = await rowOf(REMOVED_ACCOUNT.organisationName!);
    expect(cellOf(removed, 'organisationName')).toHaveTextContent('Jacquard Looms SARemoved');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(lastQuery().getAll('status')).toEqual(['ACTIVE']));

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'All statuses' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(lastQuery().has('status')).toBe(false));
  });

  it('restores the status filter, search, sort, page and size from the address', async () => {
    mock.route({
      [`GET ${ACCOUNTS}`]: () => json(accountsAnswer([REMOVED_ACCOUNT], { page: 1, size: 10, totalItems: 14 })),
    });
    renderPage('/account-management?status=removed&search=jacq&sort=currentPlan:desc&page=2&size=10');
    await rowOf(REMOVED_ACCOUNT.organisationName!);
    expect(Object.fromEntries(listQueries()[0]!)).toEqual({
      status: 'REMOVED',
      page: '1',
      size: '10',
      sort: 'currentPlan:desc',
      searchTerm: 'jacq',
    });
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('Removed');
    expect(screen.getByRole('searchbox', { name: 'Search by organisation, owner or plan' })).toHaveValue('jacq');
    expect(header('Plan')).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByText('11–14 of 14')).toBeInTheDocument();
    expect(listQueries()).toHaveLength(1);
  });

  it('searches once typing pauses, trimmed; an emptied box sends no term', async () => {
    const { router } = renderPage('/account-management?status=active&search=ada');
    await rowOf(ACCOUNT.organisationName!);
    const box = screen.getByRole('searchbox', { name: 'Search by organisation, owner or plan' });
    expect(box).toHaveValue('ada');
    for (const text of ['a', 'an', '  analytical  ']) fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(lastQuery().get('searchTerm')).toBe('analytical'));
    // One request for the pause, none for the keys before it.
    expect(listQueries().map((query) => query.get('searchTerm'))).toEqual(['ada', 'analytical']);
    // The filter stays with a new term.
    expect(lastQuery().getAll('status')).toEqual(['ACTIVE']);
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'active',
      search: 'analytical',
    });

    fireEvent.change(box, { target: { value: '   ' } });
    await waitFor(() => expect(listQueries()).toHaveLength(3));
    expect(lastQuery().has('searchTerm')).toBe(false);
    expect(router.state.location.search).toBe('?status=active');
  });

  it('says a failed load in an error notification titled "Failure loading the account list"', async () => {
    mock.route({
      [`GET ${ACCOUNTS}`]: () =>
        json({ status: 400, code: 'INVALID_REQUEST', title: 'Bad Request', detail: 'The cursor is not valid.' }, 400),
    });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failure loading the account list')).toBeInTheDocument();
    expect(within(alert).getByText('The cursor is not valid.')).toBeInTheDocument();
    mock.route({});
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await rowOf(ACCOUNT.organisationName!);
  });

  it('says there are no accounts yet, and that a search found none with a way to clear it', async () => {
    mock.route({ [`GET ${ACCOUNTS}`]: () => json(accountsAnswer([])) });
    const { router } = renderPage();
    expect(await screen.findByText('No accounts yet.')).toBeInTheDocument();
    await act(() => router.navigate('/account-management?search=zzz&status=removed'));
    expect(await screen.findByText('No account matches this search.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('opens an account’s details for sales with its features, and never asks for the admin-only deposit address', async () => {
    const panel = await openDetails(SALES);
    expect(within(panel).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(panel).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(panel).getByText('Starter')).toBeInTheDocument();
    expect(within(panel).getByText('Pending')).toBeInTheDocument();
    expect(within(panel).getByText('02.12.2026, 10:30')).toBeInTheDocument();
    expect(within(panel).getByText(ACCOUNT.accountId)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Copy the account id' })).toBeInTheDocument();

    // Each feature in words with its availability: a switch absent from the map is off.
    const features = within(panel).getByRole('region', { name: 'Features' });
    const feature = async (name: string) =>
      (await within(features).findByText(name, { selector: 'dt' })).nextElementSibling?.textContent;
    expect(await feature('Rewards')).toBe('On');
    expect(await feature('My networks')).toBe('On');
    expect(await feature('Private networks')).toBe('On');
    expect(await feature('Connect Beta')).toBe('Off');
    expect(await feature('Bridges')).toBe('On');
    expect(await feature('Applications')).toBe('Used 2 of 5');
    expect(await feature('Tokens')).toBe('Used 3 of 3');
    expect(await feature('Bridges created')).toBe('Used 7, no limit');
    expect(requested().filter((url) => url.pathname === FEATURES)).toHaveLength(1);

    // Sales never see the address, and the SPA never asks (a 403 would sign them out, spec §8).
    expect(within(panel).queryByText('Deposit address')).toBeNull();
    expect(requested().filter((url) => url.pathname.endsWith('/eth-address'))).toEqual([]);
  });

  it('shows an administrator the account’s deposit address', async () => {
    const panel = await openDetails(ADMIN);
    expect(await within(panel).findByText(ETH_ADDRESS.address)).toBeInTheDocument();
    expect(within(panel).getByText('Deposit address')).toBeInTheDocument();
    expect(requested().filter((url) => url.pathname === ETH_ADDRESS_URL)).toHaveLength(1);
  });

  it('opens the details with Enter on a row and from the row’s actions menu', async () => {
    renderPage();
    const row = await rowOf(PENDING_ACCOUNT.organisationName!);
    fireEvent.keyDown(cellOf(row, 'createdAt'), { key: 'Enter' });
    let panel = await screen.findByRole('dialog', { name: PENDING_ACCOUNT.organisationName! });
    expect(within(panel).getAllByText('Never')).toHaveLength(1);
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(
      within(await rowOf(ACCOUNT.organisationName!)).getByRole('button', {
        name: `Actions for ${ACCOUNT.organisationName!}`,
      }),
    );
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Details']);
    fireEvent.click(items[0]!);
    panel = await screen.findByRole('dialog', { name: ACCOUNT.organisationName! });
    expect(await within(panel).findByText('Used 2 of 5')).toBeInTheDocument();
  });

  it('switches a feature for the account from its panel, refreshing the panel but not the list', async () => {
    mock.route({
      [`PUT ${OVERRIDES}/connectBeta`]: (body) =>
        json({ key: 'connectBeta', value: body, setBy: SALES.id, setAt: '2026-11-22T10:00:00.000Z' }),
    });
    const panel = await openDetails(SALES);
    const features = within(panel).getByRole('region', { name: 'Features' });
    const group = await within(features).findByRole('group', { name: 'Connect Beta override' });
    const before = requested().map((url) => url.pathname);

    fireEvent.click(within(group).getByRole('button', { name: 'On' }));
    expect(await screen.findByText('Connect Beta switched on for Analytical Engines Ltd')).toBeInTheDocument();
    expect(mock.bodies(`PUT ${OVERRIDES}/connectBeta`)).toEqual([{ enabled: true }]);
    // The panel asks again for the account's overrides and features; the list is not asked again.
    expect(
      requested()
        .slice(before.length)
        .map((url) => url.pathname)
        .sort(),
    ).toEqual([FEATURES, `${OVERRIDES}/connectBeta`, OVERRIDES].sort());
    expect(within(panel).getByRole('region', { name: 'Allowances' })).toHaveTextContent('ApplicationsOverridden10Edit');
  });

  it('extends a trial from the panel: the list is asked again, and its row and the panel show the new expiry', async () => {
    const trialEndsAt = '2026-12-16T10:30:00.000Z';
    mock.route({
      [`POST ${TRIAL}`]: () => {
        rows = [{ ...ACCOUNT, planStatus: 'ACTIVE', planExpiryDate: trialEndsAt }, PENDING_ACCOUNT];
        return json({ accountId: ACCOUNT.accountId, planStatus: 'ACTIVE', trialEndsAt });
      },
    });
    const panel = await openDetails(SALES);
    const listedBefore = listQueries().length;
    fireEvent.click(within(panel).getByRole('button', { name: 'Extend trial' }));
    const dialog = screen.getByRole('dialog', { name: 'Extend the trial of Analytical Engines Ltd' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Reason/ }), {
      target: { value: 'Evaluating the mainnet tier' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend trial' }));

    expect(await screen.findByText('Trial extended to 16.12.2026, 10:30')).toBeInTheDocument();
    expect(mock.bodies(`POST ${TRIAL}`)).toEqual([{ days: 14, reason: 'Evaluating the mainnet tier' }]);
    // The page on screen is asked again (with the cursor of the page shown).
    expect(listQueries()).toHaveLength(listedBefore + 1);
    expect(Object.fromEntries(lastQuery())).toEqual({
      page: '0',
      size: '5',
      sort: 'createdAt:desc',
      cursor: 'accounts-0',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Extend the trial/ })).toBeNull());
    // The list behind the panel (hidden from the accessibility tree while the panel is open).
    const listed = document.querySelector<HTMLElement>(`[role="row"][data-id="${ACCOUNT.accountId}"]`)!;
    expect(cellOf(listed, 'planExpiryDate')).toHaveTextContent('16.12.2026, 10:30');
    await waitFor(() => expect(within(panel).getByText('16.12.2026, 10:30')).toBeInTheDocument());
    expect(within(panel).queryByText('02.12.2026, 10:30')).toBeNull();
    // The plan, pending before, is active again.
    expect(within(panel).getByText('Plan status', { selector: 'dt' }).nextElementSibling).toHaveTextContent(/^Active$/);
  });
});
