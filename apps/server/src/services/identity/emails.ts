import type { MailMessage } from '../../adapters/mail/port.ts';
import { HOUR, POLICY } from './context.ts';

type Product = { productName: string; publicUrl: string };

/** How long a code works, read from the policy so the email cannot drift from it. */
function validity(lifetimeMs: number): string {
  return `The code is valid for ${lifetimeMs / HOUR} hours and stops working after ${POLICY.codeAttempts} wrong attempts. If it no longer works, you can ask for a new one on the same page.`;
}

export function signUpCodeEmail(product: Product, to: string, code: string): MailMessage {
  const { productName } = product;
  return {
    to,
    kind: 'SIGN_UP_CODE',
    code,
    subject: `Your ${productName} verification code`,
    text: [
      'Hello,',
      '',
      `Thanks for signing up to ${productName}. To activate your account, enter this verification code:`,
      '',
      `    ${code}`,
      '',
      validity(POLICY.signUpCodeMs),
      '',
      'If you did not sign up, you can safely ignore this email: no account is activated without the code.',
      '',
      `The ${productName} team`,
    ].join('\n'),
  };
}

export function resetCodeEmail(product: Product, to: string, code: string): MailMessage {
  const { productName } = product;
  return {
    to,
    kind: 'RESET_CODE',
    code,
    subject: `Reset your ${productName} password`,
    text: [
      'Hello,',
      '',
      `We received a request to reset the password of your ${productName} account. Enter this code to choose a new password:`,
      '',
      `    ${code}`,
      '',
      validity(POLICY.resetCodeMs),
      '',
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
      '',
      `The ${productName} team`,
    ].join('\n'),
  };
}
