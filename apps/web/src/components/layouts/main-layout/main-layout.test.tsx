import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/storage.ts';
import { Page } from '../../page.tsx';
import { MAIN_CONTENT_ID, MENU_COLLAPSED_KEY } from './layout-constants.ts';
import { MainLayout } from './main-layout.tsx';
import { fetchByPath, frameHandlers, mockMatchMedia, renderRoutes, USER_UUID } from './test-utils.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

function renderFrame(route = '/my-networks/select-new-networks') {
  return renderRoutes(
    [
      {
        element: <MainLayout />,
        children: [
          { path: '/dashboard', element: <Page title="Dashboard">Dashboard content</Page> },
          { path: '/my-networks/select-new-networks', element: <Page title="Select new networks">Networks</Page> },
        ],
      },
    ],
    { route },
  );
}

// Rendering MUI in jsdom is slow on a loaded machine; the frame's tests get room beyond the 5 s default.
describe('MainLayout', { timeout: 20_000 }, () => {
  beforeEach(() => {
    session.setMarker(USER_UUID, 'QUANT_ADMIN');
    vi.stubGlobal('fetch', fetchByPath(frameHandlers()));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    sessionStorage.clear();
    localStorage.clear();
  });

  it('puts the frame around the page: menu, top bar, breadcrumbs above the title, footer', async () => {
    mockMatchMedia(true);
    renderFrame();
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(await within(nav).findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(await screen.findByText('Trial')).toBeInTheDocument();

    const main = screen.getByRole('main');
    const crumbs = within(main).getByRole('navigation', { name: 'Breadcrumb' });
    // The page commits one task after the frame on the frame's first mount (main-layout.tsx).
    const title = await within(main).findByRole('heading', { level: 1, name: 'Select new networks' });
    expect(crumbs.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(crumbs).getByRole('link', { name: 'My networks' })).toHaveAttribute('href', '/my-networks');

    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Who we serve' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Cookies on this portal' })).toBeInTheDocument();
  });

  it('keeps the cookie banner to a bar at the bottom edge, after the footer in the content column', async () => {
    mockMatchMedia(true);
    renderFrame('/dashboard');
    const banner = screen.getByRole('region', { name: 'Cookies on this portal' });
    const footer = screen.getByRole('contentinfo');
    // In the page's flow after the footer, so its height is kept free and it never covers the end
    // of the page; not a box floating over the content.
    expect(banner.parentElement).toBe(footer.parentElement);
    expect(banner.parentElement!.lastElementChild).toBe(banner);
    expect(banner.parentElement).toContainElement(screen.getByRole('main'));
    // Sticky at the bottom edge by its class (styles/plain-frame.css, which component tests do not
    // load); e2e/dashboard.spec.ts measures the bar against the window's bottom edge.
    expect(banner).toHaveClass('c-cookie-banner');
  });

  it('starts the tab order with a skip link to the content', async () => {
    mockMatchMedia(true);
    const { container } = renderFrame('/dashboard');
    await screen.findByText('Trial');
    const focusable = container.querySelectorAll('a[href], button:not([disabled]), [tabindex="0"]');
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(focusable[0]).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(document.getElementById(MAIN_CONTENT_ID));
    expect(document.activeElement?.tagName).toBe('MAIN');
  });

  it('collapses the side menu to icons on large screens and remembers it', async () => {
    mockMatchMedia(true);
    renderFrame('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    await within(nav).findByText('Dashboard');

    fireEvent.click(screen.getByRole('button', { name: 'Collapse menu' }));
    expect(within(nav).queryByText('Dashboard')).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Expand menu' })).toHaveAttribute('aria-expanded', 'false');
    expect(localStorage.getItem(MENU_COLLAPSED_KEY)).toBe('true');
  });

  it('opens the menu as a drawer on small screens and closes it after a choice', async () => {
    mockMatchMedia(false);
    renderFrame('/dashboard');
    await screen.findByText('Dashboard content');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    fireEvent.click(await within(nav).findByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument());
  });
});
