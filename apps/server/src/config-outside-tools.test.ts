import { describe, expect, it } from 'vitest';
import { testConfig } from '../test/helpers.ts';
import { loadOutsideTools } from './config-outside-tools.ts';

const ZENDESK_KEY = '0f1e2d3c-4b5a-4697-8877-665544332211';

describe('the outside tools configuration (spec §1)', () => {
  it('is empty when nothing is configured, or every tool says none', () => {
    expect(loadOutsideTools({})).toEqual({});
    expect(
      loadOutsideTools({
        HELP_WIDGET: 'none',
        SESSION_RECORDING: 'none',
        PRODUCT_ANALYTICS: 'none',
        ONBOARDING_TOOL: 'none',
      }),
    ).toEqual({});
    expect(testConfig().outsideTools).toEqual({});
  });

  it('reads each configured provider with its key, and PostHog with its host (US cloud by default)', () => {
    expect(
      loadOutsideTools({
        HELP_WIDGET: 'zendesk',
        HELP_WIDGET_KEY: ZENDESK_KEY,
        SESSION_RECORDING: 'Hotjar',
        SESSION_RECORDING_KEY: '1234567',
        PRODUCT_ANALYTICS: 'posthog',
        PRODUCT_ANALYTICS_KEY: 'phc_abcdefghijklmnop0123',
        ONBOARDING_TOOL: 'appcues',
        ONBOARDING_TOOL_KEY: '98765',
      }),
    ).toEqual({
      helpWidget: { provider: 'zendesk', key: ZENDESK_KEY },
      sessionRecording: { provider: 'hotjar', key: '1234567' },
      productAnalytics: { provider: 'posthog', key: 'phc_abcdefghijklmnop0123', host: 'https://us.i.posthog.com' },
      onboarding: { provider: 'appcues', key: '98765' },
    });
    expect(
      loadOutsideTools({
        PRODUCT_ANALYTICS: 'posthog',
        PRODUCT_ANALYTICS_KEY: 'phc_abcdefghijklmnop0123',
        PRODUCT_ANALYTICS_HOST: 'https://eu.i.posthog.com/',
      }).productAnalytics,
    ).toEqual({ provider: 'posthog', key: 'phc_abcdefghijklmnop0123', host: 'https://eu.i.posthog.com' });
  });

  it('refuses to start with an unknown provider name, naming the variable and the choices', () => {
    expect(() => testConfig({ HELP_WIDGET: 'intercom', HELP_WIDGET_KEY: 'abc' })).toThrow(
      'Invalid configuration: HELP_WIDGET: unknown provider "intercom": use one of zendesk, none',
    );
    expect(() => loadOutsideTools({ PRODUCT_ANALYTICS: 'amplitude', PRODUCT_ANALYTICS_KEY: 'x' })).toThrow(
      /PRODUCT_ANALYTICS: unknown provider "amplitude": use one of posthog, none/,
    );
  });

  it('refuses a missing or malformed key, a key without a provider, and a host that is not https', () => {
    const cases: [Record<string, string>, string][] = [
      [{ SESSION_RECORDING: 'hotjar' }, 'SESSION_RECORDING_KEY: required with SESSION_RECORDING=hotjar'],
      [
        { SESSION_RECORDING: 'hotjar', SESSION_RECORDING_KEY: 'abc' },
        'SESSION_RECORDING_KEY: should be the Hotjar site id',
      ],
      [{ HELP_WIDGET: 'zendesk', HELP_WIDGET_KEY: 'not-a-uuid' }, "HELP_WIDGET_KEY: should be the Web Widget's key"],
      [{ ONBOARDING_TOOL_KEY: '123' }, 'ONBOARDING_TOOL_KEY: set, but ONBOARDING_TOOL names no provider'],
      [
        {
          PRODUCT_ANALYTICS: 'posthog',
          PRODUCT_ANALYTICS_KEY: 'phc_abcdefghijklmnop0123',
          PRODUCT_ANALYTICS_HOST: 'http://x.test',
        },
        'PRODUCT_ANALYTICS_HOST: should be an https:// URL',
      ],
      [
        { HELP_WIDGET: 'zendesk', HELP_WIDGET_KEY: ZENDESK_KEY, HELP_WIDGET_HOST: 'https://x.test' },
        'HELP_WIDGET_HOST: not used with HELP_WIDGET=zendesk',
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => loadOutsideTools(env), JSON.stringify(env)).toThrow(message);
    }
  });

  it('names every wrong variable at once', () => {
    expect(() => loadOutsideTools({ HELP_WIDGET: 'drift', ONBOARDING_TOOL: 'appcues' })).toThrow(
      /HELP_WIDGET: unknown provider "drift".*; ONBOARDING_TOOL_KEY: required with ONBOARDING_TOOL=appcues/,
    );
  });
});
