import type { MailMessage } from '../mail/port.ts';

/** The email an invited user receives from the embedded pool (AWS Cognito sends its own). */
export function invitationEmail(
  product: { productName: string; publicUrl: string },
  to: string,
  temporaryPassword: string,
): MailMessage {
  const { productName, publicUrl } = product;
  return {
    to,
    kind: 'INVITATION',
    code: temporaryPassword,
    subject: `You have been invited to ${productName}`,
    text: [
      'Hello,',
      '',
      `An administrator has created a ${productName} account for you. Sign in at ${publicUrl}/login with:`,
      '',
      `    Email:              ${to}`,
      `    Temporary password: ${temporaryPassword}`,
      '',
      'You will be asked to choose your own password when you first sign in.',
      'The temporary password expires in 7 days; after that, ask your administrator for a new invitation.',
      '',
      `The ${productName} team`,
    ].join('\n'),
  };
}
