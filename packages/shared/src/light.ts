import { SERVICES } from './constants.ts';
import type { TOutsideTools } from './outside-tools.ts';
import type { TRuntimeConfig } from './runtime-config.ts';

/**
 * `@connect/shared/light`: the zod-free part of the shared package, for the web app's first
 * screen — the runtime configuration reader below and the helpers and messages it uses. Importing
 * these through the main entry would bring zod and every shared schema with them (the bundler
 * keeps the schema modules the entry re-exports), ~30 KB gzipped. The zod/mini twins of the form
 * schemas are in `@connect/shared/mini`.
 *
 * This module and the modules it imports must stay free of zod.
 */

export { isStaffRole, LIMITS, SERVICES, STAFF_ROLES, type ServiceName } from './constants.ts';
export { DEFAULT_VAT_RATES_BP } from './vat-rates.ts';
export { FIELD_MESSAGES, MESSAGES } from './messages.ts';
export { PASSWORD_RULES, passwordMeetsPolicy } from './password-rules.ts';
export { messageFromError } from './problem-message.ts';
export { PROBLEMS, problemCodeOf, type ProblemCode } from './problem-codes.ts';
export { isProfileComplete, PROFILE_FIELDS } from './profile.ts';
export * from './outside-tools.ts';

/**
 * Twin of `ZRuntimeConfig.parse`, written out without any zod: the runtime configuration is read
 * before the first screen, which should not wait for a validation library. Same rules: the listed
 * fields with their types, optional ones left out when absent, other keys dropped. Throws an
 * Error naming the first field that does not fit.
 */
export function parseRuntimeConfig(input: unknown): TRuntimeConfig {
  const fail = (path: string, expected: string): never => {
    throw new Error(`the runtime configuration's ${path} should be ${expected}`);
  };
  const object = (value: unknown, path: string) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : fail(path, 'an object');
  const string = (value: unknown, path: string) => (typeof value === 'string' ? value : fail(path, 'a string'));
  const boolean = (value: unknown, path: string) => (typeof value === 'boolean' ? value : fail(path, 'true or false'));
  const oneOf = <T extends string>(values: readonly T[], value: unknown, path: string): T =>
    values.includes(value as T) ? (value as T) : fail(path, `one of ${values.join(', ')}`);

  const root = object(input, 'root');
  const identity = object(root.identity, 'identity');
  const sandboxes = object(root.sandboxes, 'sandboxes');
  const captcha = object(root.captcha, 'captcha');
  const productCatalogue = object(root.productCatalogue, 'productCatalogue');
  const services = Array.isArray(root.services) ? (root.services as unknown[]) : fail('services', 'a list');
  const outsideTools = (value: unknown): TOutsideTools => {
    const tools = object(value, 'outsideTools');
    const tool = <P extends string>(name: keyof TOutsideTools, provider: P, withHost = false) => {
      if (tools[name] === undefined) return {};
      const entry = object(tools[name], `outsideTools.${name}`);
      return {
        [name]: {
          provider: oneOf([provider], entry.provider, `outsideTools.${name}.provider`),
          key: string(entry.key, `outsideTools.${name}.key`),
          ...(withHost ? { host: string(entry.host, `outsideTools.${name}.host`) } : {}),
        },
      };
    };
    return {
      ...tool('helpWidget', 'zendesk'),
      ...tool('sessionRecording', 'hotjar'),
      ...tool('productAnalytics', 'posthog', true),
      ...tool('onboarding', 'appcues'),
    } as TOutsideTools;
  };
  return {
    productName: string(root.productName, 'productName'),
    productSlug: string(root.productSlug, 'productSlug'),
    version: string(root.version, 'version'),
    identity: {
      region: string(identity.region, 'identity.region'),
      userPoolId: string(identity.userPoolId, 'identity.userPoolId'),
      userPoolClientId: string(identity.userPoolClientId, 'identity.userPoolClientId'),
      ...(identity.userPoolEndpoint === undefined
        ? {}
        : { userPoolEndpoint: string(identity.userPoolEndpoint, 'identity.userPoolEndpoint') }),
    },
    services: services.map((service, index) => oneOf(SERVICES, service, `services[${index}]`)),
    sandboxes: {
      identity: boolean(sandboxes.identity, 'sandboxes.identity'),
      mail: boolean(sandboxes.mail, 'sandboxes.mail'),
      ...(sandboxes.kyc === undefined ? {} : { kyc: boolean(sandboxes.kyc, 'sandboxes.kyc') }),
    },
    captcha: {
      provider: oneOf(['recaptcha', 'altcha'] as const, captcha.provider, 'captcha.provider'),
      ...(captcha.siteKey === undefined ? {} : { siteKey: string(captcha.siteKey, 'captcha.siteKey') }),
    },
    devMailbox: boolean(root.devMailbox, 'devMailbox'),
    documentationUrl: string(root.documentationUrl, 'documentationUrl'),
    productCatalogue: {
      username: string(productCatalogue.username, 'productCatalogue.username'),
      password: string(productCatalogue.password, 'productCatalogue.password'),
    },
    ...(root.outsideTools === undefined ? {} : { outsideTools: outsideTools(root.outsideTools) }),
  };
}
