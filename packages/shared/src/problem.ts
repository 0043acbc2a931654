import { z } from 'zod';
import { PROBLEM_CODES } from './problem-codes.ts';

/**
 * RFC 9457 problem details, with a machine `code` (problem-codes.ts) and the `invalidParams`
 * extension for validation failures.
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
