import { MESSAGES } from '@connect/shared/light';
import { ApiError } from './api-client.ts';
import { currentAccessToken } from './auth.ts';

/** The file name the server gives in Content-Disposition, else `fallback`. */
function fileNameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

/**
 * Fetches a file of the API (a CSV export, an invoice's PDF) and saves it. The API authenticates
 * with a bearer token, not a cookie, so a plain link to the file would be refused: the file is
 * fetched with the session's token and handed to the browser as a download of a blob. A refusal
 * is thrown as an ApiError, with the problem's message when the server sent one.
 */
export async function downloadFile(url: string, { accept, fallbackName }: { accept: string; fallbackName: string }) {
  const token = await currentAccessToken().catch(() => null);
  if (!token) throw new ApiError(401, { detail: MESSAGES.goBackToLogin });
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept, authorization: `Bearer ${token}` }, credentials: 'include' });
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
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileNameOf(response, fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
}
