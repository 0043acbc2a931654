import { OUTSIDE_TOOL_PROVIDERS, POSTHOG_DEFAULT_HOST } from '@connect/shared/light';
import { loadScript } from '../load-script.ts';
import type { ToolAdapter } from '../types.ts';

/** The part of posthog-js this adapter calls (the snippet's stub queues them until array.js arrives). */
type PostHogApi = {
  capture: (event: string) => void;
  init: (key: string, config: Record<string, unknown>) => void;
  identify: (id: string) => void;
  reset: () => void;
  opt_in_capturing: () => void;
  opt_out_capturing: () => void;
};
type PostHogStub = unknown[] & Partial<PostHogApi> & { _i?: unknown[][]; __SV?: number };
declare global {
  interface Window {
    posthog?: PostHogStub;
  }
}

const SCRIPT_ID = 'outside-tool-posthog';
/** The methods the stub queues, as PostHog's snippet lists them (those this adapter uses). */
const QUEUED = ['identify', 'reset', 'opt_in_capturing', 'opt_out_capturing', 'capture'] as const;

/** The stub or, once array.js has run, the library itself. */
function posthog(): PostHogApi {
  const api = window.posthog;
  if (!api) throw new Error('PostHog has not started (window.posthog is missing).');
  return api as unknown as PostHogApi;
}

/**
 * Product analytics: PostHog's web snippet (posthog.com/docs/libraries/js). As its snippet does,
 * without an inline script: a stub array that queues calls and the `init`, then `array.js` from
 * the region's assets host, which replays them. Page views follow the SPA's history changes;
 * PostHog's own session recording stays off (recording is Hotjar's, under another consent
 * category). Identified by the portal's opaque user id only. Withdrawn consent: PostHog's
 * documented `opt_out_capturing` stops every capture and `reset` drops its identity and storage.
 */
export function createPosthog(): ToolAdapter {
  let loaded: Promise<void> | null = null;
  return {
    async start(setting, userId) {
      if (!loaded) {
        const host = setting.host ?? POSTHOG_DEFAULT_HOST;
        const stub: PostHogStub = window.posthog ?? [];
        if (!stub.__SV) {
          stub._i = [];
          stub.__SV = 1;
          for (const method of QUEUED) stub[method] = (...args: unknown[]) => void stub.push([method, ...args]);
          stub.init = (key, config) => void stub._i?.push([key, config, undefined]);
          window.posthog = stub;
        }
        posthog().init(setting.key, {
          api_host: host,
          person_profiles: 'identified_only',
          capture_pageview: 'history_change',
          disable_session_recording: true,
        });
        loaded = loadScript(OUTSIDE_TOOL_PROVIDERS.posthog.scriptUrl(setting), { id: SCRIPT_ID, tool: 'posthog' });
      }
      posthog().opt_in_capturing();
      if (userId) posthog().identify(userId);
      await loaded;
    },
    stop() {
      posthog().opt_out_capturing();
      posthog().reset();
      return 'stopped';
    },
    forget() {
      posthog().reset();
    },
  };
}
