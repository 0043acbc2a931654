import { z } from 'zod';
import { SERVICES } from './constants.ts';
import type { TOutsideTools } from './outside-tools.ts';

/** Served at /runtime-config.json so one SPA build runs against any backend. */
export const ZRuntimeConfig = z
  .object({
    productName: z.string(),
    productSlug: z.string(),
    version: z.string(),
    identity: z.object({
      region: z.string(),
      userPoolId: z.string(),
      userPoolClientId: z.string(),
      /**
       * Present for the embedded pool: a path on the portal's own origin (`/idp`), which the SPA
       * resolves against the address it was opened at. Absent when the SPA talks to AWS Cognito.
       */
      userPoolEndpoint: z.string().optional(),
    }),
    services: z.array(z.enum(SERVICES)),
    sandboxes: z.object({
      identity: z.boolean(),
      mail: z.boolean(),
      /** Identity verification is the embedded sandbox (no ONFIDO_API_TOKEN); the server always sends it. */
      kyc: z.boolean().optional(),
    }),
    /** Sign-up captcha: Google reCAPTCHA when keys are configured, else the self-hosted proof of work. */
    captcha: z.object({ provider: z.enum(['recaptcha', 'altcha']), siteKey: z.string().optional() }),
    /** True outside production: the dev mailbox (/dev/mailbox) is available. */
    devMailbox: z.boolean(),
    /** External developer documentation (the /documentation menu item). */
    documentationUrl: z.string(),
    /**
     * The product catalogue's basic-authentication credentials (/jsons, spec §7): given to every
     * browser, so they protect nothing; the catalogue's content is public-safe.
     */
    productCatalogue: z.object({ username: z.string(), password: z.string() }),
    /**
     * The page's outside tools that are configured (outside-tools.ts); a tool left out runs its
     * embedded default. The server always sends it; optional so older answers still read.
     */
    outsideTools: z
      .object({
        helpWidget: z.object({ provider: z.literal('zendesk'), key: z.string() }).optional(),
        sessionRecording: z.object({ provider: z.literal('hotjar'), key: z.string() }).optional(),
        productAnalytics: z.object({ provider: z.literal('posthog'), key: z.string(), host: z.string() }).optional(),
        onboarding: z.object({ provider: z.literal('appcues'), key: z.string() }).optional(),
      })
      .optional() satisfies z.ZodType<TOutsideTools | undefined>,
  })
  .meta({ id: 'RuntimeConfig' });
export type TRuntimeConfig = z.infer<typeof ZRuntimeConfig>;
