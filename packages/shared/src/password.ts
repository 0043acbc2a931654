import { z } from 'zod';
import { FIELD_MESSAGES } from './messages.ts';
import { passwordMeetsPolicy } from './password-rules.ts';

// The rules live in a module without zod, so the web's light pages can use them alone.
export { PASSWORD_RULES, passwordMeetsPolicy } from './password-rules.ts';

export const ZPassword = z.string().max(256).refine(passwordMeetsPolicy, { message: FIELD_MESSAGES.passwordRules });

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: FIELD_MESSAGES.email }));

export const ZCode = z.string().regex(/^\d{6}$/, { message: 'The code is 6 digits.' });
