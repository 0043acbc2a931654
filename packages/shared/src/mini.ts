import { z } from 'zod/mini';
import { SERVICES } from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';
import { passwordMeetsPolicy } from './password-rules.ts';
import type { TRuntimeConfig } from './runtime-config.ts';

/**
 * `@connect/shared/mini`: the light entry of the shared package, for the web app's first screen
 * and public sign-in pages. It holds zod/mini twins of the shared schemas they need (the runtime
 * configuration, email, password, code) and re-exports the zod-free helpers they use. zod/mini
 * builds the same checks from functions a bundler can leave out when unused (a few KB), where the
 * full zod's chained methods always come whole (~26 KB gzipped); and importing a helper through
 * the main entry can drag in the schemas of the module that re-exports it. The server and the
 * signed-in pages keep the full schemas; mini.test.ts holds each twin to its original.
 *
 * This module and the modules it imports must stay free of the full `zod`.
 */

export { LIMITS } from './constants.ts';
export { FIELD_MESSAGES, MESSAGES } from './messages.ts';
export { messageFromError } from './problem-message.ts';
export { isProfileComplete, PROFILE_FIELDS } from './profile.ts';
export { PASSWORD_RULES, passwordMeetsPolicy } from './password-rules.ts';

/** Twin of ZEmail: trimmed, lower-cased, then an email address. */
export const ZEmailMini = z.pipe(
  z.string().check(z.trim(), z.toLowerCase()),
  z.email({ message: FIELD_MESSAGES.email }),
);

/**
 * Twin of ZPassword. The policy check already refuses more than 256 characters, so a longer
 * password reads the policy message rather than the full zod's generic "too big" one.
 */
export const ZPasswordMini = z.string().check(z.refine(passwordMeetsPolicy, { message: FIELD_MESSAGES.passwordRules }));

/** Twin of ZCode: a six-digit code. */
export const ZCodeMini = z.string().check(z.regex(/^\d{6}$/, { message: 'The code is 6 digits.' }));

/** Twin of ZRuntimeConfig: what /runtime-config.json holds. */
export const ZRuntimeConfigMini = z.object({
  productName: z.string(),
  productSlug: z.string(),
  version: z.string(),
  identity: z.object({
    region: z.string(),
    userPoolId: z.string(),
    userPoolClientId: z.string(),
    userPoolEndpoint: z.optional(z.string()),
  }),
  services: z.array(z.enum(SERVICES)),
  sandboxes: z.object({ identity: z.boolean(), mail: z.boolean(), kyc: z.optional(z.boolean()) }),
  captcha: z.object({ provider: z.enum(['recaptcha', 'altcha']), siteKey: z.optional(z.string()) }),
  devMailbox: z.boolean(),
  documentationUrl: z.string(),
});

// The twin must describe exactly the full schema's type (checked when type-checking).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _runtimeConfigTwin: Same<z.infer<typeof ZRuntimeConfigMini>, TRuntimeConfig> = true;
