import { z } from 'zod';
import {
  USAGE_MAX_DAYS,
  ZApplicationSpend,
  ZBalanceHistory,
  ZBalanceHistoryQuery,
  ZProblem,
  ZSpendingCapRequest,
  ZSpendingCaps,
  ZUsageReport,
  ZUsageReportQuery,
} from '@connect/shared';
import { applicationChanges } from '../../lib/application-changes.ts';
import { toCsv } from '../../lib/csv.ts';
import type { App, Deps } from '../../types.ts';
import { UsageReportRepository, type ApplicationCapWriter } from './report-repository.ts';
import { UsageReportService } from './report.ts';
import { callerOf } from '../../lib/caller.ts';

const ZCapParams = z.object({ applicationId: z.uuid({ message: 'The application id must be a UUID.' }) });

const problems = { '4xx': ZProblem };
const docs = { tags: ['application-manager'], security: [{ bearerAuth: [] }] };
const RANGE = `\`from\` and \`to\` are UTC days (both included): at most ${USAGE_MAX_DAYS.hour} days by hour, ${USAGE_MAX_DAYS.day} by day.`;

/** The export's columns (the report's buckets, named). */
const CSV_HEADER = ['Period start (UTC)', 'Application', 'Network', 'Method', 'Class', 'Calls', 'Credits'] as const;

/**
 * The usage API (issue 17 §2, §3), under the application manager's prefix: usage by application,
 * network and method, the month's forecast, the credits' history, the CSV export and the
 * applications' monthly spending caps. Every route reads only the caller's account; the caps may be
 * changed by every member of it, as the applications themselves may (the application manager
 * restricts none of its writes to a role). The caps are the application manager's column: it
 * passes `writeCap` (report-repository.ts's port) when it registers these routes.
 */
export function usageRoutes(app: App, deps: Deps, writeCap: ApplicationCapWriter): void {
  const changes = applicationChanges(deps);
  const service = new UsageReportService(new UsageReportRepository(deps.db, writeCap), deps.events, (id) =>
    changes.changed(id),
  );

  app.get(
    '/usage/report',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Credits used per application, network and method, by hour or day, and the month’s forecast',
        description: `${RANGE} Gateway calls come from the live counters (every node, the current hour included); deployments are the account’s (no application) and left out when \`applicationId\` is given. Another account’s application answers 404. The forecast is the account’s current UTC month, whatever the range.`,
        querystring: ZUsageReportQuery,
        response: { 200: ZUsageReport, ...problems },
      },
    },
    async (request) => service.report(callerOf(request), request.query),
  );

  app.get(
    '/usage/balance-history',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The credit balance over time, from the ledger',
        description: `The balance before \`from\` (\`opening\`), then the balance after each ledger entry in the range, and the balance now. \`from\` and \`to\` are UTC days (both included), at most ${USAGE_MAX_DAYS.day} days.`,
        querystring: ZBalanceHistoryQuery,
        response: { 200: ZBalanceHistory, ...problems },
      },
    },
    async (request) => service.balanceHistory(callerOf(request), request.query),
  );

  app.get(
    '/usage/export.csv',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The usage report as a CSV file',
        description: `The report’s buckets, one line each: ${CSV_HEADER.join(', ')}. ${RANGE} UTF-8 with a byte-order mark; text cells that a spreadsheet would read as a formula start with an apostrophe.`,
        querystring: ZUsageReportQuery,
        response: {
          200: { description: 'The CSV file (an attachment).', content: { 'text/csv': { schema: z.string() } } },
          ...problems,
        },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const buckets = await service.namedBuckets(callerOf(request), request.query);
      const csv = toCsv(
        CSV_HEADER,
        buckets.map((bucket) => [
          bucket.start.replace('.000Z', 'Z'),
          bucket.applicationName,
          bucket.networkName,
          bucket.method,
          bucket.methodClass,
          bucket.calls,
          bucket.credits,
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="usage-${from}-${to}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/usage/caps',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Every application’s monthly spending cap and this month’s use of it',
        description:
          'State OK, WARNING (85 % of the cap used) or REACHED (100 %: the gateway answers 429 to the application until the cap is raised or the UTC month turns). Applications without a cap are OK.',
        response: { 200: ZSpendingCaps, ...problems },
      },
    },
    async (request) => service.caps(callerOf(request)),
  );

  app.put(
    '/usage/caps/:applicationId',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Set or remove an application’s monthly spending cap',
        description:
          'The cap in credits (at least 0.01, two decimals at most); null removes it. The gateway applies it from the next call. A cap at or below this month’s use answers REACHED at once. Another account’s application answers 404.',
        params: ZCapParams,
        body: ZSpendingCapRequest,
        response: { 200: ZApplicationSpend, ...problems },
      },
    },
    async (request) => service.setCap(callerOf(request), request.params.applicationId, request.body.monthlyCapCredits),
  );
}
