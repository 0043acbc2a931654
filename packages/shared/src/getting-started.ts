import { z } from 'zod';

/**
 * The dashboard's getting-started checklist (issue 11), in the order a newcomer takes the steps:
 * verify identity → select networks → register an application → first gateway call → first token.
 */
export const GETTING_STARTED_STEPS = [
  'verifyIdentity',
  'selectNetworks',
  'registerApplication',
  'firstGatewayCall',
  'firstToken',
] as const;
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number];

export const ZGettingStartedStep = z
  .object({
    step: z.enum(GETTING_STARTED_STEPS),
    /** Ticked from what the account has really done (server data), never from what the page saw. */
    isDone: z.boolean(),
  })
  .meta({ id: 'GettingStartedStep' });
export type TGettingStartedStep = z.infer<typeof ZGettingStartedStep>;

/** `GET /api/connect/user/{id}/getting-started`: every step, in GETTING_STARTED_STEPS order. */
export const ZGettingStarted = z.object({ steps: z.array(ZGettingStartedStep) }).meta({ id: 'GettingStarted' });
export type TGettingStarted = z.infer<typeof ZGettingStarted>;
