import { PROBLEMS } from './problem-codes.ts';

/** User-facing messages from the spec's error catalogues, worded exactly as specified. */
export const MESSAGES = {
  generic: 'Something went wrong! please try again.',
  invalidCredentials: 'Email address or password invalid.',
  passwordAttemptsExceeded: 'Password attempts exceeded.',
  userExists: 'User already exists.',
  invalidVerificationCode: 'Invalid verification code provided, please try again.',
  alreadyConfirmed: 'Your user has already been confirmed.',
  attemptLimitExceeded: 'Attempt limit exceeded, please try later.',
  emailAlreadyActivated: 'Email already activated.',
  codeAlreadyUsed: 'This code has already been used once.',
  invalidMfaCode: 'Invalid code received for user.',
  goBackToLogin: 'Something went wrong, please go back to login.',
  footerEmpty: 'Footer response is empty!',
} as const;

/** Field-level messages the spec leaves open (spec §5 note 5); decided in docs/decisions/shell-and-web.md ("Field messages"). */
export const FIELD_MESSAGES = {
  required: 'This field is required.',
  tooLong: (max: number) => `Must be at most ${max} characters.`,
  email: 'Please enter a valid email address.',
  passwordRules:
    'Password must be at least 8 characters and contain a lowercase letter, an uppercase letter, a number and a symbol.',
  termsOutdated: PROBLEMS.TERMS_OUTDATED.message,
  namesLocked: PROBLEMS.NAMES_LOCKED.message,
  descriptionRequired: 'Please tell us more.',
} as const;
