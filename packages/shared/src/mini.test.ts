import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './light.ts';
import { ZCodeMini, ZEmailMini, ZPasswordMini } from './mini.ts';
import { ZCode, ZEmail, ZPassword } from './password.ts';
import { ZRuntimeConfig } from './runtime-config.ts';

type Parser = {
  safeParse: (input: unknown) => {
    success: boolean;
    data?: unknown;
    error?: { issues: { message: string; path: PropertyKey[] }[] };
  };
};

/** The twins agree with the full schemas: same outcome, same output, same first message. */
function expectTwins(full: Parser, mini: Parser, input: unknown) {
  const a = full.safeParse(input);
  const b = mini.safeParse(input);
  expect(b.success, JSON.stringify(input)).toBe(a.success);
  if (a.success) expect(b.data).toEqual(a.data);
  else expect(b.error!.issues[0]!.path).toEqual(a.error!.issues[0]!.path);
  return { full: a, mini: b };
}

describe('zod/mini twins of the shared schemas', () => {
  it('ZEmailMini trims, lower-cases and checks like ZEmail, with the same message', () => {
    for (const input of ['Ann@Example.COM', '  bob@example.com ', 'not-an-email', '', 'a@b', 'x@y.io']) {
      const { full, mini } = expectTwins(ZEmail, ZEmailMini, input);
      if (!full.success) expect(mini.error!.issues[0]!.message).toBe(full.error!.issues[0]!.message);
    }
  });

  it('ZPasswordMini accepts and refuses the same passwords as ZPassword, with the policy message', () => {
    for (const input of [
      'Abcdef1!',
      'Correct Horse 9',
      'abcdefgh',
      'ABCDEFG1!',
      'Ab1!',
      '',
      `Aa1!${'x'.repeat(253)}`,
    ]) {
      const { full, mini } = expectTwins(ZPassword, ZPasswordMini, input);
      if (!full.success && input.length <= 256) {
        expect(mini.error!.issues[0]!.message).toBe(full.error!.issues[0]!.message);
      }
    }
    // Over 256 characters: refused by both; the twin says which rule applies.
    expect(ZPasswordMini.safeParse(`Aa1!${'x'.repeat(253)}`).error!.issues[0]!.message).toMatch(/password/i);
  });

  it('ZCodeMini takes six digits like ZCode, with the same message', () => {
    for (const input of ['123456', '12345', '1234567', 'abcdef', '', ' 123456']) {
      const { full, mini } = expectTwins(ZCode, ZCodeMini, input);
      if (!full.success) expect(mini.error!.issues[0]!.message).toBe(full.error!.issues[0]!.message);
    }
  });

  it('parseRuntimeConfig reads the runtime configuration like ZRuntimeConfig.parse', () => {
    const config = {
      productName: 'Quant Connect',
      productSlug: 'quant-connect',
      version: '1.2.3',
      identity: {
        region: 'eu-west-2',
        userPoolId: 'eu-west-2_abc',
        userPoolClientId: 'client',
        userPoolEndpoint: 'http://x/idp',
      },
      services: ['connect', 'integrate'],
      sandboxes: { identity: true, mail: true, kyc: true },
      captcha: { provider: 'altcha', siteKey: 'key' },
      devMailbox: true,
      documentationUrl: 'https://docs.example.com',
      productCatalogue: { username: 'catalogue', password: 'public-catalogue' },
      outsideTools: {
        helpWidget: { provider: 'zendesk', key: '00000000-0000-4000-8000-000000000000' },
        sessionRecording: { provider: 'hotjar', key: '123456' },
        productAnalytics: { provider: 'posthog', key: 'phc_0123456789abcdef', host: 'https://eu.i.posthog.com' },
        onboarding: { provider: 'appcues', key: '98765' },
      },
      unknownKey: 'dropped',
    };
    const { identity, sandboxes, captcha, outsideTools, ...rest } = config;
    const { outsideTools: _tools, ...withoutTools } = config;
    const { userPoolEndpoint: _endpoint, ...identityWithoutEndpoint } = identity;
    const { kyc: _kyc, ...sandboxesWithoutKyc } = sandboxes;
    const valid = [
      config,
      {
        ...config,
        identity: identityWithoutEndpoint,
        sandboxes: sandboxesWithoutKyc,
        captcha: { provider: 'recaptcha' },
      },
      { ...config, services: [] },
      withoutTools,
      { ...config, outsideTools: {} },
      { ...config, outsideTools: { productAnalytics: outsideTools.productAnalytics } },
    ];
    for (const input of valid) {
      expect(parseRuntimeConfig(input)).toStrictEqual(ZRuntimeConfig.parse(input));
    }
    expect(parseRuntimeConfig(config)).not.toHaveProperty('unknownKey');

    const invalid: [unknown, RegExp][] = [
      [null, /root/],
      [[], /root/],
      [rest, /identity/],
      [{ ...config, identity: { ...identity, region: 3 } }, /identity\.region/],
      [{ ...config, identity: { ...identity, userPoolEndpoint: 42 } }, /identity\.userPoolEndpoint/],
      [{ ...config, services: 'connect' }, /services/],
      [{ ...config, services: ['connect', 'no-such-service'] }, /services\[1\]/],
      [{ ...config, sandboxes: { ...sandboxes, mail: 'yes' } }, /sandboxes\.mail/],
      [{ ...config, sandboxes: { ...sandboxes, kyc: 1 } }, /sandboxes\.kyc/],
      [{ ...config, captcha: { ...captcha, provider: 'hcaptcha' } }, /captcha\.provider/],
      [{ ...config, captcha: { provider: 'altcha', siteKey: false } }, /captcha\.siteKey/],
      [{ ...config, devMailbox: 'yes' }, /devMailbox/],
      [{ ...config, documentationUrl: undefined }, /documentationUrl/],
      [{ ...config, productName: undefined }, /productName/],
      [{ ...config, productCatalogue: undefined }, /productCatalogue/],
      [{ ...config, productCatalogue: { username: 'catalogue' } }, /productCatalogue\.password/],
      [{ ...config, outsideTools: [] }, /outsideTools/],
      [
        { ...config, outsideTools: { helpWidget: { provider: 'intercom', key: 'k' } } },
        /outsideTools\.helpWidget\.provider/,
      ],
      [{ ...config, outsideTools: { onboarding: { provider: 'appcues', key: 12 } } }, /outsideTools\.onboarding\.key/],
      [
        { ...config, outsideTools: { productAnalytics: { provider: 'posthog', key: 'phc_x' } } },
        /outsideTools\.productAnalytics\.host/,
      ],
    ];
    for (const [input, field] of invalid) {
      expect(ZRuntimeConfig.safeParse(input).success, JSON.stringify(input)).toBe(false);
      expect(() => parseRuntimeConfig(input), JSON.stringify(input)).toThrow(field);
    }
  });
});
