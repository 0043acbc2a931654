import type { TUsageReportQuery } from '@connect/shared';
import { downloadFile } from '../../../lib/download.ts';

const EXPORT_PATH = '/api/application-manager/usage/export.csv';

/** The export's address for a report's filters (the same query as GET /usage/report). */
export function usageCsvUrl(query: TUsageReportQuery): string {
  const params = new URLSearchParams({ from: query.from, to: query.to, granularity: query.granularity });
  if (query.applicationId) params.set('applicationId', query.applicationId);
  return `${EXPORT_PATH}?${params.toString()}`;
}

/** GET /usage/export.csv, saved as a file (named by the server, else by the range). */
export function downloadUsageCsv(query: TUsageReportQuery): Promise<void> {
  return downloadFile(usageCsvUrl(query), { accept: 'text/csv', fallbackName: `usage-${query.from}-${query.to}.csv` });
}
