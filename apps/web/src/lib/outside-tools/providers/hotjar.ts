import { OUTSIDE_TOOL_PROVIDERS } from '@connect/shared/light';
import { deleteCookies, loadScript, removeScript } from '../load-script.ts';
import type { ToolAdapter } from '../types.ts';

type HotjarApi = ((...args: unknown[]) => void) & { q?: unknown[][] };
declare global {
  interface Window {
    hj?: HotjarApi;
    _hjSettings?: { hjid: number; hjsv: number };
  }
}

const SCRIPT_ID = 'outside-tool-hotjar';
/** The snippet version Hotjar's tracking code is published with. */
const SNIPPET_VERSION = 6;

/**
 * Session recording: Hotjar's tracking code. What its documented snippet does, without an inline
 * script (the CSP has none): the `hj` queue, `_hjSettings` with the site id, then the tag from
 * static.hotjar.com. The user is identified by the portal's opaque id (`hj('identify', id, {})`),
 * no attributes. Hotjar has no call that stops a running recorder: withdrawing consent deletes its
 * `_hj` cookies and asks for the page to be reloaded, and the reloaded page does not load it.
 */
export function createHotjar(): ToolAdapter {
  let loaded: Promise<void> | null = null;
  return {
    async start(setting, userId) {
      if (!loaded) {
        const hj: HotjarApi =
          window.hj ??
          function queue(...args: unknown[]) {
            (hj.q ??= []).push(args);
          };
        window.hj = hj;
        window._hjSettings = { hjid: Number(setting.key), hjsv: SNIPPET_VERSION };
        loaded = loadScript(OUTSIDE_TOOL_PROVIDERS.hotjar.scriptUrl(setting), { id: SCRIPT_ID, tool: 'hotjar' });
      }
      window.hj?.('identify', userId, {});
      await loaded;
    },
    stop() {
      removeScript(SCRIPT_ID);
      deleteCookies('_hj');
      return 'reload';
    },
    forget() {
      window.hj?.('identify', null, {});
    },
  };
}
