import { z } from 'zod/mini';
import { FIELD_MESSAGES } from './messages.ts';
import { passwordMeetsPolicy } from './password-rules.ts';

/**
 * `@connect/shared/mini`: zod/mini twins of the shared schemas the public sign-in pages validate
 * with (email, password, code). zod/mini builds the same checks from functions a bundler can leave
 * out when unused, where the full zod's chained methods always come whole (~26 KB gzipped). The
 * server and the signed-in pages keep the full schemas; mini.test.ts holds each twin to its
 * original. Zod-free helpers are in `@connect/shared/light`.
 */

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
