import { OUTSIDE_TOOL_PROVIDERS } from '@connect/shared/light';
import { loadScript } from '../load-script.ts';
import type { ToolAdapter } from '../types.ts';

type ZendeskApi = (scope: string, command: string, ...args: unknown[]) => void;
declare global {
  interface Window {
    zE?: ZendeskApi;
  }
}

/** Zendesk's snippet finds its own tag by this id. */
const SCRIPT_ID = 'ze-snippet';

function zE(): ZendeskApi {
  if (!window.zE) throw new Error('The Zendesk Web Widget has not started (window.zE is missing).');
  return window.zE;
}

/**
 * The help widget: Zendesk's messaging Web Widget (developer.zendesk.com, "Core messaging Web Widget
 * API"). Its snippet is one tag from static.zdassets.com with the widget's key; the launcher it
 * shows and the account menu's Support both open it (`zE('messenger', 'open')`). The user is not
 * identified to it: Zendesk's sign-in for the widget takes a JWT signed by our server, and the
 * visitor can give an address in the conversation if they want an answer by email.
 */
export function createZendesk(): ToolAdapter {
  let loaded: Promise<void> | null = null;
  return {
    async start(setting) {
      loaded ??= loadScript(OUTSIDE_TOOL_PROVIDERS.zendesk.scriptUrl(setting), { id: SCRIPT_ID, tool: 'zendesk' });
      await loaded;
      zE()('messenger', 'show');
    },
    stop() {
      // The widget's code stays in the page; hidden, it neither shows nor takes conversations.
      zE()('messenger', 'close');
      zE()('messenger', 'hide');
      return 'stopped';
    },
    forget() {
      zE()('messenger', 'close');
      zE()('messenger', 'hide');
    },
    open() {
      zE()('messenger', 'show');
      zE()('messenger', 'open');
    },
  };
}
