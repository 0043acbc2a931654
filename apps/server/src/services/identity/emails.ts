import type { MailMessage } from '../../adapters/mail/port.ts';

type Product = { productName: string; publicUrl: string };

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
      'The code is valid for 24 hours. If it has expired, you can ask for a new one on the same page.',
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
      'The code is valid for 1 hour.',
      '',
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
      '',
      `The ${productName} team`,
    ].join('\n'),
  };
}
