import { OUTSIDE_TOOL_PROVIDERS } from '@connect/shared/light';
import { loadScript } from '../load-script.ts';
import type { ToolAdapter } from '../types.ts';

type AppcuesApi = { identify: (id: string) => void; reset: () => void; page: () => void };
declare global {
  interface Window {
    Appcues?: AppcuesApi;
    AppcuesSettings?: { enableURLDetection: boolean };
  }
}

const SCRIPT_ID = 'outside-tool-appcues';

function appcues(): AppcuesApi {
  if (!window.Appcues) throw new Error('Appcues has not started (window.Appcues is missing).');
  return window.Appcues;
}

/**
 * The onboarding tool: Appcues' web SDK (docs.appcues.com, "Installing Appcues on web"): the
 * settings object with URL detection on (the SPA changes pages without reloading), the account's
 * script from fast.appcues.com, then `Appcues.identify` with the portal's opaque user id — Appcues
 * shows its flows to identified users only, so `Appcues.reset()` on withdrawn consent or sign-out
 * stops them. While Appcues runs, its flows take the getting-started checklist's place.
 */
export function createAppcues(): ToolAdapter {
  let loaded: Promise<void> | null = null;
  return {
    async start(setting, userId) {
      if (!loaded) {
        window.AppcuesSettings = { enableURLDetection: true };
        loaded = loadScript(OUTSIDE_TOOL_PROVIDERS.appcues.scriptUrl(setting), {
          id: SCRIPT_ID,
          tool: 'appcues',
        }).catch((error: unknown) => {
          loaded = null;
          throw error;
        });
      }
      await loaded;
      if (userId) appcues().identify(userId);
    },
    stop() {
      appcues().reset();
      return 'stopped';
    },
    forget() {
      appcues().reset();
    },
  };
}
