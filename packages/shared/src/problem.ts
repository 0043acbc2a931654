import { z } from 'zod';
import { PROBLEM_CODES } from './problem-codes.ts';

/**
 * RFC 9457 problem details, with a machine `code` (problem-codes.ts), the `invalidParams`
 * extension for validation failures, and for GATEWAY_SPENDING_CAP_REACHED the rate allowed and
 * when to retry (as Infura's quota errors say them).
 */
export const ZInvalidParam = z.object({ name: z.string(), reason: z.string() }).meta({ id: 'InvalidParam' });
export const ZProblem = z
  .object({
    type: z.string().default('about:blank'),
    title: z.string(),
    status: z.number().int(),
    code: z.enum(PROBLEM_CODES),
    detail: z.string().optional(),
    instance: z.string().optional(),
    requestId: z.string().optional(),
    invalidParams: z.array(ZInvalidParam).optional(),
    allowedRps: z.number().int().optional().describe('At a spending cap: the calls per second allowed now (0).'),
    backoffSeconds: z
      .number()
      .int()
      .optional()
      .describe('At a spending cap: seconds until the calls are let through again (the next UTC month).'),
    retryAt: z.string().optional().describe('At a spending cap: when the calls are let through again (ISO, UTC).'),
  })
  .meta({ id: 'Problem' });
export type TProblem = z.infer<typeof ZProblem>;
export type TInvalidParam = z.infer<typeof ZInvalidParam>;

export {
  PROBLEMS,
  PROBLEM_CODES,
  PROBLEM_TITLES,
  problemCodeOf,
  problemTitle,
  type ProblemCode,
} from './problem-codes.ts';

// In a module without zod, so the web's request layer can use it without loading the schemas.
export { messageFromError } from './problem-message.ts';
