import { describe, expect, it } from 'vitest';
import { ZCodeMini, ZEmailMini, ZPasswordMini, ZRuntimeConfigMini } from './mini.ts';
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

  it('ZRuntimeConfigMini reads the runtime configuration like ZRuntimeConfig', () => {
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
      captcha: { provider: 'altcha' },
      devMailbox: true,
      documentationUrl: 'https://docs.example.com',
      unknownKey: 'dropped',
    };
    expect(expectTwins(ZRuntimeConfig, ZRuntimeConfigMini, config).mini.success).toBe(true);
    expect(ZRuntimeConfigMini.parse(config)).not.toHaveProperty('unknownKey');
    const { identity: _identity, ...withoutIdentity } = config;
    const broken = [
      withoutIdentity,
      { ...config, services: ['no-such-service'] },
      { ...config, captcha: { provider: 'hcaptcha' } },
      { ...config, devMailbox: 'yes' },
      { ...config, identity: { ...config.identity, userPoolEndpoint: 42 } },
      null,
    ];
    for (const input of broken) expectTwins(ZRuntimeConfig, ZRuntimeConfigMini, input);
  });
});
