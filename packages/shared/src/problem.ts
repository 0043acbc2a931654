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

// In a module without zod, so the web's request layer can use it without loading the schemas.
export { messageFromError } from './problem-message.ts';
