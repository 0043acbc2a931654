import { downloadFile } from '../../../lib/download.ts';
import type { AuditLogFilters } from './get-audit-log.ts';

/**
 * GET /management/audit-log/export: every entry matching the filters as CSV (newest first), saved
 * as a download. Fetched with the session's token (lib/download.ts): a plain link would be refused.
 */
export function exportAuditLog(filters: AuditLogFilters): Promise<void> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const search = params.toString();
  return downloadFile(`/api/connect/management/audit-log/export${search ? `?${search}` : ''}`, {
    accept: 'text/csv',
    fallbackName: 'audit-log.csv',
  });
}
