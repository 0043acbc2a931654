import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN,
  createFetchMock,
  CUSTOMER,
  ETH_ADDRESS,
  json,
  REMOVED,
  SELF,
  STAFF,
  usersAnswer,
} from '../test/fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { UserManagementPage } from './user-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USERS = '/api/connect/management/users';
const ROWS = [CUSTOMER, STAFF, SELF];
const mock = createFetchMock(() => ({
  [`GET ${USERS}`]: (_body, url) =>
    json(usersAnswer(url.searchParams.get('status') === 'REMOVED' ? [REMOVED] : ROWS, { totalItems: 12 })),
  'GET /api/payment/management/eth-address-stats': () => json({ totalAddresses: 1300, totalUnallocatedAddresses: 66 }),
  [`GET /api/payment/management/account/${CUSTOMER.accountId}/eth-address`]: () => json(ETH_ADDRESS),
}));

/** The list requests' query strings, in order. */
const listQueries = () =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === USERS)
    .map((url) => url.searchParams);
const lastQuery = () => listQueries().at(-1)!;

function renderPage(route = '/user-management') {
  return renderStaffPage(<UserManagementPage />, { route, path: '/user-management' });
}

const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
/** The row whose Email cell reads `email`. */
const rowOf = async (email: string) => {
  const cells = await screen.findAllByRole('gridcell', { name: email });
  return cells.find((cell) => cell.dataset.field === 'email')!.closest<HTMLElement>('[role="row"]')!;
};

