import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { idp } from './identity.ts';
import { dismissCookies } from './journey.ts';
import { latestMail } from './mailbox.ts';
import { totpCode, waitForFreshTotpWindow } from './totp.ts';

/** The seeded administrator (playwright.config.ts ADMIN_EMAIL) and the password recovery.spec.ts chooses. */
export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'Admin-Chosen-Passw0rd!';

type AuthAnswer = {
  AuthenticationResult?: { AccessToken: string; ExpiresIn?: number };
  ChallengeName?: string;
  Session?: string;
};

/**
 * What the specs of one run know of the administrator's authenticator (staff must use one, issue
 * 32): its secret, and the last 30-second step whose code was used (a code is accepted once, so a
 * second sign-in in the same step uses the next step's code). Kept in a file named by the run's
 * port, because whichever spec signs the administrator in first sets MFA up — recovery.spec.ts
 * through the UI, or adminAccessToken below through the identity pool.
 */
type AdminState = { totpSecret?: string; lastStep?: number; accessToken?: string; expiresAt?: number };
const stateFile = () => path.join(os.tmpdir(), `connect-e2e-admin-${process.env.E2E_PORT ?? 'default'}.json`);
export function readAdminState(): AdminState {
  return existsSync(stateFile()) ? (JSON.parse(readFileSync(stateFile(), 'utf8')) as AdminState) : {};
}
export function saveAdminState(change: AdminState): void {
  writeFileSync(stateFile(), JSON.stringify({ ...readAdminState(), ...change }));
}

/**
 * A code of the administrator's authenticator that has not been used yet: this step's, or the next
 * step's when this one's was used (the pool accepts a neighbouring step), or — both used — this
 * one's once the clock reaches the next step.
 */
export async function freshAdminCode(secret: string): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000);
    const { lastStep } = readAdminState();
    if (lastStep === undefined || lastStep < step) {
      saveAdminState({ lastStep: step });
      return totpCode(secret);
    }
    if (lastStep === step) {
      saveAdminState({ lastStep: step + 1 });
      return totpCode(secret, true);
    }
    await new Promise((resolve) => setTimeout(resolve, (step + 1) * 30_000 - Date.now() + 200));
  }
}

/**
 * An administrator's access token for staff calls made outside the screen under test. The
 * administrator is invited with a temporary password; whichever spec signs in first chooses
 * ADMIN_PASSWORD (as recovery.spec.ts does through the UI) and sets up the authenticator, so this
 * works whether or not that spec ran before. The token is reused while it is valid.
 */
export async function adminAccessToken(request: APIRequestContext): Promise<string> {
  const cached = readAdminState();
  if (cached.accessToken && (cached.expiresAt ?? 0) > Date.now() + 60_000) return cached.accessToken;
  const signIn = (password: string) =>
    idp(request, 'InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: ADMIN_EMAIL, PASSWORD: password },
    });
  let response = await signIn(ADMIN_PASSWORD);
  if (response.status() !== 200) {
    const invitation = await latestMail(request, ADMIN_EMAIL, 'INVITATION');
    response = await signIn(invitation.code ?? '');
    expect(response.status(), await response.text()).toBe(200);
    const challenge = (await response.json()) as AuthAnswer;
    expect(challenge.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    response = await idp(request, 'RespondToAuthChallenge', {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      ChallengeResponses: { USERNAME: ADMIN_EMAIL, NEW_PASSWORD: ADMIN_PASSWORD },
      Session: challenge.Session,
    });
  }
  expect(response.status(), await response.text()).toBe(200);
  let answer = (await response.json()) as AuthAnswer;
  if (answer.ChallengeName === 'SOFTWARE_TOKEN_MFA') {
    const { totpSecret } = readAdminState();
    expect(totpSecret, 'the administrator’s authenticator secret of this run').toBeTruthy();
    response = await idp(request, 'RespondToAuthChallenge', {
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      ChallengeResponses: { USERNAME: ADMIN_EMAIL, SOFTWARE_TOKEN_MFA_CODE: await freshAdminCode(totpSecret!) },
      Session: answer.Session,
    });
    expect(response.status(), await response.text()).toBe(200);
    answer = (await response.json()) as AuthAnswer;
  }
  const accessToken = answer.AuthenticationResult?.AccessToken;
  expect(accessToken).toBeTruthy();
  if (!readAdminState().totpSecret) await setUpAuthenticator(request, accessToken!);
  saveAdminState({ accessToken, expiresAt: Date.now() + (answer.AuthenticationResult?.ExpiresIn ?? 3600) * 1000 });
  return accessToken!;
}

/** Sets up the administrator's authenticator through the identity pool (staff must have one). */
async function setUpAuthenticator(request: APIRequestContext, accessToken: string): Promise<void> {
  const associated = await idp(request, 'AssociateSoftwareToken', { AccessToken: accessToken });
  expect(associated.status(), await associated.text()).toBe(200);
  const { SecretCode } = (await associated.json()) as { SecretCode: string };
  saveAdminState({ totpSecret: SecretCode });
  const verified = await idp(request, 'VerifySoftwareToken', {
    AccessToken: accessToken,
    UserCode: await freshAdminCode(SecretCode),
  });
  expect(verified.status(), await verified.text()).toBe(200);
  const preferred = await idp(request, 'SetUserMFAPreference', {
    AccessToken: accessToken,
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  });
  expect(preferred.status(), await preferred.text()).toBe(200);
}

/**
 * The administrator signs in through the UI: password, then a fresh code of the authenticator
 * (call adminAccessToken first: it sets both up whichever spec runs first), the terms when this
 * run has not accepted them yet, and the cookie banner dismissed.
 */
export async function signInAsAdministrator(page: Page): Promise<void> {
  await waitForFreshTotpWindow(10);
  await page.goto('/login');
  await page.getByLabel('Email address').fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/mfa-submit$/, { timeout: 20_000 });
  await page.getByLabel('Authentication code').fill(await freshAdminCode(readAdminState().totpSecret!));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/(dashboard|terms-conditions)$/, { timeout: 20_000 });
  if (page.url().endsWith('/terms-conditions')) {
    await page.getByRole('checkbox', { name: /I have read and accept/ }).check();
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  }
  await dismissCookies(page);
}
