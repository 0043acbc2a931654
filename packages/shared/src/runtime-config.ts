import { z } from 'zod';
import { SERVICES } from './constants.ts';

/** Served at /runtime-config.json so one SPA build runs against any backend. */
export const ZRuntimeConfig = z.object({
  productName: z.string(),
  productSlug: z.string(),
  version: z.string(),
  identity: z.object({
    region: z.string(),
    userPoolId: z.string(),
    userPoolClientId: z.string(),
    /** Present for the embedded pool; absent when the SPA talks to AWS Cognito directly. */
    userPoolEndpoint: z.string().optional(),
  }),
  services: z.array(z.enum(SERVICES)),
  sandboxes: z.object({
    identity: z.boolean(),
    mail: z.boolean(),
  }),
});
export type TRuntimeConfig = z.infer<typeof ZRuntimeConfig>;
