// @vitest-environment jsdom
// (jsdom: it never fetches a script tag's src, so the test decides when Zendesk's script has loaded)
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountMenu } from '../../components/layouts/main-layout/account-menu.tsx';
import { writeConsent } from '../../components/layouts/main-layout/cookie-consent.ts';
import { fetchByPath, frameHandlers, USER_UUID } from '../../components/layouts/main-layout/test-utils.tsx';
import { renderWithProviders } from '../../test/render.tsx';
import { session } from '../storage.ts';
import { outsideTools, useOutsideTools } from './index.ts';

vi.mock('../auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const ZENDESK_KEY = '0f1e2d3c-4b5a-4697-8877-665544332211';
const helpPage = { path: '/support/help', element: <h1>Help page</h1> };

/** The signed-in frame's part that runs the tools, beside its account menu. */
function Frame() {
  useOutsideTools();
  return <AccountMenu />;
}

async function chooseSupport() {
  fireEvent.click(await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }));
  const menu = await screen.findByRole('menu');
  fireEvent.click(within(menu).getByRole('menuitem', { name: 'Support' }));
}

// Rendering MUI in jsdom is slow on a loaded machine; the frame's tests get room beyond the 5 s default.
describe('the help widget behind Support', { timeout: 20_000 }, () => {
  beforeEach(() => {
    session.setMarker(USER_UUID, 'USER');
    vi.stubGlobal('fetch', fetchByPath(frameHandlers()));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
    document.cookie = 'cookie_consent=; Max-Age=0; Path=/';
  });

  it('opens the support page when no help widget is configured (the embedded default)', async () => {
    writeConsent([1, 2, 3, 4, 5]);
    renderWithProviders(<Frame />, { route: '/dashboard', path: '/dashboard', routes: [helpPage] });
    await chooseSupport();
    expect(await screen.findByRole('heading', { name: 'Help page' })).toBeInTheDocument();
    expect(document.querySelector('script[data-outside-tool]')).toBeNull();
  });

  it("opens the provider's widget instead when one is configured and running", async () => {
    writeConsent([1, 2]);
    renderWithProviders(<Frame />, {
      route: '/dashboard',
      path: '/dashboard',
      routes: [helpPage],
      config: { outsideTools: { helpWidget: { provider: 'zendesk', key: ZENDESK_KEY } } },
    });
    const script = document.querySelector<HTMLScriptElement>('script#ze-snippet');
    expect(script?.src).toBe(`https://static.zdassets.com/ekr/snippet.js?key=${ZENDESK_KEY}`);
    const zE = vi.fn();
    window.zE = zE;
    script!.dispatchEvent(new Event('load'));
    await waitFor(() => expect(outsideTools.state('helpWidget')).toBe('on'));

    await chooseSupport();
    expect(zE).toHaveBeenCalledWith('messenger', 'open');
    expect(screen.queryByRole('heading', { name: 'Help page' })).not.toBeInTheDocument();

    // A widget that breaks when asked to open: logged, and Support falls back to the support page.
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    zE.mockImplementation(() => {
      throw new Error('widget gone');
    });
    await chooseSupport();
    expect(await screen.findByRole('heading', { name: 'Help page' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(
      'The help widget (zendesk) could not open; the page goes on without it.',
      expect.objectContaining({ message: 'widget gone' }),
    );
    errors.mockRestore();
    delete window.zE;
  });
});
