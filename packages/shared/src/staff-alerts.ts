import { z } from 'zod';
import { ZQueryInt } from './numbers.ts';

/*
 * The staff-alert channel (issue 27 §4): what staff must look at, raised by the platform (a QNT
 * transfer the chain took back, later the bridge relayer's and others'), listed and acknowledged
 * through GET /api/connect/management/alerts and POST …/alerts/{id}/acknowledge (admin only). The
 * staff console lists them.
 */

export const ZStaffAlert = z
  .object({
    id: z.uuid(),
    /** What happened, stable and upper snake case (`QNT_TRANSFER_REVERSED`). */
    code: z.string(),
    message: z.string(),
    /** The record it concerns (`qnt_transfer` and its id), when it concerns one. */
    record: z.object({ type: z.string(), id: z.string() }).nullable(),
    raisedAt: z.iso.datetime(),
    acknowledgedAt: z.iso.datetime().nullable(),
    /** The staff user who acknowledged it. */
    acknowledgedBy: z.uuid().nullable(),
  })
  .meta({ id: 'StaffAlert' });
export type TStaffAlert = z.infer<typeof ZStaffAlert>;

export const ZStaffAlertsQuery = z.object({
  /** `open` (the default): only alerts nobody acknowledged yet; `all`: every alert. */
  status: z.enum(['open', 'all']).default('open'),
  limit: ZQueryInt({ min: 1, max: 500 }).default(100),
});

export const ZStaffAlertsResponse = z.object({ alerts: z.array(ZStaffAlert) }).meta({ id: 'StaffAlertsResponse' });
export type TStaffAlertsResponse = z.infer<typeof ZStaffAlertsResponse>;
