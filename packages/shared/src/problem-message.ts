/**
 * The message rule of spec §8: the first invalid-parameter reason, else the response's message,
 * else the generic message.
 */
export function messageFromError(body: unknown, fallback = 'Something went wrong! please try again.'): string {
  if (body && typeof body === 'object') {
    const record = body as {
      invalidParams?: unknown;
      detail?: unknown;
      message?: unknown;
    };
    if (Array.isArray(record.invalidParams)) {
      const first = record.invalidParams[0] as { reason?: unknown } | undefined;
      if (first && typeof first.reason === 'string' && first.reason) return first.reason;
    }
    if (typeof record.detail === 'string' && record.detail) return record.detail;
    if (typeof record.message === 'string' && record.message) return record.message;
  }
  return fallback;
}
