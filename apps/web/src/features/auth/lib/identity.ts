import { identityErrorMessage, type IdentityStep } from '../../../lib/identity-errors.ts';

function nameAndMessage(error: unknown): { name: string; message: string } {
  const record = (error && typeof error === 'object' ? error : {}) as { name?: unknown; message?: unknown };
  return { name: String(record.name ?? ''), message: String(record.message ?? '') };
}

export function isErrorNamed(error: unknown, name: string): boolean {
  return nameAndMessage(error).name === name;
}

/**
 * The user is already confirmed: ConfirmSignUp answers NotAuthorizedException ("... Current status
 * is CONFIRMED"), ResendConfirmationCode answers InvalidParameterException ("User is already
 * confirmed."). Both are offered the login link.
 */
export function isAlreadyConfirmed(error: unknown): boolean {
  const { name, message } = nameAndMessage(error);
  return (
    (name === 'NotAuthorizedException' && /current status is CONFIRMED/i.test(message)) ||
    (name === 'InvalidParameterException' && /already confirmed/i.test(message))
  );
}

/** The sign-up code expired (24 hours): the activation page offers a new one. */
export function isExpiredCode(error: unknown): boolean {
  const { name, message } = nameAndMessage(error);
  return name === 'ExpiredCodeException' && !/already been used/i.test(message);
}

/** The challenge session is spent or expired: only a new sign-in helps. */
export function isInvalidSession(error: unknown): boolean {
  const { name, message } = nameAndMessage(error);
  return name === 'NotAuthorizedException' && /session/i.test(message);
}

/** The spec's message for an identity error at a step of the public pages. */
export function authErrorMessage(error: unknown, step: IdentityStep): string {
  return identityErrorMessage(error, step);
}
