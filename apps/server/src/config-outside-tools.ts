import { z } from 'zod';
import {
  OUTSIDE_TOOL_PROVIDERS,
  OUTSIDE_TOOLS,
  POSTHOG_DEFAULT_HOST,
  providersOf,
  type OutsideTool,
  type OutsideToolProvider,
  type TOutsideTools,
} from '@connect/shared/light';

/** The variables naming each tool's provider (the rest are in the providers' table). */
const PROVIDER_VARIABLES: Record<OutsideTool, string> = {
  helpWidget: 'HELP_WIDGET',
  sessionRecording: 'SESSION_RECORDING',
  productAnalytics: 'PRODUCT_ANALYTICS',
  onboarding: 'ONBOARDING_TOOL',
};

/** `none` (or unset) keeps the tool's embedded default. */
const NONE = 'none';

/** One tool's variables: a provider name from the table, its key in the provider's shape, and a host where it has one. */
function toolSchema(tool: OutsideTool) {
  const names = providersOf(tool);
  const variable = PROVIDER_VARIABLES[tool];
  const keyVariable = `${variable}_KEY`;
  const hostVariable = `${variable}_HOST`;
  return z
    .object({
      [variable]: z
        .string()
        .trim()
        .toLowerCase()
        .refine((value) => value === NONE || (names as string[]).includes(value), {
          error: (issue) =>
            `unknown provider ${JSON.stringify(issue.input)}: use one of ${[...names, NONE].join(', ')}`,
        })
        .optional(),
      [keyVariable]: z.string().trim().optional(),
      [hostVariable]: z.url({ protocol: /^https$/, error: 'should be an https:// URL' }).optional(),
    })
    .superRefine((env, ctx) => {
      const provider = env[variable] as string | undefined;
      const key = env[keyVariable] as string | undefined;
      const host = env[hostVariable] as string | undefined;
      if (!provider || provider === NONE) {
        if (key || host) {
          ctx.addIssue({
            code: 'custom',
            path: [key ? keyVariable : hostVariable],
            message: `set, but ${variable} names no provider`,
          });
        }
        return;
      }
      // An unknown name is reported by the field's own check.
      if (!(names as string[]).includes(provider)) return;
      const entry = OUTSIDE_TOOL_PROVIDERS[provider as OutsideToolProvider];
      if (!key) {
        ctx.addIssue({ code: 'custom', path: [keyVariable], message: `required with ${variable}=${provider}` });
      } else if (!entry.keyPattern.test(key)) {
        ctx.addIssue({ code: 'custom', path: [keyVariable], message: `should be ${entry.keyDescription}` });
      }
      if (host && !('host' in entry.env)) {
        ctx.addIssue({ code: 'custom', path: [hostVariable], message: `not used with ${variable}=${provider}` });
      }
    });
}

/**
 * The page's outside tools (spec §1) from the environment: HELP_WIDGET=zendesk, SESSION_RECORDING=
 * hotjar, PRODUCT_ANALYTICS=posthog (with PRODUCT_ANALYTICS_HOST, PostHog's US cloud by default),
 * ONBOARDING_TOOL=appcues, each with its `_KEY`. A wrong provider name or key stops the start with
 * a message naming the variable; unset (or `none`) leaves the tool out and its embedded default on.
 */
export function loadOutsideTools(env: Record<string, string | undefined>): TOutsideTools {
  const problems: string[] = [];
  const tools: Record<string, { provider: string; key: string; host?: string }> = {};
  for (const tool of OUTSIDE_TOOLS) {
    const parsed = toolSchema(tool).safeParse(env);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
      continue;
    }
    const variable = PROVIDER_VARIABLES[tool];
    const provider = parsed.data[variable] as OutsideToolProvider | undefined;
    if (!provider || (provider as string) === NONE) continue;
    const key = parsed.data[`${variable}_KEY`] as string;
    tools[tool] =
      provider === 'posthog'
        ? {
            provider,
            key,
            host: ((parsed.data[`${variable}_HOST`] as string | undefined) ?? POSTHOG_DEFAULT_HOST).replace(/\/$/, ''),
          }
        : { provider, key };
  }
  if (problems.length) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return tools as TOutsideTools;
}
