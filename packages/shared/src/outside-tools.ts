/**
 * The page's four outside tools (spec §1: a help widget, a session-recording tool, a
 * product-analytics tool and a user-onboarding tool), one well-known provider each. This is the one
 * table both sides read: the server validates the configuration against it and opens the CSP for
 * the configured providers' origins only (plugins/security.ts); the SPA loads the providers' scripts
 * from the same addresses (apps/web/src/lib/outside-tools/). Nothing configured: no tool loads and
 * the CSP stays as strict as without this table (docs/decisions: "The page's four outside tools").
 *
 * Zod-free: exported through `@connect/shared/light` as well, for the SPA's first screen.
 */

export const OUTSIDE_TOOLS = ['helpWidget', 'sessionRecording', 'productAnalytics', 'onboarding'] as const;
export type OutsideTool = (typeof OUTSIDE_TOOLS)[number];

/** The cookie-consent category (spec §9) a tool needs before it loads, by name. */
export type OutsideToolConsent = 'functionality' | 'experience' | 'measurement';

/** One configured tool: its provider and the provider's public key (site id, project key…). */
export type OutsideToolSetting = { provider: string; key: string; host?: string };

/** What the runtime configuration carries; a tool left out is not configured (the embedded default). */
export type TOutsideTools = {
  helpWidget?: { provider: 'zendesk'; key: string };
  sessionRecording?: { provider: 'hotjar'; key: string };
  /** `host`: PostHog's ingestion host (its cloud region, or a self-hosted instance or proxy). */
  productAnalytics?: { provider: 'posthog'; key: string; host: string };
  onboarding?: { provider: 'appcues'; key: string };
};

/** Extra CSP sources a configured provider needs, per directive. */
export type CspSources = {
  scriptSrc: string[];
  connectSrc: string[];
  frameSrc: string[];
  imgSrc: string[];
  styleSrc: string[];
  fontSrc: string[];
};

type ProviderEntry = {
  tool: OutsideTool;
  consent: OutsideToolConsent;
  /** The environment variables that configure it (apps/server/src/config-outside-tools.ts). */
  env: { provider: string; key: string; host?: string };
  /** The key's shape, and how to describe it in a configuration error. */
  keyPattern: RegExp;
  keyDescription: string;
  /** The provider's script, from its own CDN, for this configuration. */
  scriptUrl: (setting: OutsideToolSetting) => string;
  /** The CSP sources the provider documents for its script, calls, frames, images, styles and fonts. */
  sources: (setting: OutsideToolSetting) => Partial<CspSources>;
};

/** PostHog's cloud: the US region's ingestion host, the default. */
export const POSTHOG_DEFAULT_HOST = 'https://us.i.posthog.com';

/**
 * PostHog's snippet loads `array.js` from the assets host next to the ingestion host
 * (`us.i.posthog.com` → `us-assets.i.posthog.com`); a self-hosted instance or proxy serves both.
 */
export function posthogAssetsHost(host: string): string {
  return host.replace(/\/$/, '').replace('.i.posthog.com', '-assets.i.posthog.com');
}

function originOf(url: string): string {
  return new URL(url).origin;
}

