import { z } from 'zod';
import { PLAN_STATUSES } from './constants.ts';

/** Plan info of the top bar and dashboard (spec §3 Plan info: name, status). */
export const ZPlanInfo = z
  .object({
    name: z.string(),
    status: z.enum(PLAN_STATUSES),
    /** Credits left on the account, for the dashboard. */
    credits: z.number().int(),
    /** End of the trial or the next renewal, when known. */
    renewsAt: z.string().nullable(),
  })
  .meta({ id: 'PlanInfo' });
export type TPlanInfo = z.infer<typeof ZPlanInfo>;
