import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

/** The policy without any outside tool: the same as security.test.ts holds it to. */
const STRICT_CSP =
  "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: https:;font-src 'self' data:;connect-src 'self';frame-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";

const ALL_TOOLS = {
  HELP_WIDGET: 'zendesk',
  HELP_WIDGET_KEY: '0f1e2d3c-4b5a-4697-8877-665544332211',
  SESSION_RECORDING: 'hotjar',
  SESSION_RECORDING_KEY: '1234567',
  PRODUCT_ANALYTICS: 'posthog',
  PRODUCT_ANALYTICS_KEY: 'phc_abcdefghijklmnop0123',
  PRODUCT_ANALYTICS_HOST: 'https://eu.i.posthog.com',
  ONBOARDING_TOOL: 'appcues',
  ONBOARDING_TOOL_KEY: '98765',
};

/** The CSP's directives by name. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('the CSP and the outside tools (spec §1)', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const cspOf = async (env: Record<string, string>) => {
    t = await createTestApp(env);
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    return String(res.headers['content-security-policy']);
  };

  it('stays exactly as strict as before when no tool is configured', async () => {
    expect(await cspOf({})).toBe(STRICT_CSP);
  });

  it('stays strict when every tool says none', async () => {
    expect(
      await cspOf({
        HELP_WIDGET: 'none',
        SESSION_RECORDING: 'none',
        PRODUCT_ANALYTICS: 'none',
        ONBOARDING_TOOL: 'none',
      }),
    ).toBe(STRICT_CSP);
  });

  it("opens only the configured analytics provider's region: its assets for scripts, its host for calls", async () => {
    const csp = directives(
      await cspOf({ PRODUCT_ANALYTICS: 'posthog', PRODUCT_ANALYTICS_KEY: 'phc_abcdefghijklmnop0123' }),
    );
    expect(csp['script-src']).toEqual(["'self'", 'https://us-assets.i.posthog.com']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://us.i.posthog.com', 'https://us-assets.i.posthog.com']);
    expect(csp['frame-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'https:']);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(JSON.stringify(csp)).not.toMatch(/hotjar|zendesk|zdassets|appcues/);
  });

  it('opens script, connect, frame, style and font sources for every configured provider', async () => {
    const csp = directives(await cspOf(ALL_TOOLS));
    expect(csp['script-src']).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://static.zdassets.com',
        'https://*.hotjar.com',
        'https://eu-assets.i.posthog.com',
        'https://*.appcues.com',
      ]),
    );
    expect(csp['connect-src']).toEqual(
      expect.arrayContaining([
        'wss://*.zendesk.com',
        'https://*.hotjar.io',
        'wss://*.hotjar.com',
        'https://eu.i.posthog.com',
        'wss://*.appcues.net',
      ]),
    );
    expect(csp['frame-src']).toEqual(
      expect.arrayContaining(['https://static.zdassets.com', 'https://*.hotjar.com', 'https://*.appcues.com']),
    );
    // Never a Zendesk tenant's subdomain for scripts or frames (any customer's Help Center is one).
    expect(csp['script-src']).not.toContain('https://*.zendesk.com');
    expect(csp['frame-src']).not.toContain('https://*.zendesk.com');
    // Images: any https: already; Zendesk's attachments add blob:.
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'https:', 'blob:']);
    expect(csp['style-src']).toEqual(expect.arrayContaining(['https://fonts.googleapis.com', 'https://*.hotjar.com']));
    expect(csp['font-src']).toEqual(expect.arrayContaining(['https://fonts.gstatic.com']));
    // No source twice, and the rest of the policy unchanged.
    for (const [name, sources] of Object.entries(csp)) expect(new Set(sources).size, name).toBe(sources.length);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(JSON.stringify(csp)).not.toMatch(/us\.i\.posthog|unsafe-eval/);
  });

  it('sends the configured tools to the SPA in the runtime configuration, and none when unconfigured', async () => {
    t = await createTestApp(ALL_TOOLS);
    const configured = (await t.app.inject({ method: 'GET', url: '/runtime-config.json' })).json();
    expect(configured.outsideTools).toEqual({
      helpWidget: { provider: 'zendesk', key: ALL_TOOLS.HELP_WIDGET_KEY },
      sessionRecording: { provider: 'hotjar', key: '1234567' },
      productAnalytics: { provider: 'posthog', key: 'phc_abcdefghijklmnop0123', host: 'https://eu.i.posthog.com' },
      onboarding: { provider: 'appcues', key: '98765' },
    });
    await t.close();
    t = await createTestApp();
    const plain = (await t.app.inject({ method: 'GET', url: '/runtime-config.json' })).json();
    expect(plain.outsideTools).toEqual({});
  });
});
