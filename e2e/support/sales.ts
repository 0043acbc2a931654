import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { idp } from './identity.ts';
import { dismissCookies } from './journey.ts';
import { latestMail } from './mailbox.ts';
import { adminAccessToken } from './staff.ts';
import { totpCode, waitForFreshTotpWindow } from './totp.ts';

/** A sales user of one spec: the password they chose and their authenticator's secret. */
export type StaffUser = { email: string; password: string; totpSecret: string };

type AuthAnswer = { AuthenticationResult?: { AccessToken: string }; ChallengeName?: string; Session?: string };

/**
 * A QUANT_SALES user, as an administrator invites one (POST /management/user/invite) and they
 * finish it: the emailed temporary password replaced, an authenticator set up through the pool's
 * wire calls (staff must use one), the portal told of it (GET /user/mfa-status). Set-up only: the
 * screens under test are the ones they use afterwards.
 */
export async function createSalesUser(request: APIRequestContext, email: string): Promise<StaffUser> {
  const admin = await adminAccessToken(request);
  const invited = await request.post('/api/connect/management/user/invite', {
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    data: JSON.stringify({ email, firstName: 'Sam', lastName: 'Seller', role: 'QUANT_SALES' }),
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const password = 'Sales-Chosen-Passw0rd!';
  const invitation = await latestMail(request, email, 'INVITATION');
  const first = await idp(request, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: invitation.code ?? '' },
  });
  expect(first.status(), await first.text()).toBe(200);
  const challenge = (await first.json()) as AuthAnswer;
  const chosen = await idp(request, 'RespondToAuthChallenge', {
    ChallengeName: 'NEW_PASSWORD_REQUIRED',
    ChallengeResponses: { USERNAME: email, NEW_PASSWORD: password },
    Session: challenge.Session,
  });
  expect(chosen.status(), await chosen.text()).toBe(200);
  const accessToken = ((await chosen.json()) as AuthAnswer).AuthenticationResult!.AccessToken;
  const associated = await idp(request, 'AssociateSoftwareToken', { AccessToken: accessToken });
  const { SecretCode } = (await associated.json()) as { SecretCode: string };
  await waitForFreshTotpWindow(10);
  const verified = await idp(request, 'VerifySoftwareToken', {
    AccessToken: accessToken,
    UserCode: totpCode(SecretCode),
  });
  expect(verified.status(), await verified.text()).toBe(200);
  const preferred = await idp(request, 'SetUserMFAPreference', {
    AccessToken: accessToken,
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  });
  expect(preferred.status(), await preferred.text()).toBe(200);
  await request.get('/api/connect/user/mfa-status', { headers: { authorization: `Bearer ${accessToken}` } });
  return { email, password, totpSecret: SecretCode };
}

/**
 * A staff user signs in through the UI: password, then the authenticator's code of the next
 * 30-second step (the set-up used this one's), the terms on a first sign-in, the cookie banner.
 */
export async function signInAsStaff(page: Page, user: StaffUser): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/mfa-submit$/, { timeout: 20_000 });
  await page.getByLabel('Authentication code').fill(totpCode(user.totpSecret, true));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/(dashboard|terms-conditions)$/, { timeout: 20_000 });
  if (page.url().endsWith('/terms-conditions')) {
    await page.getByRole('checkbox', { name: /I have read and accept/ }).check();
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  }
  await dismissCookies(page);
}
