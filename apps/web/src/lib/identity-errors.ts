import { MESSAGES } from '@connect/shared/light';

/*
 * The one module for identity errors (the Cognito wire protocol, spec §8): what the SPA shows and
 * does is decided from the exception's name, as Amplify surfaces it in `error.name`. API errors
 * (problem details with a code) are lib/problems.ts's.
 */

/** Where an identity error happened: the same exception reads differently per step. */
export type IdentityStep =
  | 'signIn'
  | 'signUp'
  | 'confirmSignUp'
  | 'resendCode'
  | 'mfa'
  | 'newPassword'
  | 'forgotPassword'
  | 'resetPassword'
  | 'changePassword'
  | 'mfaSetup';

export const IDENTITY_MESSAGES = {
  ...MESSAGES,
  invalidSession: 'Your session has expired, please sign in again.',
  mfaNotEnabled: 'Multi-factor authentication is not enabled for this user.',
  /** ExpiredCodeException: the code is past its 24 hours, or wrong codes used up its attempts. */
  expiredCode: 'This code is no longer valid, please request a new one.',
  wrongSetupCode: 'The code does not match your authenticator app, please try again.',
  wrongPassword: 'The current password is not correct.',
  passwordPolicy:
    'Password must be at least 8 characters and contain a lowercase letter, an uppercase letter, a number and a symbol.',
} as const;

function nameAndMessage(error: unknown): { name: string; message: string } {
  if (error && typeof error === 'object') {
    const record = error as { name?: unknown; message?: unknown };
    return { name: String(record.name ?? ''), message: String(record.message ?? '') };
  }
  return { name: '', message: String(error) };
}

/** The cases that share an exception name with another case, and that the SPA treats apart. */
type SharedNameCase = 'passwordAttemptsExceeded' | 'alreadyConfirmed' | 'invalidSession' | 'codeAlreadyUsed';

/**
 * Cognito answers several cases under one exception name and tells them apart only in its
 * message: NotAuthorizedException is a wrong password, a lockout, an already confirmed user or a
 * spent challenge session; ExpiredCodeException an expired or a reused code;
 * InvalidParameterException also "User is already confirmed." Real Cognito gives no other signal
 * (no sub-code, the same HTTP status), so its message must be read, and it is read here only:
 * this table is the one place in the SPA that looks at an identity error's text.
 */
const SHARED_NAME_CASES: Readonly<Record<string, readonly { pattern: RegExp; is: SharedNameCase }[]>> = {
  NotAuthorizedException: [
    { pattern: /password attempts exceeded/i, is: 'passwordAttemptsExceeded' },
    { pattern: /current status is CONFIRMED/i, is: 'alreadyConfirmed' },
    { pattern: /session/i, is: 'invalidSession' },
  ],
  ExpiredCodeException: [{ pattern: /already been used/i, is: 'codeAlreadyUsed' }],
  InvalidParameterException: [{ pattern: /already confirmed/i, is: 'alreadyConfirmed' }],
};

/** An identity error as the SPA decides on it: the exception name and, for a shared name, which case. */
function identityCaseOf(error: unknown): { name: string; shared: SharedNameCase | null } {
  const { name, message } = nameAndMessage(error);
  const shared = SHARED_NAME_CASES[name]?.find(({ pattern }) => pattern.test(message))?.is ?? null;
  return { name, shared };
}

/** The identity provider answered this exception (by name: `UsernameExistsException`, …). */
export function isErrorNamed(error: unknown, name: string): boolean {
  return nameAndMessage(error).name === name;
}

/**
 * The user is already confirmed: ConfirmSignUp answers NotAuthorizedException ("... Current status
 * is CONFIRMED"), ResendConfirmationCode answers InvalidParameterException ("User is already
 * confirmed."). Both are offered the login link.
 */
export const isAlreadyConfirmed = (error: unknown) => identityCaseOf(error).shared === 'alreadyConfirmed';

/**
 * The sign-up code expired (24 hours) or used up its attempts, rather than being reused: the
 * activation page offers a new one.
 */
export function isExpiredCode(error: unknown): boolean {
  const { name, shared } = identityCaseOf(error);
  return name === 'ExpiredCodeException' && shared !== 'codeAlreadyUsed';
}

/** The challenge session is spent or expired: only a new sign-in helps. */
export const isInvalidSession = (error: unknown) => identityCaseOf(error).shared === 'invalidSession';

/** The spec's messages for the identity provider's exceptions (spec §8), by exception name and step. */
export function identityErrorMessage(error: unknown, step: IdentityStep): string {
  const { name, shared } = identityCaseOf(error);
  switch (name) {
    case 'NotAuthorizedException':
      if (shared === 'passwordAttemptsExceeded') return MESSAGES.passwordAttemptsExceeded;
      if (shared === 'alreadyConfirmed') return MESSAGES.alreadyConfirmed;
      if (shared === 'invalidSession') return IDENTITY_MESSAGES.invalidSession;
      if (step === 'changePassword') return IDENTITY_MESSAGES.wrongPassword;
      if (step === 'signIn') return MESSAGES.invalidCredentials;
      return MESSAGES.goBackToLogin;
    case 'UserNotFoundException':
      return MESSAGES.invalidCredentials;
    case 'UsernameExistsException':
      return MESSAGES.userExists;
    case 'CodeMismatchException':
      return step === 'mfa' ? MESSAGES.invalidMfaCode : MESSAGES.invalidVerificationCode;
    case 'EnableSoftwareTokenMFAException':
      return IDENTITY_MESSAGES.wrongSetupCode;
    case 'ExpiredCodeException':
      return shared === 'codeAlreadyUsed' ? MESSAGES.codeAlreadyUsed : IDENTITY_MESSAGES.expiredCode;
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return MESSAGES.attemptLimitExceeded;
    case 'SoftwareTokenMFANotFoundException':
      return IDENTITY_MESSAGES.mfaNotEnabled;
    case 'InvalidPasswordException':
      return IDENTITY_MESSAGES.passwordPolicy;
    case 'InvalidParameterException':
      if (shared === 'alreadyConfirmed') return MESSAGES.alreadyConfirmed;
      return step === 'signIn' || step === 'signUp' ? MESSAGES.generic : MESSAGES.goBackToLogin;
    case 'UserNotConfirmedException':
      return MESSAGES.goBackToLogin;
    default:
      return step === 'signIn' || step === 'signUp' ? MESSAGES.generic : MESSAGES.goBackToLogin;
  }
}
