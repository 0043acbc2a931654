import { expect, test } from '@playwright/test';
import { expectAccessible, snap } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';

const password = 'Public-Passw0rd!';
const existing = `existing-${Date.now()}@example.com`;

test.beforeAll(async ({ request }) => {
  await createConfirmedUser(request, existing, password);
});

test('login: wrong password, unknown user and lockout show the spec messages', async ({ page }) => {
  await page.goto('/login');
  await expectAccessible(page, '/login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await snap(page, '40-login-empty');

  await page.getByLabel('Email address').fill('nobody@example.com');
  await page.getByLabel('Password', { exact: true }).fill('Wrong-Passw0rd!');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Email address or password invalid.')).toBeVisible();

  await page.getByLabel('Email address').fill(existing);
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.getByLabel('Password', { exact: true }).fill(`Wrong-Passw0rd!${attempt}`);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
  }
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Password attempts exceeded.')).toBeVisible();
  await snap(page, '41-login-locked');
});

test('register: field rules, mismatch and an existing user', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('Email address').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page.getByText('Passwords do not match.')).toBeVisible();
  await expect(page.getByText('Please accept the terms of use to continue.')).toBeVisible();
  await snap(page, '42-register-errors');
  await expectAccessible(page, '/register with errors');

  await page.getByLabel('Email address').fill(existing);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByText("I'm not a robot").click();
  await expect(page.getByText('Verified')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('checkbox', { name: /I accept the/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('User already exists.')).toBeVisible();
});

test('confirmation: a wrong code, and confirming an account twice', async ({ page }) => {
  await page.goto(`/register/confirmation?email=${encodeURIComponent(existing)}`);
  await page.getByLabel('Verification code').fill('12');
  await page.getByRole('button', { name: 'Confirm email' }).click();
  await expect(page.getByText('The code is 6 digits.')).toBeVisible();
  await page.getByLabel('Verification code').fill('123456');
  await page.getByRole('button', { name: 'Confirm email' }).click();
  await expect(page.getByText('Your user has already been confirmed.')).toBeVisible();
  await snap(page, '43-confirmation-already');
  await expectAccessible(page, '/register/confirmation');
});

test('activation states, new password without a challenge, and MFA without a challenged user', async ({ page }) => {
  await page.goto('/activation?status=already-activated');
  await expect(page.getByText('Email already activated.')).toBeVisible();
  await expectAccessible(page, '/activation');
  await page.goto('/activation?status=expired');
  await expect(page.getByRole('heading', { name: 'This code has expired' })).toBeVisible();
  await snap(page, '44-activation-expired');

  await page.goto('/new-password');
  await expect(page.getByText('Something went wrong, please go back to login.')).toBeVisible();
  await snap(page, '45-new-password-no-session');

  await page.goto('/mfa-submit');
  await expect(page).toHaveURL(/\/login$/);
});

test('forgot password: an invalid email stays on the page', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email address').fill('nope');
  await page.getByRole('button', { name: 'Send reset code' }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test('the dev mailbox shows the codes sent to an address, newest first', async ({ page }) => {
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(existing)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dev mailbox' })).toBeVisible();
  await expect(page.getByRole('region', { name: `Messages for ${existing}` })).toBeVisible();
  await expect(page.getByText(/\b\d{6}\b/).first()).toBeVisible();
  await snap(page, '46-dev-mailbox');
  await expectAccessible(page, '/dev/mailbox');
  await page.getByLabel('Email address').fill(`nobody-${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Show messages' }).click();
  await expect(page.getByText('No messages for this address yet.')).toBeVisible();
});
