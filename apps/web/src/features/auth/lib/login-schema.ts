import { z } from 'zod/mini';
import { FIELD_MESSAGES } from '@connect/shared/light';
import { ZEmailMini } from '@connect/shared/mini';

// Loaded on first validation (lib/small-form.ts), not with the login page.
// Any password is checked by the pool: older or temporary passwords need not meet today's rules.
export const ZLogin = z.object({
  email: ZEmailMini,
  password: z.string().check(z.minLength(1, { message: FIELD_MESSAGES.required })),
});

export type TLogin = z.output<typeof ZLogin>;
