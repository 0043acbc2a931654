import { expect, type APIRequestContext } from '@playwright/test';
import { solveCaptcha, ZCaptchaChallenge } from '../../packages/shared/src/captcha.ts';
import { latestMail } from './mailbox.ts';

/** Calls the identity pool's wire protocol directly (set-up steps that are not under test). */
export async function idp(request: APIRequestContext, operation: string, body: object) {
  const config = (await (await request.get('/runtime-config.json')).json()) as {
    identity: { userPoolClientId: string };
  };
  return request.post('/idp', {
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
    },
    data: JSON.stringify({ ClientId: config.identity.userPoolClientId, ...body }),
  });
}

/** A confirmed user, signed up with a solved captcha and confirmed with the emailed code. */
export async function createConfirmedUser(request: APIRequestContext, email: string, password: string) {
  const challenge = ZCaptchaChallenge.parse(await (await request.get('/api/connect/captcha/challenge')).json());
  const captcha = await solveCaptcha(challenge);
  const signUp = await idp(request, 'SignUp', {
    Username: email,
    Password: password,
    UserAttributes: [{ Name: 'email', Value: email }],
    ValidationData: [{ Name: 'captcha', Value: captcha }],
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const { code } = await latestMail(request, email, 'SIGN_UP_CODE');
  const confirm = await idp(request, 'ConfirmSignUp', { Username: email, ConfirmationCode: code });
  expect(confirm.status(), await confirm.text()).toBe(200);
}
