import { z } from 'zod';
import { ZProblem, ZStaffAlert, ZStaffAlertsQuery, ZStaffAlertsResponse, type TStaffAlert } from '@connect/shared';
import { notFound } from '../../lib/errors.ts';
import { StaffAlertsRepository, type StaffAlertRow } from '../../repositories/staff-alerts.ts';
import type { App, Deps } from '../../types.ts';
import { callerOf } from '../../lib/caller.ts';
import { AuditLogRepository } from '../../repositories/audit-log.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem };
/** Staff alerts concern money and the platform's health: administrators only (spec §6: management-admin). */
const staff = { groups: ['management-admin' as const] };

function present(row: StaffAlertRow): TStaffAlert {
  return {
    id: row.id,
    code: row.code,
    message: row.message,
    record: row.recordType ? { type: row.recordType, id: row.recordId ?? '' } : null,
    raisedAt: row.raisedAt.toISOString(),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: row.acknowledgedBy,
  };
}

/**
 * The staff-alert channel's management API (issue 27 §4; repositories/staff-alerts.ts): the
 * alerts, newest first, and acknowledging one. The staff console (a later issue) lists them.
 */
export async function staffAlertRoutes(app: App, deps: Deps) {
  const alerts = new StaffAlertsRepository(deps.db);

  app.get(
    '/management/alerts',
    {
      config: { access: staff },
      schema: {
        ...docs,
        summary: 'Staff alerts, newest first (staff)',
        description:
          'What the platform raised for staff to look at (a QNT transfer the chain took back, …), each with the record it concerns. `status=open` (the default) lists those nobody acknowledged yet; `all` every alert. At most `limit` (100, up to 500). Each alert is also mailed to STAFF_ALERT_EMAIL when raised.',
        querystring: ZStaffAlertsQuery,
        response: { 200: ZStaffAlertsResponse, ...problems },
      },
    },
    async (request) => ({
      alerts: (await alerts.list({ openOnly: request.query.status === 'open', limit: request.query.limit })).map(
        present,
      ),
    }),
  );

  app.post(
    '/management/alerts/:id/acknowledge',
    {
      config: { access: staff },
      schema: {
        ...docs,
        summary: 'Acknowledge a staff alert (staff)',
        description:
          'Records who acknowledged the alert and when; an alert acknowledged already keeps its first acknowledgement. An unknown id answers 404 NOT_FOUND.',
        params: z.object({ id: z.uuid() }),
        response: { 200: ZStaffAlert, ...problems },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      // The acknowledgement and its audit entry commit together (issue 32 §1).
      const row = await deps.db.transaction(async (tx) => {
        const acknowledged = await new StaffAlertsRepository(tx).acknowledge(request.params.id, caller.id);
        if (acknowledged && !acknowledged.wasAcknowledged) {
          await new AuditLogRepository(tx).record(
            { ...caller, requestId: request.id },
            {
              action: 'STAFF_ALERT_ACKNOWLEDGED',
              recordType: 'staff_alert',
              recordId: acknowledged.id,
              before: { acknowledgedAt: null },
              after: { acknowledgedAt: acknowledged.acknowledgedAt, code: acknowledged.code },
            },
          );
        }
        return acknowledged;
      });
      if (!row) throw notFound('NOT_FOUND', 'The alert was not found.');
      return present(row);
    },
  );
}
