import { MESSAGES } from '@connect/shared/light';
import type { TUsageReportQuery } from '@connect/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { currentAccessToken } from '../../../lib/auth.ts';

const EXPORT_PATH = '/api/application-manager/usage/export.csv';

/** The export's address for a report's filters (the same query as GET /usage/report). */
export function usageCsvUrl(query: TUsageReportQuery): string {
  const params = new URLSearchParams({ from: query.from, to: query.to, granularity: query.granularity });
  if (query.applicationId) params.set('applicationId', query.applicationId);
  return `${EXPORT_PATH}?${params.toString()}`;
}

/** The file name the server gives in Content-Disposition, else one made of the range. */
function fileNameOf(response: Response, query: TUsageReportQuery): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match?.[1] ? decodeURIComponent(match[1]) : `usage-${query.from}-${query.to}.csv`;
}

/**
 * GET /usage/export.csv, saved as a file. The API authenticates with a bearer token, not a cookie,
 * so a plain link to the export would be refused: the file is fetched with the session's token and
 * handed to the browser as a download of a blob.
 */
export async function downloadUsageCsv(query: TUsageReportQuery): Promise<void> {
  const token = await currentAccessToken().catch(() => null);
  if (!token) throw new ApiError(401, { detail: MESSAGES.goBackToLogin });
  let response: Response;
  try {
    response = await fetch(usageCsvUrl(query), {
      headers: { accept: 'text/csv', authorization: `Bearer ${token}` },
      credentials: 'include',
    });
  } catch {
    throw new ApiError(0, { detail: MESSAGES.generic });
  }
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = { detail: MESSAGES.generic };
    try {
      body = JSON.parse(text);
    } catch {
      // A proxy's page: the generic message.
    }
    throw new ApiError(response.status, body);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, query);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
