import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TNotification, TNotificationsResponse } from '@connect/shared';
import { session } from '../../../lib/storage.ts';
import { createFetchMock, json, type Handler } from '../../../test/fixtures.ts';
import { Outlet } from 'react-router';
import { NotificationBell } from './notification-bell.tsx';
import { renderRoutes, USER_UUID } from './test-utils.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const DEPLOYED: TNotification = {
  id: '0b7d4c1e-0000-4000-8000-000000000001',
  kind: 'token.deployed',
  title: 'Token deployed',
  body: 'Ada Coin (ADA) is live on Ethereum Testnet.',
  link: '/quant-flows/token-details/ada-coin',
  // Ten seconds past the minute, so a slow run still reads "5 min ago".
  createdAt: ago(5 * MINUTE + 10_000),
  readAt: null,
};
const FAILED: TNotification = {
  id: '0b7d4c1e-0000-4000-8000-000000000002',
  kind: 'token.failed',
  title: 'Deployment failed',
  body: 'Byron Coin could not be deployed; your credits were refunded.',
  link: null,
  createdAt: ago(3 * 60 * MINUTE + 10_000),
  readAt: null,
};
const VERIFIED: TNotification = {
  id: '0b7d4c1e-0000-4000-8000-000000000003',
  kind: 'identity.verified',
  title: 'Identity verified',
  body: 'You can now select networks.',
  link: '/my-account/kyc',
  createdAt: '2025-01-05T12:00:00.000Z',
  readAt: '2025-01-05T13:00:00.000Z',
};
const LIST: TNotificationsResponse = { items: [DEPLOYED, FAILED, VERIFIED], unread: 2 };

const { fetchMock, route, bodies } = createFetchMock(() => ({
  'GET /api/connect/notifications': () => json(LIST),
  'GET /api/connect/notifications/settings': () => json({ emailEnabled: false }),
  'POST /api/connect/notifications/read': (body) => json({ unread: (body as { ids?: string[] }).ids ? 1 : 0 }),
}));

function renderBell(handlers: Record<string, Handler> = {}) {
  route(handlers);
  // The bell stays on screen across navigation, as in the top bar.
  const frame = (
    <>
      <NotificationBell />
      <Outlet />
    </>
  );
  return renderRoutes(
    [
      {
        path: '/',
        element: frame,
        children: [
          { path: 'dashboard', element: <p>Dashboard</p> },
          { path: 'quant-flows/token-details/:id', element: <p>Token details page</p> },
          { path: 'my-account/kyc', element: <p>Verification page</p> },
        ],
      },
    ],
    { route: '/dashboard' },
  );
}

/** The bell; while the list is open, MUI's modal hides the rest of the page from the accessibility tree. */
const bell = (unread?: number, { isListOpen = false } = {}) =>
  screen.findByRole('button', {
    name: unread === undefined ? /^Notifications/ : `Notifications, ${unread} unread`,
    hidden: isListOpen,
  });

async function openList(unread = 2) {
  fireEvent.click(await bell(unread));
  const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
  return dialog;
}

const badgeOf = (container: HTMLElement) => container.querySelector('.MuiBadge-badge')!;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

