// @vitest-environment jsdom
// (jsdom: it never fetches a script tag's src, so each test decides whether the provider's script loads or fails)
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TOutsideTools } from '@connect/shared';
import { TEST_RUNTIME_CONFIG } from '../../test/render.tsx';

const USER_ID = '6f0c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';

/** The modules afresh for each test: the tools' controller, its adapters and the consent listeners are per page. */
async function freshPage(outsideTools?: TOutsideTools) {
  vi.resetModules();
  const consent = await import('../../components/layouts/main-layout/cookie-consent.ts');
  const config = await import('../runtime-config.ts');
  const tools = await import('./index.ts');
  config.setRuntimeConfig({ ...TEST_RUNTIME_CONFIG, ...(outsideTools ? { outsideTools } : {}) });
  sessionStorage.setItem('userUuid', USER_ID);
  sessionStorage.setItem('role', 'USER');
  function Page() {
    tools.useOutsideTools();
    const showsChecklist = tools.useShowsGettingStartedChecklist();
    return (
      <main>
        <h1>Dashboard</h1>
        {showsChecklist ? <section aria-label="Getting started" /> : null}
      </main>
    );
  }
  const view = render(<Page />);
  const choose = (categories: number[]) =>
    act(() => {
      consent.writeConsent(categories as Parameters<typeof consent.writeConsent>[0]);
    });
  return { view, choose, tools, consent };
}

/** The outside scripts in the page: the tags the adapters added. */
const outsideScripts = () =>
  [...document.querySelectorAll<HTMLScriptElement>('script[data-outside-tool]')].map((script) => script.src);

function scriptOf(tool: string): HTMLScriptElement {
  const script = document.querySelector<HTMLScriptElement>(`script[data-outside-tool="${tool}"]`);
  if (!script) throw new Error(`no ${tool} script in the page`);
  return script;
}

const POSTHOG: TOutsideTools = {
  productAnalytics: { provider: 'posthog', key: 'phc_testkey0123456789', host: 'https://eu.i.posthog.com' },
};

