import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Amplify } from 'aws-amplify';
import { signUp } from 'aws-amplify/auth';
import { ConsoleLogger } from 'aws-amplify/utils';
import { solveCaptcha, ZCaptchaChallenge, ZRuntimeConfig, type TCaptchaSolution } from '@connect/shared';
import { createTestApp, TEST_CLIENT_ID, type TestContext } from '../../../test/helpers.ts';

const PASSWORD = 'Captcha-Pass-1';
const newEmail = () => `captcha-${randomUUID().slice(0, 8)}@example.com`;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** SignUp with SIGNUP_CAPTCHA on (the default; the shared test helper turns it off). */
describe('SignUp with the captcha required', () => {
  let t: TestContext;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ SIGNUP_CAPTCHA: 'on', PUBLIC_URL: base });
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  async function solved(): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url: '/api/connect/captcha/challenge' });
    return solveCaptcha(ZCaptchaChallenge.parse(res.json()));
  }

  async function callSignUp(email: string, validationData?: { Name: string; Value: string }[]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/idp',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp',
      },
      payload: JSON.stringify({
        ClientId: TEST_CLIENT_ID,
        Username: email,
        Password: PASSWORD,
        UserAttributes: [{ Name: 'email', Value: email }],
        ...(validationData ? { ValidationData: validationData } : {}),
      }),
    });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  }

  const refused = {
    status: 400,
    body: { __type: 'InvalidParameterException', message: 'Captcha verification failed.' },
  };

  it('refuses a sign-up without a solution', async () => {
    expect(await callSignUp(newEmail())).toEqual(refused);
    expect(await callSignUp(newEmail(), [{ Name: 'other', Value: 'x' }])).toEqual(refused);
  });

  it('refuses a forged solution', async () => {
    const solution = JSON.parse(Buffer.from(await solved(), 'base64').toString()) as TCaptchaSolution;
    const forged = Buffer.from(JSON.stringify({ ...solution, signature: '0'.repeat(64) })).toString('base64');
    expect(await callSignUp(newEmail(), [{ Name: 'captcha', Value: forged }])).toEqual(refused);
    const wrongNumber = Buffer.from(JSON.stringify({ ...solution, number: solution.number + 1 })).toString('base64');
    expect(await callSignUp(newEmail(), [{ Name: 'captcha', Value: wrongNumber }])).toEqual(refused);
  });

  it('accepts a solved challenge once, and refuses it when reused', async () => {
    const captcha = await solved();
    const first = await callSignUp(newEmail(), [{ Name: 'captcha', Value: captcha }]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.UserConfirmed).toBe(false);
    expect(await callSignUp(newEmail(), [{ Name: 'captcha', Value: captcha }])).toEqual(refused);
  });

  it('spends the solution even when the email is taken, so probing for accounts costs a proof of work each', async () => {
    const email = newEmail();
    expect((await callSignUp(email, [{ Name: 'captcha', Value: await solved() }])).status).toBe(200);
    const captcha = await solved();
    expect((await callSignUp(email, [{ Name: 'captcha', Value: captcha }])).body.__type).toBe(
      'UsernameExistsException',
    );
    expect(await callSignUp(newEmail(), [{ Name: 'captcha', Value: captcha }])).toEqual(refused);
  });

  it('reads the solution from Amplify’s signUp validationData, as the SPA sends it', async () => {
    ConsoleLogger.LOG_LEVEL = 'ERROR';
    const runtime = ZRuntimeConfig.parse(await (await fetch(`${base}/runtime-config.json`)).json());
    expect(runtime.captcha.provider).toBe('altcha');
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: runtime.identity.userPoolId,
          userPoolClientId: runtime.identity.userPoolClientId,
          userPoolEndpoint: new URL(runtime.identity.userPoolEndpoint!, base).href,
        },
      },
    });
    const email = newEmail();
    const missing = await signUp({ username: email, password: PASSWORD, options: { userAttributes: { email } } }).catch(
      (error: Error) => error,
    );
    expect(missing).toMatchObject({ name: 'InvalidParameterException', message: 'Captcha verification failed.' });

    const result = await signUp({
      username: email,
      password: PASSWORD,
      options: { userAttributes: { email }, validationData: { captcha: await solved() } },
    });
    expect(result.nextStep.signUpStep).toBe('CONFIRM_SIGN_UP');
  });
});