// Rendering MUI in jsdom is slow on a loaded machine; the frame's tests get room beyond the 5 s default.
describe('NotificationBell', { timeout: 20_000 }, () => {
  beforeEach(() => {
    session.setMarker(USER_UUID, 'QUANT_ADMIN');
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows the unread count on the bell and says it in the button’s name', async () => {
    const { container } = renderBell();
    expect(await bell(2)).toBeInTheDocument();
    expect(badgeOf(container)).toHaveTextContent('2');
    expect(badgeOf(container)).not.toHaveClass('MuiBadge-invisible');
    expect(bodies('GET /api/connect/notifications')).toHaveLength(1);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/connect/notifications?limit=20');
  });

  it('hides the badge at 0 and caps it at 99+', async () => {
    const none = renderBell({ 'GET /api/connect/notifications': () => json({ items: [VERIFIED], unread: 0 }) });
    expect(await bell(0)).toBeInTheDocument();
    expect(badgeOf(none.container)).toHaveClass('MuiBadge-invisible');
    none.unmount();

    const many = renderBell({ 'GET /api/connect/notifications': () => json({ items: [DEPLOYED], unread: 150 }) });
    expect(await bell(150)).toBeInTheDocument();
    expect(badgeOf(many.container)).toHaveTextContent('99+');
  });

  it('lists the notifications newest first with their icon, text, time and unread mark', async () => {
    renderBell();
    const dialog = await openList();
    const rows = within(dialog).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => row.querySelector('p')?.textContent)).toEqual([
      'Token deployed',
      'Deployment failed',
      'Identity verified',
    ]);

    const [deployed, failed, verified] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(deployed).getByTestId('CheckCircleOutlinedIcon')).toBeInTheDocument();
    expect(within(failed).getByTestId('ErrorOutlineOutlinedIcon')).toBeInTheDocument();
    expect(within(verified).getByTestId('CheckCircleOutlinedIcon')).toBeInTheDocument();
    expect(within(deployed).getByText('Ada Coin (ADA) is live on Ethereum Testnet.')).toBeInTheDocument();
    expect(within(deployed).getByText('5 min ago')).toBeInTheDocument();
    expect(within(failed).getByText('3 hours ago')).toBeInTheDocument();
    // Older than a week: the en-GB date with dots, and the full time on hover.
    expect(within(verified).getByText('05.01.2025')).toHaveAttribute('datetime', VERIFIED.createdAt);
    // Unread in words and in weight, not by colour alone.
    expect(within(deployed).getByText(/Unread/)).toBeInTheDocument();
    expect(within(deployed).getByText('Token deployed')).toHaveStyle({ fontWeight: 600 });
    expect(within(verified).queryByText(/Unread/)).not.toBeInTheDocument();
    expect(within(verified).getByText('Identity verified')).toHaveStyle({ fontWeight: 400 });
  });

  it('marks a notification read when it is opened and follows its link', async () => {
    const { router } = renderBell();
    const dialog = await openList();
    fireEvent.click(within(dialog).getByRole('link', { name: /Token deployed/ }));

    expect(await screen.findByText('Token details page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/quant-flows/token-details/ada-coin');
    expect(bodies('POST /api/connect/notifications/read')).toEqual([{ ids: [DEPLOYED.id] }]);
    expect(await bell(1, { isListOpen: true })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('marks a notification without a link read and keeps the list open', async () => {
    renderBell();
    const dialog = await openList();
    fireEvent.click(within(dialog).getByRole('button', { name: /Deployment failed/ }));
    expect(await bell(1, { isListOpen: true })).toBeInTheDocument();
    expect(bodies('POST /api/connect/notifications/read')).toEqual([{ ids: [FAILED.id] }]);
    const failed = within(dialog).getByRole('button', { name: /Deployment failed/ });
    expect(within(failed).queryByText(/Unread/)).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('does not mark an already read notification again', async () => {
    renderBell();
    const dialog = await openList();
    fireEvent.click(within(dialog).getByRole('link', { name: /Identity verified/ }));
    expect(await screen.findByText('Verification page')).toBeInTheDocument();
    expect(bodies('POST /api/connect/notifications/read')).toEqual([]);
  });

  it('puts the list back as the server has it when marking read fails', async () => {
    renderBell({
      'POST /api/connect/notifications/read': () => json({ status: 500, title: 'Internal Server Error' }, 500),
    });
    const dialog = await openList();
    fireEvent.click(within(dialog).getByRole('button', { name: /Deployment failed/ }));
    await waitFor(() => expect(bodies('POST /api/connect/notifications/read')).toHaveLength(1));
    await waitFor(() => expect(bodies('GET /api/connect/notifications')).toHaveLength(3));
    expect(await bell(2, { isListOpen: true })).toBeInTheDocument();
    const failed = within(dialog).getByRole('button', { name: /Deployment failed/ });
    expect(within(failed).getByText(/Unread/)).toBeInTheDocument();
  });

  it('marks all as read', async () => {
    const { container } = renderBell();
    const dialog = await openList();
    const markAll = within(dialog).getByRole('button', { name: 'Mark all as read' });
    markAll.focus();
    fireEvent.click(markAll);

    expect(await bell(0, { isListOpen: true })).toBeInTheDocument();
    expect(bodies('POST /api/connect/notifications/read')).toEqual([{}]);
    expect(within(dialog).queryByText(/Unread/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    // The disabled button cannot hold focus; it stays in the list, so Escape still closes it.
    expect(dialog).toHaveFocus();
    expect(badgeOf(container)).toHaveClass('MuiBadge-invisible');
  });

  it('shows a skeleton while the list loads', async () => {
    const answer = deferred<Response>();
    renderBell({ 'GET /api/connect/notifications': () => answer.promise as unknown as Response });
    fireEvent.click(await bell());
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(dialog).getByText('Loading notifications…')).toBeInTheDocument();
    expect(dialog.querySelector('.MuiSkeleton-root')).toBeInTheDocument();

    answer.resolve(json(LIST));
    expect(await within(dialog).findByText('Token deployed')).toBeInTheDocument();
    expect(within(dialog).queryByText('Loading notifications…')).not.toBeInTheDocument();
  });

  it('says when there is nothing to read', async () => {
    renderBell({ 'GET /api/connect/notifications': () => json({ items: [], unread: 0 }) });
    const dialog = await openList(0);
    expect(within(dialog).getByText("You're all caught up")).toBeInTheDocument();
    expect(within(dialog).queryByRole('listitem')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('shows a failed load with a retry that loads the list again', async () => {
    let isDown = true;
    renderBell({
      'GET /api/connect/notifications': () =>
        isDown ? json({ status: 500, title: 'Internal Server Error' }, 500) : json(LIST),
    });
    fireEvent.click(await bell());
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Your notifications could not be loaded.');

    isDown = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('Token deployed')).toBeInTheDocument();
    expect(await bell(2, { isListOpen: true })).toBeInTheDocument();
  });

  it('moves through the items with the arrow keys; Escape closes and gives focus back to the bell', async () => {
    renderBell();
    const button = await bell(2);
    button.focus();
    const dialog = await openList();
    const items = [
      within(dialog).getByRole('link', { name: /Token deployed/ }),
      within(dialog).getByRole('button', { name: /Deployment failed/ }),
      within(dialog).getByRole('link', { name: /Identity verified/ }),
    ];

    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(items[0]).toHaveFocus();
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(items[1]).toHaveFocus();
    fireEvent.keyDown(items[1]!, { key: 'End' });
    expect(items[2]).toHaveFocus();
    fireEvent.keyDown(items[2]!, { key: 'ArrowDown' });
    expect(items[0]).toHaveFocus();
    fireEvent.keyDown(items[0]!, { key: 'ArrowUp' });
    expect(items[2]).toHaveFocus();

    fireEvent.keyDown(items[2]!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows and saves the email setting', async () => {
    renderBell({
      'PUT /api/connect/notifications/settings': (body) => json(body),
    });
    const dialog = await openList();
    const email = await within(dialog).findByRole('switch', { name: 'Email me my notifications' });
    expect(email).not.toBeChecked();

    fireEvent.click(email);
    await waitFor(() => expect(email).toBeChecked());
    await waitFor(() => expect(bodies('PUT /api/connect/notifications/settings')).toEqual([{ emailEnabled: true }]));
    expect(within(dialog).getByRole('switch', { name: 'Email me my notifications' })).toBeChecked();
  });

  it('puts the email switch back and says so when saving fails', async () => {
    renderBell({
      'PUT /api/connect/notifications/settings': () => json({ status: 500, title: 'Internal Server Error' }, 500),
    });
    const dialog = await openList();
    const email = await within(dialog).findByRole('switch', { name: 'Email me my notifications' });
    fireEvent.click(email);

    expect(await screen.findByText('Your email setting could not be saved.')).toBeInTheDocument();
    expect(within(dialog).getByRole('switch', { name: 'Email me my notifications' })).not.toBeChecked();
  });
});
