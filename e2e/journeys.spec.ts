import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, snap } from './support/a11y.ts';
import { latestMail } from './support/mailbox.ts';
import { totpCode, waitForFreshTotpWindow } from './support/totp.ts';

// One user walks the whole first-visit path, then comes back with MFA: the steps depend on each other.
test.describe.configure({ mode: 'serial' });

const email = `journey-${Date.now()}@example.com`;
const password = 'Journey-Passw0rd!';
let totpSecret = '';

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function signIn(page: Page, withPassword = password) {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(withPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('register, confirm with the emailed code, accept terms, complete the profile, set up MFA', async ({
  page,
  request,
}) => {
  await page.goto('/register');
  await expect(page).toHaveTitle('Register | Quant Connect');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByText("I'm not a robot").click();
  await expect(page.getByText('Verified')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('checkbox', { name: /I accept the/ }).check();
  await snap(page, '01-register');
  await expectAccessible(page, '/register');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/register\/confirmation/);
  await snap(page, '02-register-confirmation');
  await expectAccessible(page, '/register/confirmation');
  const { code } = await latestMail(request, email, 'SIGN_UP_CODE');
  await page.getByLabel('Verification code').fill(code!);
  await page.getByRole('button', { name: 'Confirm email' }).click();
  await expect(page).toHaveURL(/\/register\/confirmed/);
  await snap(page, '03-register-confirmed');
  await page.getByRole('link', { name: 'Continue to login' }).click();

  await signIn(page);
  await expect(page).toHaveURL(/\/terms-conditions$/);
  await expect(page).toHaveTitle('Terms and conditions | Quant Connect');
  await snap(page, '04-terms');
  await expectAccessible(page, '/terms-conditions');
  await page.getByRole('checkbox', { name: /I have read and accept/ }).check();
  await page.getByRole('button', { name: 'Accept and continue' }).click();

  await expect(page).toHaveURL(/\/user-details$/);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Company name').fill('Analytical Engines Ltd');
  await page.getByLabel('Company location').fill('United Kingdom');
  await chooseOption(page, 'Industry', 'Technology');
  await chooseOption(page, 'Company size', '1–10 employees');
  await chooseOption(page, 'How did you hear about us?', 'Event or conference');
  await page.getByLabel('Which event?').fill('Money20/20 Europe');
  await snap(page, '05-user-details');
  await expectAccessible(page, '/user-details');
  await page.getByRole('button', { name: 'Save and continue' }).click();

  await expect(page).toHaveURL(/\/mfa-setup$/);
  const secretBox = page.locator('code[aria-labelledby="mfa-secret-label"]');
  await expect(secretBox).toBeVisible();
  totpSecret = (await secretBox.textContent())!.replace(/\s+/g, '');
  await snap(page, '06-mfa-setup');
  await expectAccessible(page, '/mfa-setup');
  await waitForFreshTotpWindow();
  await page.getByLabel('6-digit code').fill(totpCode(totpSecret));
  await page.getByRole('button', { name: 'Verify and turn on' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page).toHaveTitle('Dashboard | Quant Connect');
  await expect(page.getByText('Trial').first()).toBeVisible();
  await expect(page.getByText('Latest updates')).toBeVisible();
  await snap(page, '07-dashboard');
  await expectAccessible(page, '/dashboard');

  await page.goto('/my-account');
  await expect(page.getByText('MFA is active')).toBeVisible();
  await signOut(page);
});

test('signs in again with the authenticator code, and a replayed code is refused', async ({ page }) => {
  await waitForFreshTotpWindow(12);
  await signIn(page);
  await expect(page).toHaveURL(/\/mfa-submit$/);
  await snap(page, '08-mfa-submit');
  await expectAccessible(page, '/mfa-submit');
  // The set-up code of the previous test was this window's or the one before: use the next one.
  const code = totpCode(totpSecret, true);
  await page.waitForTimeout((30 - (Math.floor(Date.now() / 1000) % 30) + 1) * 1000);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/my-account');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('MFA is active')).toBeVisible();
  await snap(page, '09-my-account');
  await expectAccessible(page, '/my-account');
  await signOut(page);

  // The same code a second time within its window: "This code has already been used once."
  await signIn(page);
  await expect(page).toHaveURL(/\/mfa-submit$/);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('This code has already been used once.')).toBeVisible();
});

test('a deep link to a page the role may not see answers 404', async ({ page }) => {
  await waitForFreshTotpWindow(12);
  await signIn(page);
  await expect(page).toHaveURL(/\/mfa-submit$/);
  await page.getByLabel('Authentication code').fill(totpCode(totpSecret));
  await page
    .getByRole('button', { name: 'Verify' })
    .click()
    .catch(() => undefined);
  await page.waitForURL(/\/dashboard$|\/mfa-submit$/);
  if (page.url().endsWith('/mfa-submit')) {
    // The current code was used by the previous test: wait for the next window.
    await page.waitForTimeout((30 - (Math.floor(Date.now() / 1000) % 30) + 1) * 1000);
    await page.getByLabel('Authentication code').fill(totpCode(totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: /menu/i }).getByText('User management')).toHaveCount(0);
  await page.goto('/user-management');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: '404 Page Not Found!' })).toBeVisible();
  await snap(page, '10-not-found-signed-in');

  // The footer falls back to the built-in default when its content cannot be loaded.
  await page.route('**/api/connect/content/footer', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/support/faq');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('Who we serve')).toBeVisible();
  await expect(footer.getByText('Privacy policy')).toBeVisible();
  await expect(footer.getByText(String(new Date().getFullYear()))).toBeVisible();
  await snap(page, '11-faq-default-footer');
  await expectAccessible(page, '/support/faq');
});
