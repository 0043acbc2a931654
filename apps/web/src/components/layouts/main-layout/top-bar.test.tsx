import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TPlanInfo } from '@connect/shared';
import { refreshPlanQueries } from '../../../lib/plans/api.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { fetchByPath, frameHandlers, json, newQueryClient, TRIAL_PLAN, USER_UUID } from './test-utils.tsx';
import { TopBar } from './top-bar.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const topBar = (
  <TopBar isDesktop isMenuCollapsed={false} isMobileMenuOpen={false} menuId="menu" onMenuButton={() => undefined} />
);

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

// Rendering MUI in jsdom is slow on a loaded machine; the frame's tests get room beyond the 5 s default.
describe('TopBar', { timeout: 20_000 }, () => {
  beforeEach(() => {
    session.setMarker(USER_UUID, 'QUANT_ADMIN');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it('shows a skeleton while the plan loads, then the plan name and an upgrade button', async () => {
    const answer = deferred<Response>();
    vi.stubGlobal('fetch', fetchByPath(frameHandlers({ '/api/account-plan/user-plan': () => answer.promise })));
    const { container } = renderWithProviders(topBar, { route: '/dashboard', path: '*' });

    expect(container.querySelector('.MuiSkeleton-root')).toBeInTheDocument();
    expect(screen.getByText('Loading your plan…')).toBeInTheDocument();
    expect(screen.queryByText('Trial')).not.toBeInTheDocument();

    answer.resolve(json(TRIAL_PLAN));
    expect(await screen.findByText('Trial')).toBeInTheDocument();
    expect(container.querySelector('.MuiSkeleton-root')).not.toBeInTheDocument();
    expect(screen.queryByText('Loading your plan…')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/account-plan/upgrade');
  });

  it('replaces the upgrade button with a disabled Pending label while the plan is PENDING', async () => {
    const pending: TPlanInfo = { ...TRIAL_PLAN, name: 'Annual Subscription', status: 'PENDING' };
    vi.stubGlobal('fetch', fetchByPath(frameHandlers({ '/api/account-plan/user-plan': () => json(pending) })));
    renderWithProviders(topBar, { route: '/dashboard', path: '*' });

    const label = await screen.findByRole('button', { name: 'Pending' });
    expect(label).toBeDisabled();
    expect(screen.getByText('Annual Subscription')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade plan' })).not.toBeInTheDocument();
  });

  it('reads the plan again right after an order, not only every 10 minutes', async () => {
    let plan: TPlanInfo = TRIAL_PLAN;
    vi.stubGlobal('fetch', fetchByPath(frameHandlers({ '/api/account-plan/user-plan': () => json(plan) })));
    const queryClient = newQueryClient();
    renderWithProviders(topBar, { route: '/dashboard', path: '*', queryClient });
    expect(await screen.findByRole('link', { name: 'Upgrade plan' })).toBeInTheDocument();

    // The upgrade journey placed a bank-transfer order: the plan is PENDING now.
    plan = { ...TRIAL_PLAN, status: 'PENDING' };
    await refreshPlanQueries(queryClient);
    expect(await screen.findByRole('button', { name: 'Pending' })).toBeDisabled();
  });

  it('says when the plan is not active, in words', async () => {
    const inactive: TPlanInfo = { ...TRIAL_PLAN, status: 'INACTIVE' };
    vi.stubGlobal('fetch', fetchByPath(frameHandlers({ '/api/account-plan/user-plan': () => json(inactive) })));
    renderWithProviders(topBar, { route: '/dashboard', path: '*' });
    expect(await screen.findByText('(Inactive)')).toBeInTheDocument();
  });

  it('shows a plan name cut short by the ellipsis in full in a tooltip, and no tooltip for one that fits', async () => {
    const annual: TPlanInfo = { ...TRIAL_PLAN, name: 'Annual Subscription — Standard' };
    vi.stubGlobal('fetch', fetchByPath(frameHandlers({ '/api/account-plan/user-plan': () => json(annual) })));
    renderWithProviders(topBar, { route: '/dashboard', path: '*' });
    const label = (await screen.findByText(annual.name)).closest('p')!;
    // jsdom lays nothing out: the label is given the room its text needs, then less.
    const setWidths = (room: number) =>
      Object.defineProperties(label, {
        scrollWidth: { value: 320, configurable: true },
        clientWidth: { value: room, configurable: true },
      });

    setWidths(320);
    vi.useFakeTimers();
    try {
      fireEvent.mouseOver(label);
      // Well past the enter delay, when the tooltip asks whether to open.
      act(() => vi.advanceTimersByTime(1_000));
      expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
      fireEvent.mouseLeave(label);
      act(() => vi.advanceTimersByTime(1_000));
    } finally {
      vi.useRealTimers();
    }

    setWidths(200);
    fireEvent.mouseOver(label);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(annual.name);
  });

  it('only logs a plan that fails to load (spec §8)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      fetchByPath(frameHandlers({ '/api/account-plan/user-plan': () => json({ status: 500, title: 'Boom' }, 500) })),
    );
    const { container } = renderWithProviders(topBar, { route: '/dashboard', path: '*' });
    await waitFor(() => expect(log).toHaveBeenCalledWith('The plan info could not be loaded', expect.anything()));
    expect(container.querySelector('.MuiSkeleton-root')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toBeInTheDocument();
  });

  it('shows the Sandbox chip only when the identity provider is the sandbox', async () => {
    vi.stubGlobal('fetch', fetchByPath(frameHandlers()));
    const sandbox = renderWithProviders(topBar, {
      route: '/dashboard',
      path: '*',
      config: { sandboxes: { identity: true, mail: true } },
    });
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
    sandbox.unmount();

    renderWithProviders(topBar, {
      route: '/dashboard',
      path: '*',
      config: { sandboxes: { identity: false, mail: true } },
    });
    expect(screen.queryByText('Sandbox')).not.toBeInTheDocument();
    await screen.findByText('Trial');
  });

  it('links the logo to the dashboard and labels the menu button for what it does', () => {
    vi.stubGlobal('fetch', fetchByPath(frameHandlers()));
    renderWithProviders(topBar, { route: '/dashboard', path: '*' });
    expect(screen.getByRole('link', { name: 'Quant Connect' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('button', { name: 'Collapse menu' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows the notification bell with its unread count left of the account menu', async () => {
    vi.stubGlobal(
      'fetch',
      fetchByPath(frameHandlers({ '/api/connect/notifications': () => json({ items: [], unread: 4 }) })),
    );
    renderWithProviders(topBar, { route: '/dashboard', path: '*' });
    const bell = await screen.findByRole('button', { name: 'Notifications, 4 unread' });
    const account = await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(bell.compareDocumentPosition(account) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
