import { MESSAGES } from '@connect/shared/light';

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
  expiredCode: 'This code has expired, please request a new one.',
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

/**
 * The spec's messages for the identity provider's exceptions (spec §8). The UI branches on the
 * exception name; Cognito's own message only tells apart the cases that share a name.
 */
export function identityErrorMessage(error: unknown, step: IdentityStep): string {
  const { name, message } = nameAndMessage(error);
  switch (name) {
    case 'NotAuthorizedException':
      if (/password attempts exceeded/i.test(message)) return MESSAGES.passwordAttemptsExceeded;
      if (/current status is CONFIRMED/i.test(message)) return MESSAGES.alreadyConfirmed;
      if (/session/i.test(message)) return IDENTITY_MESSAGES.invalidSession;
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
      return /already been used/i.test(message) ? MESSAGES.codeAlreadyUsed : IDENTITY_MESSAGES.expiredCode;
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return MESSAGES.attemptLimitExceeded;
    case 'SoftwareTokenMFANotFoundException':
      return IDENTITY_MESSAGES.mfaNotEnabled;
    case 'InvalidPasswordException':
      return IDENTITY_MESSAGES.passwordPolicy;
    case 'InvalidParameterException':
      // Resending a code to a confirmed user answers "User is already confirmed."
      if (/already confirmed/i.test(message)) return MESSAGES.alreadyConfirmed;
      return step === 'signIn' || step === 'signUp' ? MESSAGES.generic : MESSAGES.goBackToLogin;
    case 'UserNotConfirmedException':
      return MESSAGES.goBackToLogin;
    default:
      return step === 'signIn' || step === 'signUp' ? MESSAGES.generic : MESSAGES.goBackToLogin;
  }
}
