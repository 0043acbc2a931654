import { z } from 'zod';
import { AUDIT_EXPORT_MAX_ROWS, ZAuditExportQuery, ZAuditLogQuery, ZAuditLogResponse, ZProblem } from '@connect/shared';
import { toCsv } from '../../lib/csv.ts';
import { STAFF_LIST_PAGING_DESCRIPTION } from '../../lib/staff-list.ts';
import { AuditLogRepository } from '../../repositories/audit-log.ts';
import type { App, Deps } from '../../types.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem, '5xx': ZProblem };
/** What staff did is for administrators (management-admin). */
const admin = { groups: ['management-admin' as const] };

/** The audit log's list and CSV export (issue 32 §1; repositories/audit-log.ts writes it). */
export async function auditLogRoutes(app: App, deps: Deps) {
  const audit = new AuditLogRepository(deps.db);

  app.get(
    '/management/audit-log',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The audit log: what staff did (admin)',
        description: `Newest first by default (sort occurredAt:asc or occurredAt:desc). Filters: actor (the start of the actor’s email), action, recordType and recordId. Identity-pool actions show as an INTENT entry and its SUCCEEDED or FAILED outcome (intentId names the intent); an intent without an outcome is a change whose result is unknown. Entries are never edited or deleted. ${STAFF_LIST_PAGING_DESCRIPTION}`,
        querystring: ZAuditLogQuery,
        response: { 200: ZAuditLogResponse, ...problems },
      },
    },
    async (request) => {
      const { page, size, sort, cursor, ...filters } = request.query;
      return audit.list(filters, { page, size, sort, cursor });
    },
  );

  app.get(
    '/management/audit-log/export',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The audit log as a CSV file (admin)',
        description: `The entries the filters select, newest first, at most ${AUDIT_EXPORT_MAX_ROWS.toLocaleString('en-GB')} (the file then ends with a line saying so). UTF-8 with a byte-order mark; text cells a spreadsheet would read as a formula start with an apostrophe.`,
        querystring: ZAuditExportQuery,
        response: {
          200: { description: 'The CSV file (an attachment).', content: { 'text/csv': { schema: z.string() } } },
          ...problems,
        },
      },
    },
    async (request, reply) => {
      const entries = await audit.exportRows(request.query, AUDIT_EXPORT_MAX_ROWS + 1);
      const rows = entries
        .slice(0, AUDIT_EXPORT_MAX_ROWS)
        .map((entry) => [
          entry.id,
          entry.occurredAt,
          entry.actorEmail,
          entry.action,
          entry.outcome,
          entry.recordType,
          entry.recordId,
          entry.before ? JSON.stringify(entry.before) : '',
          entry.after ? JSON.stringify(entry.after) : '',
          entry.intentId ?? '',
          entry.detail ?? '',
          entry.requestId ?? '',
        ]);
      if (entries.length > AUDIT_EXPORT_MAX_ROWS) {
        rows.push([`More than ${AUDIT_EXPORT_MAX_ROWS} entries match: narrow the filters.`]);
      }
      const csv = toCsv(
        [
          'id',
          'occurredAt',
          'actor',
          'action',
          'outcome',
          'recordType',
          'recordId',
          'before',
          'after',
          'intentId',
          'detail',
          'requestId',
        ],
        rows,
      );
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${day}.csv"`)
        .send(csv);
    },
  );
}
