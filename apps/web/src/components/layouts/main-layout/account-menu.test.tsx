import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signOutEverywhere } from '../../../lib/auth.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { AccountMenu } from './account-menu.tsx';
import { fetchByPath, frameHandlers, json, newQueryClient, TEST_USER, USER_UUID } from './test-utils.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => {
    sessionStorage.clear();
  }),
}));

const loginPage = { path: '/login', element: <h1>Login page</h1> };

// Rendering MUI in jsdom is slow on a loaded machine; the frame's tests get room beyond the 5 s default.
describe('AccountMenu', { timeout: 20_000 }, () => {
  beforeEach(() => {
    session.setMarker(USER_UUID, 'QUANT_ADMIN');
    vi.stubGlobal('fetch', fetchByPath(frameHandlers()));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(signOutEverywhere).mockClear();
    sessionStorage.clear();
  });

  async function openMenu() {
    const button = await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(within(button).getByText('AL')).toBeInTheDocument();
    fireEvent.click(button);
    return screen.findByRole('menu');
  }

  it("shows the user's name and email and the account links", async () => {
    renderWithProviders(<AccountMenu />, { route: '/dashboard', path: '/dashboard', routes: [loginPage] });
    const menu = await openMenu();
    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();
    const hrefs = Object.fromEntries(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => [item.textContent, item.getAttribute('href')]),
    );
    expect(hrefs).toEqual({
      'My account': '/my-account',
      Profile: '/my-account',
      Invoices: '/invoices/my-invoices',
      Support: '/support/help',
      'Log out': null,
    });
  });

  it('leads to the invoices, built now (issue 18): no "coming soon" mark', async () => {
    renderWithProviders(<AccountMenu />, { route: '/dashboard', path: '/dashboard', routes: [loginPage] });
    const menu = await openMenu();
    expect(within(menu).getByRole('menuitem', { name: 'Invoices' })).not.toHaveAccessibleDescription();
    expect(within(menu).getByRole('menuitem', { name: 'Support' })).not.toHaveAccessibleDescription();
  });

  it('falls back to the email when the user has no name yet', async () => {
    vi.stubGlobal(
      'fetch',
      fetchByPath(
        frameHandlers({
          [`/api/connect/user/${USER_UUID}`]: () => json({ ...TEST_USER, firstName: null, lastName: null }),
        }),
      ),
    );
    renderWithProviders(<AccountMenu />, { route: '/dashboard', path: '/dashboard' });
    const button = await screen.findByRole('button', { name: 'Account menu for ada@example.com' });
    expect(within(button).getByText('A')).toBeInTheDocument();
  });

  it('logs out: signs out everywhere, clears the query cache and goes to /login', async () => {
    const queryClient = newQueryClient();
    const { router } = renderWithProviders(<AccountMenu />, {
      route: '/dashboard',
      path: '/dashboard',
      routes: [loginPage],
      queryClient,
    });
    const menu = await openMenu();
    expect(queryClient.getQueryCache().getAll().length).toBeGreaterThan(0);

    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Log out' }));

    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
    expect(signOutEverywhere).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/login');
    await waitFor(() => expect(queryClient.getQueryCache().getAll()).toHaveLength(0));
  });
});
