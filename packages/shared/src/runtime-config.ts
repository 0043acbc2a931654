import { z } from 'zod';
import { SERVICES } from './constants.ts';

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
  })
  .meta({ id: 'RuntimeConfig' });
export type TRuntimeConfig = z.infer<typeof ZRuntimeConfig>;
