import { z } from 'zod/mini';
import { FIELD_MESSAGES } from '@connect/shared/light';

// The public pages validate with zod/mini and the twins in @connect/shared/mini: the full zod
// (~26 KB gzipped) is not needed to sign in.

export const ZConfirmPassword = z.string().check(z.minLength(1, { message: FIELD_MESSAGES.required }));

/**
 * The confirmation must match the password (spec §5). The check runs even while other fields are
 * invalid, so the mismatch shows as soon as the confirmation is left, not only after the rest is fixed.
 */
export function requireMatchingPasswords<S extends z.ZodMiniType<{ password: string; confirmPassword: string }>>(
  schema: S,
  message: string,
) {
  return schema.check(
    z.refine((values) => values.password === values.confirmPassword, {
      message,
      path: ['confirmPassword'],
      when: (payload) => {
        const values = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined;
        return typeof values?.password === 'string' && typeof values.confirmPassword === 'string';
      },
    }),
  );
}
