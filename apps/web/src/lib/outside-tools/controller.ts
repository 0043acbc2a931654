import {
  OUTSIDE_TOOL_PROVIDERS,
  OUTSIDE_TOOLS,
  type OutsideTool,
  type OutsideToolProvider,
  type TOutsideTools,
} from '@connect/shared/light';
import { COOKIE_CATEGORIES, type CookieCategory } from '../../components/layouts/main-layout/cookie-consent.ts';
import { createAppcues } from './providers/appcues.ts';
import { createHotjar } from './providers/hotjar.ts';
import { createPosthog } from './providers/posthog.ts';
import { createZendesk } from './providers/zendesk.ts';
import type { ToolAdapter } from './types.ts';

/** off: not running (unconfigured, no consent, or signed out); failed: broke in this page, not retried. */
export type ToolState = 'off' | 'loading' | 'on' | 'failed';

const LABELS: Record<OutsideTool, string> = {
  helpWidget: 'help widget',
  sessionRecording: 'session recording',
  productAnalytics: 'product analytics',
  onboarding: 'onboarding tool',
};

export type OutsideToolsOptions = {
  adapters?: Record<OutsideToolProvider, ToolAdapter>;
  /** Withdrawn consent for a provider that cannot stop in the page: the page reloads without it. */
  reload?: () => void;
  /** Spec §8: the tools' errors are logged only, never shown. */
  log?: (message: string, error: unknown) => void;
};

export type SyncInput = {
  tools: TOutsideTools;
  consent: readonly CookieCategory[] | null;
  userId: string | null;
};

/**
 * Starts and stops the configured outside tools as the visitor's consent and the signed-in user
 * change: each tool runs only when configured and, from its provider's entry in the shared table,
 * when the consent category it needs is chosen. Every provider call is guarded: a script that does
 * not load or an init that throws is logged and leaves the tool off for this page, and the page
 * (and the tool's embedded default) goes on.
 */
export function createOutsideTools({
  adapters = { zendesk: createZendesk(), hotjar: createHotjar(), posthog: createPosthog(), appcues: createAppcues() },
  reload = () => window.location.reload(),
  log = (message, error) => console.error(message, error),
}: OutsideToolsOptions = {}) {
  const states = Object.fromEntries(OUTSIDE_TOOLS.map((tool) => [tool, 'off'])) as Record<OutsideTool, ToolState>;
  const providers: Partial<Record<OutsideTool, OutsideToolProvider>> = {};
  const users: Partial<Record<OutsideTool, string | null>> = {};
  /** What to do once a load under way ends, if the tool was switched off meanwhile. */
  const afterLoad: Partial<Record<OutsideTool, 'stop' | 'forget'>> = {};
  const listeners = new Set<() => void>();

  const set = (tool: OutsideTool, state: ToolState) => {
    if (states[tool] === state) return;
    states[tool] = state;
    for (const listener of [...listeners]) listener();
  };

  /** Runs a provider call; answers whether it worked, logging why not. */
  const attempt = async <T>(tool: OutsideTool, what: string, call: () => T | Promise<T>): Promise<T | undefined> => {
    try {
      return await call();
    } catch (error) {
      log(`The ${LABELS[tool]} (${providers[tool]}) could not ${what}; the page goes on without it.`, error);
      return undefined;
    }
  };
  const attemptNow = <T>(tool: OutsideTool, what: string, call: () => T): T | undefined => {
    try {
      return call();
    } catch (error) {
      log(`The ${LABELS[tool]} (${providers[tool]}) could not ${what}; the page goes on without it.`, error);
      return undefined;
    }
  };

  const adapterOf = (tool: OutsideTool) => adapters[providers[tool]!];

  const stop = (tool: OutsideTool) => {
    if (attemptNow(tool, 'stop', () => adapterOf(tool).stop()) === 'reload') reload();
  };

  const start = (tool: OutsideTool, setting: NonNullable<TOutsideTools[OutsideTool]>, userId: string | null) => {
    const wasOn = states[tool] === 'on';
    users[tool] = userId;
    delete afterLoad[tool];
    if (!wasOn) set(tool, 'loading');
    const started = attempt(tool, 'start', async () => {
      await adapterOf(tool).start(setting, userId);
      return true;
    });
    void started.then((ok) => {
      const pending = afterLoad[tool];
      if (pending) {
        // Switched off while loading: the provider is now there to stop (or to forget the user).
        delete afterLoad[tool];
        if (ok && pending === 'stop') stop(tool);
        else if (ok) attemptNow(tool, 'forget the user', () => adapterOf(tool).forget());
        if (!ok) set(tool, 'failed');
        return;
      }
      set(tool, ok ? 'on' : 'failed');
    });
  };

  return {
    sync({ tools, consent, userId }: SyncInput): void {
      for (const tool of OUTSIDE_TOOLS) {
        const setting = tools[tool];
        if (!setting || states[tool] === 'failed') continue;
        providers[tool] = setting.provider;
        const category = COOKIE_CATEGORIES[OUTSIDE_TOOL_PROVIDERS[setting.provider].consent];
        const isAllowed = consent?.includes(category) ?? false;
        const state = states[tool];
        if (isAllowed) {
          if (state === 'off' || (state === 'on' && users[tool] !== userId)) start(tool, setting, userId);
        } else if (state === 'on') {
          set(tool, 'off');
          stop(tool);
        } else if (state === 'loading') {
          afterLoad[tool] = 'stop';
          set(tool, 'off');
        }
      }
    },
    /** The signed-in frame closed (sign-out): every running tool forgets the user and goes off until the next sync. */
    signOut(): void {
      for (const tool of OUTSIDE_TOOLS) {
        if (states[tool] === 'on') {
          set(tool, 'off');
          attemptNow(tool, 'forget the user', () => adapterOf(tool).forget());
        } else if (states[tool] === 'loading') {
          afterLoad[tool] = 'forget';
          set(tool, 'off');
        }
        delete users[tool];
      }
    },
    state(tool: OutsideTool): ToolState {
      return states[tool];
    },
    /** Opens the help widget when it runs; false: the caller goes on to the support page. */
    openHelpWidget(): boolean {
      const open = states.helpWidget === 'on' ? adapterOf('helpWidget').open : undefined;
      if (!open) return false;
      return attemptNow('helpWidget', 'open', () => (open(), true)) ?? false;
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type OutsideToolsController = ReturnType<typeof createOutsideTools>;
