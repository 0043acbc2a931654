import { z } from 'zod';
import { FIELD_MESSAGES } from '@connect/shared';

export const ZConfirmPassword = z.string().min(1, { message: FIELD_MESSAGES.required });

/**
 * The confirmation must match the password (spec §5). The check runs even while other fields are
 * invalid, so the mismatch shows as soon as the confirmation is left, not only after the rest is fixed.
 */
export function requireMatchingPasswords<S extends z.ZodType<{ password: string; confirmPassword: string }>>(
  schema: S,
  message: string,
) {
  return schema.refine((values) => values.password === values.confirmPassword, {
    message,
    path: ['confirmPassword'],
    when: (payload) => {
      const values = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined;
      return typeof values?.password === 'string' && typeof values.confirmPassword === 'string';
    },
  });
}
