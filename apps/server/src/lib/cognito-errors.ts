/**
 * Exception names the pool answers with. The SPA (through Amplify) branches on these names, so
 * they are Cognito's, spelled exactly as Cognito spells them.
 */
export type CognitoExceptionName =
  | 'CodeMismatchException'
  | 'EnableSoftwareTokenMFAException'
  | 'ExpiredCodeException'
  | 'InternalErrorException'
  | 'InvalidParameterException'
  | 'InvalidPasswordException'
  | 'LimitExceededException'
  | 'NotAuthorizedException'
  | 'PasswordResetRequiredException'
  | 'ResourceNotFoundException'
  | 'SoftwareTokenMFANotFoundException'
  | 'TooManyRequestsException'
  | 'UnknownOperationException'
  | 'UserNotConfirmedException'
  | 'UserNotFoundException'
  | 'UsernameExistsException';

/**
 * An error the pool answers on the wire as `{"__type": name, "message": ...}`. `name` is the
 * exception name, so callers of the admin port see the same names as the AWS SDK's errors.
 */
export class CognitoError extends Error {
  constructor(
    readonly type: CognitoExceptionName,
    message: string,
    readonly status: number = 400,
  ) {
    super(message);
    this.name = type;
  }
}

/** Cognito's own messages, kept in one place because clients and tests compare them. */
export const COGNITO_MESSAGES = {
  incorrectCredentials: 'Incorrect username or password.',
  passwordAttemptsExceeded: 'Password attempts exceeded',
  alreadyConfirmed: 'User cannot be confirmed. Current status is CONFIRMED',
  alreadyConfirmedResend: 'User is already confirmed.',
  userNotConfirmed: 'User is not confirmed.',
  codeMismatch: 'Invalid verification code provided, please try again.',
  codeExpired: 'Invalid code provided, please request a code again.',
  attemptLimit: 'Attempt limit exceeded, please try after some time.',
  sessionUsed: 'Invalid session for the user, session can only be used once.',
  sessionExpired: 'Invalid session for the user, session is expired.',
  sessionInvalid: 'Invalid session for the user.',
  totpReplayed: 'Your software token has already been used once.',
  totpMismatch: 'Invalid code received for user',
  totpSetupMismatch: 'Code mismatch and fail enable Software Token MFA',
  totpNotEnabled: 'Software Token MFA has not been enabled by the user.',
  totpNotAssociated: 'Software Token MFA has not been associated with the user.',
  invalidAccessToken: 'Invalid Access Token',
  expiredAccessToken: 'Access Token has expired',
  revokedAccessToken: 'Access Token has been revoked',
  invalidRefreshToken: 'Invalid Refresh Token',
  revokedRefreshToken: 'Refresh Token has been revoked',
  expiredRefreshToken: 'Refresh Token has expired',
  temporaryPasswordExpired: 'Temporary password has expired and must be reset by an administrator.',
  userDoesNotExist: 'User does not exist.',
  usernameExists: 'An account with the given email already exists.',
  internal: 'An internal error occurred. Please try again.',
} as const;

export const notAuthorized = (message: string) => new CognitoError('NotAuthorizedException', message);
export const invalidParameter = (message: string) => new CognitoError('InvalidParameterException', message);
export const limitExceeded = () => new CognitoError('LimitExceededException', COGNITO_MESSAGES.attemptLimit);
export const usernameExists = () => new CognitoError('UsernameExistsException', COGNITO_MESSAGES.usernameExists);