describe('UserManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the active tab with spec §3’s columns, newest status change first, five rows a page', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'User management' })).toBeInTheDocument();
    await rowOf('ada@example.com');
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'First name',
      'Last name',
      'Email',
      'Role',
      'Organisation',
      'Status changed',
      'Added by',
      'KYC',
      'Actions',
    ]);
    const first = listQueries()[0]!;
    expect(Object.fromEntries(first)).toEqual({ status: 'ACTIVE', page: '0', size: '5', sort: 'statusChangedAt:desc' });
    expect(header('Status changed')).toHaveAttribute('aria-sort', 'descending');
  });

  it('cycles a column’s sort none → ascending → descending → none and sends field:asc, field:desc, then no sort', async () => {
    const { router } = renderPage();
    await rowOf('ada@example.com');

    fireEvent.click(header('First name'));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('firstName:asc'));
    expect(header('First name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Status changed')).toHaveAttribute('aria-sort', 'none');
    expect(router.state.location.search).toContain('sort=firstName%3Aasc');

    fireEvent.click(header('First name'));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('firstName:desc'));
    expect(header('First name')).toHaveAttribute('aria-sort', 'descending');

    // The third click: no sort at all, on the wire ('' is sent as no parameter) and on screen.
    const before = listQueries().length;
    fireEvent.click(header('First name'));
    await waitFor(() => expect(listQueries().length).toBe(before + 1));
    expect(lastQuery().get('sort') ?? '').toBe('');
    expect(screen.getAllByRole('columnheader').filter((cell) => cell.getAttribute('aria-sort') !== 'none')).toEqual([]);
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('');

    // Another column starts ascending again.
    fireEvent.click(header('Email'));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('email:asc'));
    // Added by and KYC do not sort.
    fireEvent.click(header('Added by'));
    fireEvent.click(header('KYC'));
    expect(header('Email')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('pages one-based on screen, zero-based on the wire, sending the cursor of the page shown', async () => {
    mock.route({
      [`GET ${USERS}`]: (_body, url) => {
        const page = Number(url.searchParams.get('page'));
        return json(usersAnswer(ROWS, { page, totalItems: 30, cursor: `cursor-${page}` }));
      },
    });
    const { router } = renderPage();
    await rowOf('ada@example.com');
    expect(lastQuery().get('cursor')).toBeNull();
    expect(screen.getByText('1–5 of 30')).toBeInTheDocument();

    const go = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
    go('Go to next page');
    await waitFor(() => expect(lastQuery().get('page')).toBe('1'));
    expect(lastQuery().get('cursor')).toBe('cursor-0');
    expect(router.state.location.search).toContain('page=2');
    await screen.findByText('6–10 of 30');

    go('Go to next page');
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    expect(lastQuery().get('cursor')).toBe('cursor-1');
    await screen.findByText('11–15 of 30');

    go('Go to last page');
    await waitFor(() => expect(lastQuery().get('page')).toBe('5'));
    expect(lastQuery().get('cursor')).toBe('cursor-2');
    expect(router.state.location.search).toContain('page=6');
    await screen.findByText('26–30 of 30');

    go('Go to previous page');
    await waitFor(() => expect(lastQuery().get('page')).toBe('4'));
    expect(lastQuery().get('cursor')).toBe('cursor-5');
    expect(router.state.location.search).toContain('page=5');
  });

  it('offers the page sizes 5, 10, 50 and 100; another size starts from the first page', async () => {
    const { router } = renderPage('/user-management?page=2');
    await rowOf('ada@example.com');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Rows per page/ }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['5', '10', '50', '100']);
    fireEvent.click(options[2]!);
    await waitFor(() => expect(lastQuery().get('size')).toBe('50'));
    expect(lastQuery().get('page')).toBe('0');
    expect(router.state.location.search).toBe('?size=50');
  });

  it('searches once typing pauses, trimmed; an emptied box sends no term', async () => {
    const { router } = renderPage('/user-management?search=bob&page=2');
    await rowOf('ada@example.com');
    expect(listQueries()[0]!.get('searchTerm')).toBe('bob');
    const box = screen.getByRole('searchbox', { name: 'Search by name, email or organisation' });
    expect(box).toHaveValue('bob');

    for (const text of ['a', 'ad', '  ada  ']) fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(lastQuery().get('searchTerm')).toBe('ada'));
    // One request for the pause, none for the keys before it; a new term starts from the first page.
    expect(listQueries().map((query) => query.get('searchTerm'))).toEqual(['bob', 'ada']);
    expect(lastQuery().get('page')).toBe('0');
    expect(new URLSearchParams(router.state.location.search).get('search')).toBe('ada');

    fireEvent.change(box, { target: { value: '   ' } });
    await waitFor(() => expect(listQueries()).toHaveLength(3));
    expect(lastQuery().has('searchTerm')).toBe(false);
    expect(router.state.location.search).toBe('');
  });

  it('restores the tab, search, sort, page and size from the address', async () => {
    mock.route({
      [`GET ${USERS}`]: () => json(usersAnswer([STAFF], { page: 2, size: 50, totalItems: 160 })),
    });
    renderPage('/user-management?tab=pending&search=ada&sort=email:asc&page=3&size=50');
    await rowOf(STAFF.email);
    expect(Object.fromEntries(listQueries()[0]!)).toEqual({
      status: 'PENDING',
      page: '2',
      size: '50',
      sort: 'email:asc',
      searchTerm: 'ada',
    });
    expect(screen.getByRole('tab', { name: /Pending/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('searchbox')).toHaveValue('ada');
    expect(header('Email')).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByText('101–150 of 160')).toBeInTheDocument();
    // The grid kept the page of the address: nothing asked for another one.
    expect(listQueries().map((query) => query.get('page'))).toEqual(['2']);
  });

  it('shows each tab’s count and switches tabs in lower case in the address, upper case on the wire', async () => {
    const { router } = renderPage();
    await rowOf('ada@example.com');
    expect(screen.getByRole('tab', { name: 'Active 12' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Pending 3' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Removed 1' }));
    await waitFor(() => expect(lastQuery().get('status')).toBe('REMOVED'));
    expect(router.state.location.search).toBe('?tab=removed');
  });

  it('heads the removed tab’s last data column "Removed by" and offers only details and restore there', async () => {
    renderPage('/user-management?tab=removed');
    const row = await rowOf(REMOVED.email);
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'First name',
      'Last name',
      'Email',
      'Role',
      'Organisation',
      'Status changed',
      'Removed by',
      'KYC',
      'Actions',
    ]);
    expect(within(row).getByRole('gridcell', { name: 'grace@connect.example' })).toBeInTheDocument();
    fireEvent.click(within(row).getByRole('button', { name: `Actions for ${REMOVED.email}` }));
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Details', 'Restore']);
  });

  it('restores a removed user after a confirmation, then reloads the list and counts', async () => {
    mock.route({ 'POST /api/connect/management/user/restore': () => json({ ...REMOVED, status: 'ACTIVE' }) });
    renderPage('/user-management?tab=removed');
    fireEvent.click(within(await rowOf(REMOVED.email)).getByRole('button', { name: `Actions for ${REMOVED.email}` }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Restore' }));
    const dialog = await screen.findByRole('dialog', { name: /^Restore .+\?$/ });
    expect(dialog).toHaveTextContent('can sign in again');
    const before = listQueries().length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore user' }));
    await waitFor(() =>
      expect(mock.bodies('POST /api/connect/management/user/restore')).toEqual([{ userId: REMOVED.userId }]),
    );
    expect(await screen.findByText(/ restored$/)).toBeInTheDocument();
    await waitFor(() => expect(listQueries().length).toBe(before + 1));
  });

  it('says a failed load in an error notification titled "Failure loading the user list"', async () => {
    mock.route({
      [`GET ${USERS}`]: () =>
        json({ status: 400, code: 'INVALID_REQUEST', title: 'Bad Request', detail: 'The cursor is not valid.' }, 400),
    });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failure loading the user list')).toBeInTheDocument();
    expect(within(alert).getByText('The cursor is not valid.')).toBeInTheDocument();
    // The list itself offers the retry.
    mock.route({});
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await rowOf('ada@example.com');
  });

  it('shows a capped total as "10,000+" and offers no jump to the last page', async () => {
    mock.route({
      [`GET ${USERS}`]: () => json(usersAnswer(ROWS, { totalItems: 10_000, totalCapped: true })),
    });
    renderPage('/user-management?search=a');
    await rowOf('ada@example.com');
    expect(screen.getByText('1–5 of 10,000+')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Go to last page' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeEnabled();
  });

  it('shows an empty tab’s sentence, and a search that found nothing with a way to clear it', async () => {
    mock.route({ [`GET ${USERS}`]: () => json(usersAnswer([])) });
    const { router } = renderPage('/user-management?tab=pending');
    expect(await screen.findByText('No invitations are waiting to be accepted.')).toBeInTheDocument();
    await act(() => router.navigate('/user-management?tab=pending&search=zzz'));
    expect(await screen.findByText('No user matches this search.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=pending'));
  });

  it('opens a customer’s details on a click: logins, account id, deposit address and MFA in the spec’s words', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('ada@example.com')).getByRole('gridcell', { name: 'Lovelace' }));
    const panel = await screen.findByRole('dialog', { name: 'Ada Lovelace' });
    expect(within(panel).getByText('MFA is active')).toBeInTheDocument();
    expect(within(panel).getByText('02.11.2026, 11:00')).toBeInTheDocument();
    expect(within(panel).getByText('20.11.2026, 08:15')).toBeInTheDocument();
    expect(within(panel).getByText(CUSTOMER.accountId)).toBeInTheDocument();
    expect(await within(panel).findByText(ETH_ADDRESS.address)).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens a staff member’s details with Enter, without asking for a deposit address', async () => {
    renderPage();
    const cell = within(await rowOf(STAFF.email)).getByRole('gridcell', { name: STAFF.email });
    fireEvent.keyDown(cell, { key: 'Enter' });
    const panel = await screen.findByRole('dialog', { name: 'Katherine Johnson' });
    expect(within(panel).getByText('MFA will be active on first login')).toBeInTheDocument();
    expect(within(panel).queryByText('Deposit address')).toBeNull();
    expect(within(panel).getAllByText('Never')).toHaveLength(2);
    expect(mock.fetchMock.mock.calls.some(([url]) => String(url).endsWith('/eth-address'))).toBe(false);
  });

  it('removes a user after a confirmation naming them, then reloads the list and counts', async () => {
    mock.route({ [`DELETE /api/connect/management/user`]: () => json({ ...CUSTOMER, status: 'REMOVED' }) });
    renderPage();
    const row = await rowOf('ada@example.com');
    // One's own row offers no removal (the server refuses it: CANNOT_CHANGE_SELF).
    fireEvent.click(within(await rowOf(ADMIN.email)).getByRole('button', { name: `Actions for ${ADMIN.email}` }));
    expect(
      within(await screen.findByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Details', 'Edit', 'Reset MFA']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    fireEvent.click(within(row).getByRole('button', { name: 'Actions for ada@example.com' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Ada Lovelace?' });
    expect(dialog).toHaveTextContent('Ada Lovelace (ada@example.com) can no longer sign in');
    const before = listQueries().length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove user' }));
    await waitFor(() =>
      expect(mock.bodies('DELETE /api/connect/management/user')).toEqual([{ userId: CUSTOMER.userId }]),
    );
    expect(await screen.findByText('Ada Lovelace removed')).toBeInTheDocument();
    await waitFor(() => expect(listQueries().length).toBe(before + 1));
  });

  it('shows the server’s refusal in the confirmation (the last administrator)', async () => {
    mock.route({
      'POST /api/connect/management/reset-mfa': () =>
        json({ status: 409, code: 'LAST_ADMIN', detail: 'The last administrator cannot be removed or demoted.' }, 409),
    });
    renderPage();
    fireEvent.click(within(await rowOf(STAFF.email)).getByRole('button', { name: `Actions for ${STAFF.email}` }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Reset MFA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset MFA for Katherine Johnson?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    expect(await within(dialog).findByText('The last administrator cannot be removed or demoted.')).toBeInTheDocument();
    expect(mock.bodies('POST /api/connect/management/reset-mfa')).toEqual([{ userId: STAFF.userId }]);
  });

  it('edits a customer within the customer roles, and a staff member within the staff roles', async () => {
    mock.route({ 'PUT /api/connect/management/user': (body) => json({ ...CUSTOMER, ...(body as object) }) });
    renderPage();
    const openEdit = async (email: string) => {
      fireEvent.click(within(await rowOf(email)).getByRole('button', { name: `Actions for ${email}` }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
      return screen.findByRole('dialog', { name: `Edit ${email}` });
    };
    const roleOptions = async (dialog: HTMLElement) => {
      fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Role/ }));
      const listbox = await screen.findByRole('listbox');
      return within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent);
    };

    let dialog = await openEdit(STAFF.email);
    expect(await roleOptions(dialog)).toEqual(['Administrator', 'Sales']);
    expect(within(dialog).queryByRole('textbox', { name: 'Organisation' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    dialog = await openEdit(CUSTOMER.email);
    expect(await roleOptions(dialog)).toEqual(['Individual', 'Small or medium-sized enterprise', 'Institution']);
    fireEvent.click(screen.getByRole('option', { name: 'Institution' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: /First name/ }), { target: { value: 'Augusta' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(mock.bodies('PUT /api/connect/management/user')).toEqual([
        {
          userId: CUSTOMER.userId,
          firstName: 'Augusta',
          lastName: 'Lovelace',
          role: 'INSTITUTION',
          organisationName: 'Analytical Engines Ltd',
        },
      ]),
    );
    expect(await screen.findByText('ada@example.com updated')).toBeInTheDocument();
  });
});