export const OUTSIDE_TOOL_PROVIDERS = {
  /**
   * Zendesk's messaging Web Widget. Script and sources: developer.zendesk.com, "Content Security
   * Policy (CSP) support" (custom setup) for the messaging widget.
   */
  zendesk: {
    tool: 'helpWidget',
    consent: 'functionality',
    env: { provider: 'HELP_WIDGET', key: 'HELP_WIDGET_KEY' },
    keyPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    keyDescription: "the Web Widget's key from its snippet (a UUID)",
    scriptUrl: ({ key }) => `https://static.zdassets.com/ekr/snippet.js?key=${encodeURIComponent(key)}`,
    sources: () => {
      const zendesk = [
        'https://static.zdassets.com',
        'https://ekr.zdassets.com',
        'https://ekr.zendesk.com',
        'https://*.zendesk.com',
        'https://api.smooch.io',
        'https://media.smooch.io',
        'https://zendesk-eu.my.sentry.io',
      ];
      return {
        // Scripts only from Zendesk's asset hosts: every Zendesk customer owns a *.zendesk.com
        // subdomain (its Help Center), so allowing scripts or frames from there would let any
        // HTML injection load a stranger's script. The widget talks to its tenant through connect-src.
        scriptSrc: ['https://static.zdassets.com', 'https://ekr.zdassets.com'],
        connectSrc: [...zendesk, 'wss://*.zendesk.com', 'wss://api.smooch.io'],
        frameSrc: ['https://static.zdassets.com'],
        imgSrc: ['blob:', 'https://*.zdusercontent.com'],
      };
    },
  },
  /** Hotjar's tracking code (static.hotjar.com/c/hotjar-{site id}.js); sources as Hotjar's CSP help lists them. */
  hotjar: {
    tool: 'sessionRecording',
    consent: 'experience',
    env: { provider: 'SESSION_RECORDING', key: 'SESSION_RECORDING_KEY' },
    keyPattern: /^\d{1,12}$/,
    keyDescription: 'the Hotjar site id (digits)',
    scriptUrl: ({ key }) => `https://static.hotjar.com/c/hotjar-${encodeURIComponent(key)}.js?sv=6`,
    sources: () => ({
      scriptSrc: ['https://*.hotjar.com'],
      connectSrc: ['https://*.hotjar.com', 'https://*.hotjar.io', 'wss://*.hotjar.com'],
      frameSrc: ['https://*.hotjar.com'],
      imgSrc: ['https://*.hotjar.com'],
      styleSrc: ['https://*.hotjar.com'],
      fontSrc: ['https://*.hotjar.com'],
    }),
  },
  /**
   * PostHog's web snippet: `array.js` from the assets host, then its calls to the ingestion host
   * (posthog.com/docs/advanced/content-security-policy), narrowed to the configured region's hosts.
   */
  posthog: {
    tool: 'productAnalytics',
    consent: 'measurement',
    env: { provider: 'PRODUCT_ANALYTICS', key: 'PRODUCT_ANALYTICS_KEY', host: 'PRODUCT_ANALYTICS_HOST' },
    keyPattern: /^phc_[0-9A-Za-z]{16,64}$/,
    keyDescription: 'the PostHog project API key (phc_…)',
    scriptUrl: ({ host = POSTHOG_DEFAULT_HOST }) => `${posthogAssetsHost(host)}/static/array.js`,
    sources: ({ host = POSTHOG_DEFAULT_HOST }) => ({
      scriptSrc: [originOf(posthogAssetsHost(host))],
      connectSrc: [...new Set([originOf(host), originOf(posthogAssetsHost(host))])],
    }),
  },
  /** Appcues' web SDK (fast.appcues.com/{account id}.js); sources: Appcues' CSP FAQ (wildcard option). */
  appcues: {
    tool: 'onboarding',
    consent: 'functionality',
    env: { provider: 'ONBOARDING_TOOL', key: 'ONBOARDING_TOOL_KEY' },
    keyPattern: /^\d{1,12}$/,
    keyDescription: 'the Appcues account id (digits)',
    scriptUrl: ({ key }) => `https://fast.appcues.com/${encodeURIComponent(key)}.js`,
    sources: () => ({
      scriptSrc: ['https://*.appcues.com', 'https://*.appcues.net'],
      connectSrc: ['https://*.appcues.com', 'https://*.appcues.net', 'wss://*.appcues.com', 'wss://*.appcues.net'],
      frameSrc: ['https://*.appcues.com'],
      imgSrc: ['https://*.appcues.com', 'https://*.appcues.net'],
      styleSrc: ['https://*.appcues.com', 'https://*.appcues.net', 'https://fonts.googleapis.com'],
      fontSrc: ['https://fonts.gstatic.com'],
    }),
  },
} as const satisfies Record<string, ProviderEntry>;

export type OutsideToolProvider = keyof typeof OUTSIDE_TOOL_PROVIDERS;

/** The providers each tool may be configured with (one each today). */
export function providersOf(tool: OutsideTool): OutsideToolProvider[] {
  return (Object.keys(OUTSIDE_TOOL_PROVIDERS) as OutsideToolProvider[]).filter(
    (name) => OUTSIDE_TOOL_PROVIDERS[name].tool === tool,
  );
}

/** The configured tools' CSP sources, merged per directive without repeats; all empty when none is configured. */
export function outsideToolSources(tools: TOutsideTools): CspSources {
  const merged: CspSources = { scriptSrc: [], connectSrc: [], frameSrc: [], imgSrc: [], styleSrc: [], fontSrc: [] };
  for (const tool of OUTSIDE_TOOLS) {
    const setting = tools[tool];
    if (!setting) continue;
    const sources: Partial<CspSources> = OUTSIDE_TOOL_PROVIDERS[setting.provider].sources(setting);
    for (const directive of Object.keys(merged) as (keyof CspSources)[]) {
      for (const source of sources[directive] ?? []) {
        if (!merged[directive].includes(source)) merged[directive].push(source);
      }
    }
  }
  return merged;
}
