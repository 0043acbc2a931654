import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@connect/shared';
import {
  IDENTITY_MESSAGES,
  identityErrorMessage,
  isAlreadyConfirmed,
  isErrorNamed,
  isExpiredCode,
  isInvalidSession,
  type IdentityStep,
} from './identity-errors.ts';

/** An error as Amplify surfaces Cognito's: the exception name in `name`, Cognito's text in `message`. */
const cognito = (name: string, message = '') => Object.assign(new Error(message), { name });

const ALL_STEPS: IdentityStep[] = [
  'signIn',
  'signUp',
  'confirmSignUp',
  'resendCode',
  'mfa',
  'newPassword',
  'forgotPassword',
  'resetPassword',
  'changePassword',
  'mfaSetup',
];

describe('identityErrorMessage', () => {
  describe('NotAuthorizedException', () => {
    it('reads as invalid credentials on sign-in (also for unknown users)', () => {
      expect(identityErrorMessage(cognito('NotAuthorizedException', 'Incorrect username or password.'), 'signIn')).toBe(
        'Email address or password invalid.',
      );
    });

    it('tells a lockout apart by Cognito’s message, whatever the step', () => {
      for (const step of ALL_STEPS) {
        expect(identityErrorMessage(cognito('NotAuthorizedException', 'Password attempts exceeded'), step)).toBe(
          'Password attempts exceeded.',
        );
      }
    });

    it('says an already confirmed user is confirmed', () => {
      const error = cognito('NotAuthorizedException', 'User cannot be confirmed. Current status is CONFIRMED');
      expect(identityErrorMessage(error, 'confirmSignUp')).toBe('Your user has already been confirmed.');
    });

    it('reads a spent or expired challenge session as an invalid session', () => {
      for (const message of [
        'Invalid session for the user, session can only be used once.',
        'Invalid session for the user, session is expired.',
      ]) {
        expect(identityErrorMessage(cognito('NotAuthorizedException', message), 'mfa')).toBe(
          IDENTITY_MESSAGES.invalidSession,
        );
      }
    });

    it('reads as a wrong current password when changing the password', () => {
      expect(
        identityErrorMessage(cognito('NotAuthorizedException', 'Incorrect username or password.'), 'changePassword'),
      ).toBe(IDENTITY_MESSAGES.wrongPassword);
    });

    it('sends the user back to login on any other step', () => {
      expect(identityErrorMessage(cognito('NotAuthorizedException', 'Access Token has been revoked'), 'mfaSetup')).toBe(
        'Something went wrong, please go back to login.',
      );
    });
  });

  it('reads an unknown user as invalid credentials', () => {
    expect(identityErrorMessage(cognito('UserNotFoundException', 'User does not exist.'), 'signIn')).toBe(
      'Email address or password invalid.',
    );
  });

  it('reads a taken email as an existing user', () => {
    expect(
      identityErrorMessage(
        cognito('UsernameExistsException', 'An account with the given email already exists.'),
        'signUp',
      ),
    ).toBe('User already exists.');
  });

  it('reads a wrong code per step: verification codes, and the authenticator code at sign-in', () => {
    const mismatch = cognito('CodeMismatchException', 'Invalid verification code provided, please try again.');
    expect(identityErrorMessage(mismatch, 'confirmSignUp')).toBe(
      'Invalid verification code provided, please try again.',
    );
    expect(identityErrorMessage(mismatch, 'resetPassword')).toBe(
      'Invalid verification code provided, please try again.',
    );
    expect(identityErrorMessage(cognito('CodeMismatchException', 'Invalid code received for user'), 'mfa')).toBe(
      'Invalid code received for user.',
    );
  });

  it('reads a wrong set-up code as not matching the authenticator app', () => {
    expect(identityErrorMessage(cognito('EnableSoftwareTokenMFAException', 'Code mismatch'), 'mfaSetup')).toBe(
      IDENTITY_MESSAGES.wrongSetupCode,
    );
  });

  it('tells a reused authenticator code apart from an expired code', () => {
    expect(
      identityErrorMessage(cognito('ExpiredCodeException', 'Your software token has already been used once.'), 'mfa'),
    ).toBe('This code has already been used once.');
    expect(
      identityErrorMessage(
        cognito('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
        'confirmSignUp',
      ),
    ).toBe(IDENTITY_MESSAGES.expiredCode);
  });

  it('reads every rate limit as the attempt limit', () => {
    for (const name of ['LimitExceededException', 'TooManyRequestsException', 'TooManyFailedAttemptsException']) {
      expect(
        identityErrorMessage(cognito(name, 'Attempt limit exceeded, please try after some time.'), 'resendCode'),
      ).toBe('Attempt limit exceeded, please try later.');
    }
  });

  it('says MFA is not enabled', () => {
    expect(
      identityErrorMessage(
        cognito('SoftwareTokenMFANotFoundException', 'Software Token MFA has not been enabled'),
        'mfa',
      ),
    ).toBe(IDENTITY_MESSAGES.mfaNotEnabled);
  });

  it('explains the password policy', () => {
    expect(
      identityErrorMessage(cognito('InvalidPasswordException', 'Password did not conform with policy'), 'signUp'),
    ).toBe(IDENTITY_MESSAGES.passwordPolicy);
  });

  it('sends an unconfirmed user back to login', () => {
    expect(identityErrorMessage(cognito('UserNotConfirmedException', 'User is not confirmed.'), 'forgotPassword')).toBe(
      'Something went wrong, please go back to login.',
    );
  });

  it('falls back to the generic message on sign-in and sign-up, and back to login elsewhere', () => {
    const unknown = cognito('InternalErrorException', 'An internal error occurred.');
    expect(identityErrorMessage(unknown, 'signIn')).toBe('Something went wrong! please try again.');
    expect(identityErrorMessage(unknown, 'signUp')).toBe('Something went wrong! please try again.');
    for (const step of ALL_STEPS.filter((s) => s !== 'signIn' && s !== 'signUp')) {
      expect(identityErrorMessage(unknown, step)).toBe('Something went wrong, please go back to login.');
    }
  });

  it('copes with things thrown that are not errors', () => {
    expect(identityErrorMessage('network down', 'signIn')).toBe(MESSAGES.generic);
    expect(identityErrorMessage(undefined, 'confirmSignUp')).toBe(MESSAGES.goBackToLogin);
    expect(identityErrorMessage({ name: 'UsernameExistsException' }, 'signUp')).toBe(MESSAGES.userExists);
  });

  it('keeps the spec’s wording for the shared messages', () => {
    expect(IDENTITY_MESSAGES.invalidCredentials).toBe('Email address or password invalid.');
    expect(IDENTITY_MESSAGES.passwordAttemptsExceeded).toBe('Password attempts exceeded.');
  });
});

/** What the pages do about an identity error: decided by exception name, and Cognito's text only where a name is shared. */
describe('identity error cases', () => {
  it('knows an exception by its name', () => {
    expect(isErrorNamed(cognito('UsernameExistsException', 'any text'), 'UsernameExistsException')).toBe(true);
    expect(isErrorNamed(cognito('UserNotFoundException'), 'UsernameExistsException')).toBe(false);
    expect(isErrorNamed(undefined, 'UsernameExistsException')).toBe(false);
  });

  it('knows an already confirmed user from either exception Cognito answers', () => {
    expect(
      isAlreadyConfirmed(cognito('NotAuthorizedException', 'User cannot be confirmed. Current status is CONFIRMED')),
    ).toBe(true);
    expect(isAlreadyConfirmed(cognito('InvalidParameterException', 'User is already confirmed.'))).toBe(true);
    expect(isAlreadyConfirmed(cognito('NotAuthorizedException', 'Incorrect username or password.'))).toBe(false);
    // The same words under an exception that does not share its name mean nothing.
    expect(isAlreadyConfirmed(cognito('CodeMismatchException', 'User is already confirmed.'))).toBe(false);
  });

  it('tells an expired code from a reused one', () => {
    expect(isExpiredCode(cognito('ExpiredCodeException', 'Invalid code provided, please request a code again.'))).toBe(
      true,
    );
    expect(isExpiredCode(cognito('ExpiredCodeException', 'Your software token has already been used once.'))).toBe(
      false,
    );
    expect(isExpiredCode(cognito('CodeMismatchException', 'Invalid verification code provided'))).toBe(false);
  });

  it('knows a spent or expired challenge session', () => {
    expect(
      isInvalidSession(cognito('NotAuthorizedException', 'Invalid session for the user, session is expired.')),
    ).toBe(true);
    expect(isInvalidSession(cognito('NotAuthorizedException', 'Password attempts exceeded'))).toBe(false);
    expect(isInvalidSession(cognito('InvalidParameterException', 'Invalid session'))).toBe(false);
  });
});