describe('the outside tools', () => {
  let errors: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    // Closed first, while the tools it signs out are still in the page.
    cleanup();
    document.cookie = 'cookie_consent=; Max-Age=0; Path=/';
    for (const script of document.querySelectorAll('script[data-outside-tool]')) script.remove();
    delete window.posthog;
    delete window.hj;
    delete window._hjSettings;
    delete window.zE;
    delete window.Appcues;
    delete window.AppcuesSettings;
    sessionStorage.clear();
    vi.restoreAllMocks();
  });

  it('load nothing when none is configured, whatever the consent', async () => {
    const { choose } = await freshPage();
    choose([1, 2, 3, 4, 5]);
    expect(outsideScripts()).toEqual([]);
    expect(window.posthog).toBeUndefined();
    expect(window.hj).toBeUndefined();
    expect(screen.getByRole('region', { name: 'Getting started' })).toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
  });

  it("add the analytics provider's script only after consent to Measurement, identifying the user by id only", async () => {
    const { choose } = await freshPage(POSTHOG);
    expect(outsideScripts()).toEqual([]);
    // Every other category, but not Measurement (4): still nothing.
    choose([1, 2, 3, 5]);
    expect(outsideScripts()).toEqual([]);
    expect(window.posthog).toBeUndefined();

    choose([1, 4]);
    expect(outsideScripts()).toEqual(['https://eu-assets.i.posthog.com/static/array.js']);
    const stub = window.posthog!;
    expect(stub._i).toEqual([
      [
        'phc_testkey0123456789',
        expect.objectContaining({ api_host: 'https://eu.i.posthog.com', disable_session_recording: true }),
        undefined,
      ],
    ]);
    // Queued for the library: capturing allowed, the user's opaque id, nothing else about them.
    expect([...stub]).toEqual([['opt_in_capturing'], ['identify', USER_ID]]);
    expect(JSON.stringify([...stub, ...stub._i!])).not.toContain('@');
  });

  it('stop the analytics when consent to Measurement is withdrawn', async () => {
    const { choose, tools } = await freshPage(POSTHOG);
    choose([1, 4]);
    // The library arrives and takes the stub's place, as array.js does.
    const library = {
      init: vi.fn(),
      identify: vi.fn(),
      capture: vi.fn(),
      reset: vi.fn(),
      opt_in_capturing: vi.fn(),
      opt_out_capturing: vi.fn(),
    };
    window.posthog = library as unknown as typeof window.posthog;
    scriptOf('posthog').dispatchEvent(new Event('load'));
    await waitFor(() => expect(tools.outsideTools.state('productAnalytics')).toBe('on'));

    choose([1, 2, 3]);
    expect(library.opt_out_capturing).toHaveBeenCalledTimes(1);
    expect(library.reset).toHaveBeenCalledTimes(1);
    expect(tools.outsideTools.state('productAnalytics')).toBe('off');

    // Given again: captures again, for the same user, without a second script.
    choose([1, 4]);
    expect(library.opt_in_capturing).toHaveBeenCalledTimes(1);
    expect(library.identify).toHaveBeenCalledWith(USER_ID);
    expect(outsideScripts()).toHaveLength(1);
  });

  it('log a script that fails to load, show nothing of it, and leave the page working', async () => {
    const { choose, tools } = await freshPage({ sessionRecording: { provider: 'hotjar', key: '1234567' } });
    choose([1, 3]);
    expect(outsideScripts()).toEqual(['https://static.hotjar.com/c/hotjar-1234567.js?sv=6']);
    expect(window._hjSettings).toEqual({ hjid: 1234567, hjsv: 6 });
    expect(window.hj?.q).toEqual([['identify', USER_ID, {}]]);

    scriptOf('hotjar').dispatchEvent(new Event('error'));
    await waitFor(() => expect(tools.outsideTools.state('sessionRecording')).toBe('failed'));
    expect(errors).toHaveBeenCalledWith(
      'The session recording (hotjar) could not start; the page goes on without it.',
      expect.objectContaining({ message: expect.stringContaining('hotjar-1234567.js') }),
    );
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/hotjar|could not/i);
  });

  it('show the getting-started checklist unless the onboarding provider is allowed and working', async () => {
    const { choose, tools } = await freshPage({ onboarding: { provider: 'appcues', key: '98765' } });
    const checklist = () => screen.queryByRole('region', { name: 'Getting started' });
    // No consent yet: the embedded default, and no Appcues.
    expect(checklist()).toBeInTheDocument();
    choose([1, 3, 4]);
    expect(checklist()).toBeInTheDocument();
    expect(outsideScripts()).toEqual([]);

    // Functionality (2) allows it: Appcues loads, is identified, and takes the checklist's place.
    choose([1, 2]);
    expect(outsideScripts()).toEqual(['https://fast.appcues.com/98765.js']);
    expect(window.AppcuesSettings).toEqual({ enableURLDetection: true });
    expect(checklist()).not.toBeInTheDocument();
    const appcues = { identify: vi.fn(), reset: vi.fn(), page: vi.fn() };
    window.Appcues = appcues;
    scriptOf('appcues').dispatchEvent(new Event('load'));
    await waitFor(() => expect(appcues.identify).toHaveBeenCalledWith(USER_ID));

    // Withdrawn: Appcues forgets the user (no flows) and the checklist is back.
    choose([1]);
    expect(appcues.reset).toHaveBeenCalledTimes(1);
    expect(checklist()).toBeInTheDocument();
    expect(tools.outsideTools.state('onboarding')).toBe('off');
  });

  it('bring the checklist back when the onboarding provider fails to start', async () => {
    const { choose } = await freshPage({ onboarding: { provider: 'appcues', key: '98765' } });
    choose([1, 2]);
    expect(screen.queryByRole('region', { name: 'Getting started' })).not.toBeInTheDocument();
    // The script loads but defines nothing: identify throws.
    scriptOf('appcues').dispatchEvent(new Event('load'));
    expect(await screen.findByRole('region', { name: 'Getting started' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(
      'The onboarding tool (appcues) could not start; the page goes on without it.',
      expect.any(Error),
    );
  });

  it('tell the tools to forget the user when the signed-in frame closes', async () => {
    const { choose, view, tools } = await freshPage(POSTHOG);
    choose([1, 4]);
    const library = { reset: vi.fn(), opt_in_capturing: vi.fn(), identify: vi.fn() };
    window.posthog = library as unknown as typeof window.posthog;
    scriptOf('posthog').dispatchEvent(new Event('load'));
    await waitFor(() => expect(tools.outsideTools.state('productAnalytics')).toBe('on'));
    view.unmount();
    expect(library.reset).toHaveBeenCalledTimes(1);
    expect(tools.outsideTools.state('productAnalytics')).toBe('off');
  });
});

describe('withdrawing consent from a provider that cannot stop in the page', () => {
  afterEach(() => {
    for (const script of document.querySelectorAll('script[data-outside-tool]')) script.remove();
    delete window.hj;
    delete window._hjSettings;
    document.cookie = '_hjSession_1=; Max-Age=0; Path=/';
  });

  it("reloads the page without it (Hotjar), after deleting Hotjar's cookies", async () => {
    vi.resetModules();
    const { createOutsideTools } = await import('./controller.ts');
    const reload = vi.fn();
    const controller = createOutsideTools({ reload, log: vi.fn() });
    const tools: TOutsideTools = { sessionRecording: { provider: 'hotjar', key: '42' } };
    controller.sync({ tools, consent: [1, 3], userId: USER_ID });
    document.querySelector('script[data-outside-tool="hotjar"]')!.dispatchEvent(new Event('load'));
    await waitFor(() => expect(controller.state('sessionRecording')).toBe('on'));
    document.cookie = '_hjSession_1=abc; Path=/';

    controller.sync({ tools, consent: [1, 2, 4, 5], userId: USER_ID });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(document.cookie).not.toContain('_hjSession_1');
    expect(document.querySelector('script[data-outside-tool]')).toBeNull();
  });
});
