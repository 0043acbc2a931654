import { z } from 'zod';

/** RFC 9457 problem details, with the `invalidParams` extension for validation failures. */
export const ZInvalidParam = z.object({ name: z.string(), reason: z.string() });
export const ZProblem = z.object({
  type: z.string().default('about:blank'),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  requestId: z.string().optional(),
  invalidParams: z.array(ZInvalidParam).optional(),
});
export type TProblem = z.infer<typeof ZProblem>;
export type TInvalidParam = z.infer<typeof ZInvalidParam>;

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
