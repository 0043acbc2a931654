import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';
import { chooseOption, signIn as signInAs } from './support/journey.ts';
import { totpCode, waitForFreshTotpWindow } from './support/totp.ts';

// One user walks the whole first-visit path, then comes back with MFA: the steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 240_000 });
// The machine is shared with other work: give each step room, the behaviour asserted is the same.
const expect = baseExpect.configure({ timeout: 20_000 });

const email = `journey-${Date.now()}@example.com`;
const password = 'Journey-Passw0rd!';
let totpSecret = '';
// The frame and the 404 page are not about MFA: another user, so that they wait for no new
// authenticator step (each MFA sign-in takes a step no earlier sign-in used: up to 30 s).
const frameUser = { email: `journey-frame-${Date.now()}@example.com`, password };

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
  // Spec §4: sign-out clears the session storage (marker and challenge entries).
  expect(
    await page.evaluate(() => (globalThis as unknown as { sessionStorage: { length: number } }).sessionStorage.length),
  ).toBe(0);
}

/** Waits for the next 30-second step, so a code differs from every code used before (a real wait: the TOTP window is the subject). */
async function nextTotpWindow(page: Page) {
  await page.waitForTimeout((30 - (Math.floor(Date.now() / 1000) % 30) + 1) * 1000);
}

test('register, read the code in the dev mailbox, confirm, sign in, accept terms, complete the profile, set up MFA', async ({
  page,
  context,
}) => {
  await page.goto('/register');
  await expect(page).toHaveTitle('Register | Quant Connect');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  // The password rules of spec §5 are ticked off live.
  await expect(page.getByRole('listitem').filter({ hasText: 'At least 8 characters' })).toContainText('(done)');
  await expect(page.getByRole('listitem').filter({ hasText: 'A symbol' })).toContainText('(done)');
  await page.getByLabel('Confirm password').fill(password);
  await page.getByText("I'm not a robot").click();
  await expect(page.getByText('Verified')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('checkbox', { name: /I accept the/ }).check();
  await snap(page, '01-register');
  await expectAccessible(page, '/register');
  await page.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/register\/confirmation/);
  await expect(page).toHaveTitle('Confirm your email | Quant Connect');
  await snap(page, '02-register-confirmation');
  await expectAccessible(page, '/register/confirmation');

  // The code comes from the dev mailbox page the confirmation page links to (a new tab).
  const [mailbox] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: 'dev mailbox' }).click(),
  ]);
  await mailbox.waitForLoadState();
  await expect(mailbox).toHaveURL(/\/dev\/mailbox\?to=/);
  await expect(mailbox.getByRole('heading', { level: 1, name: 'Dev mailbox' })).toBeVisible();
  const codeBox = mailbox.getByTestId('message-code').first();
  await expect(codeBox).toHaveText(/^\d{6}$/);
  const code = (await codeBox.textContent())!.trim();
  await snap(mailbox, '03-dev-mailbox');
  await expectAccessible(mailbox, '/dev/mailbox');
  await mailbox.close();

  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Confirm email' }).click();
  await expect(page).toHaveURL(/\/register\/confirmed/);
  await snap(page, '04-register-confirmed');
  await expectAccessible(page, '/register/confirmed');
  await page.getByRole('link', { name: 'Continue to login' }).click();

  await expect(page).toHaveURL(/\/login/);
  await expect(page).toHaveTitle('Login | Quant Connect');
  await snap(page, '05-login');
  await expectAccessible(page, '/login');
  await signIn(page);
  await expect(page).toHaveURL(/\/terms-conditions$/);
  await expect(page).toHaveTitle('Terms and conditions | Quant Connect');
  // Blank layout: the logo is not a link (spec §2.1).
  await expect(page.getByRole('link', { name: 'Quant Connect' })).toHaveCount(0);
  await snap(page, '06-terms');
  await expectAccessible(page, '/terms-conditions');
  // The guards hold every other page until the terms are accepted (spec §5).
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/terms-conditions$/);
  await page.getByRole('checkbox', { name: /I have read and accept/ }).check();
  await page.getByRole('button', { name: 'Accept and continue' }).click();

  await expect(page).toHaveURL(/\/user-details$/);
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText('This field is required.').first()).toBeVisible();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Company name').fill('Analytical Engines Ltd');
  await page.getByLabel('Company location').fill('United Kingdom');
  await chooseOption(page, 'Industry', 'Technology');
  await chooseOption(page, 'Company size', '1–10 employees');
  await chooseOption(page, 'How did you hear about us?', 'Event or conference');
  await page.getByLabel('Which event?').fill('Money20/20 Europe');
  await snap(page, '07-user-details');
  await expectAccessible(page, '/user-details');
  await page.getByRole('button', { name: 'Save and continue' }).click();

  await expect(page).toHaveURL(/\/mfa-setup$/);
  await expect(page.locator('svg title', { hasText: 'QR code for your authenticator app' })).toHaveCount(1);
  const secretBox = page.locator('code[aria-labelledby="mfa-secret-label"]');
  await expect(secretBox).toBeVisible();
  totpSecret = (await secretBox.textContent())!.replace(/\s+/g, '');
  await snap(page, '08-mfa-setup');
  await expectAccessible(page, '/mfa-setup');
  await waitForFreshTotpWindow();
  await page.getByLabel('6-digit code').fill(totpCode(totpSecret));
  await page.getByRole('button', { name: 'Verify and turn on' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page).toHaveTitle('Dashboard | Quant Connect');
  await expect(page.getByText('Trial').first()).toBeVisible();
  await expect(page.getByText('Latest updates')).toBeVisible();
  // First visit to the signed-in frame: the cookie banner asks once.
  await expect(page.getByRole('button', { name: 'Accept all' })).toBeVisible();
  await snap(page, '09-dashboard-cookie-banner');
  await expectAccessible(page, '/dashboard with the cookie banner');
  await page.getByRole('button', { name: 'Accept all' }).click();
  await expect(page.getByRole('button', { name: 'Accept all' })).toHaveCount(0);
  await snap(page, '10-dashboard');
  await expectAccessible(page, '/dashboard');

  // The blank-layout pages are done: their bypass guards send the user to the dashboard.
  for (const done of ['/terms-conditions', '/user-details', '/mfa-setup']) {
    await page.goto(done);
    await expect(page).toHaveURL(/\/dashboard$/);
  }

  await page.goto('/my-account');
  await expect(page.getByText('MFA is active')).toBeVisible();
  await signOut(page);
});

test('signs in again with the authenticator code; a wrong and a replayed code are refused', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allowFailedRequest(400, '/idp', 'the pool refuses the wrong and the replayed code');
  await waitForFreshTotpWindow(12);
  await signIn(page);
  await expect(page).toHaveURL(/\/mfa-submit$/);
  await expect(page).toHaveTitle('Two-factor authentication | Quant Connect');
  await snap(page, '11-mfa-submit');
  await expectAccessible(page, '/mfa-submit');
  // A code that is not the authenticator's: the spec's message, and the step stays.
  const wrong = String((Number(totpCode(totpSecret)) + 1) % 1_000_000).padStart(6, '0');
  await page.getByLabel('Authentication code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Invalid code received for user.')).toBeVisible();
  await expect(page).toHaveURL(/\/mfa-submit$/);
  await snap(page, '12-mfa-submit-wrong-code');
  await expectAccessible(page, '/mfa-submit with an error');

  // The set-up code of the previous test was this window's or the one before: use the next one.
  const code = totpCode(totpSecret, true);
  await nextTotpWindow(page);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/my-account');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('MFA is active')).toBeVisible();
  await snap(page, '13-my-account');
  await expectAccessible(page, '/my-account');
  await signOut(page);

  // The same code a second time within its window: "This code has already been used once."
  await signIn(page);
  await expect(page).toHaveURL(/\/mfa-submit$/);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('This code has already been used once.')).toBeVisible();
});

test('a deep link to a page the role may not see answers 404; the footer falls back to the default', async ({
  page,
  request,
  consoleGuard,
}) => {
  consoleGuard.allowFailedRequest(500, '/api/connect/content/footer', 'the test makes the footer request fail');
  consoleGuard.allowMessage(
    'warning',
    /^The footer could not be loaded; showing the default footer\./,
    'spec §8: the fallback says why, as an internal message',
  );
  await createConfirmedUser(request, frameUser.email, frameUser.password);
  await signInAs(page, {
    ...frameUser,
    profile: { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', location: 'United Kingdom' },
  });
  await expect(page.getByRole('navigation', { name: /menu/i }).getByText('User management')).toHaveCount(0);
  await page.goto('/user-management');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: '404 Page Not Found!' })).toBeVisible();
  await snap(page, '14-not-found-signed-in');
  await expectAccessible(page, '/404 (signed in)');

  // The footer falls back to the built-in default when its content cannot be loaded.
  await page.route('**/api/connect/content/footer', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/support/faq');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('Who we serve')).toBeVisible();
  await expect(footer.getByText('Privacy policy')).toBeVisible();
  await expect(footer.getByText(String(new Date().getFullYear()))).toBeVisible();
  await snap(page, '15-faq-default-footer');
  await expectAccessible(page, '/support/faq');
});

test('the signed-in frame: menu, breadcrumbs, account menu, support, authorise and documentation', async ({
  page,
  context,
}) => {
  await signInAs(page, frameUser);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  // Spec §9 order values within their categories: Dashboard (1) before Authorise (2) in Core.
  // (The category headings are upper-cased by CSS, which Chromium's accessible names keep.)
  const core = menu.getByRole('list', { name: /^core$/i });
  await expect(core.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  const coreItems = await core.getByRole('link').allInnerTexts();
  const dashboardAt = coreItems.indexOf('Dashboard');
  expect(dashboardAt).toBeGreaterThanOrEqual(0);
  expect(dashboardAt).toBeLessThan(coreItems.findIndex((text) => text.includes('Authorise')));
  await expect(menu.getByRole('list', { name: /^developer hub$/i })).toBeVisible();

  // The account menu of spec §2.2.
  await page.getByRole('button', { name: /Account menu/ }).click();
  for (const item of ['My account', 'Profile', 'Invoices', 'Support', 'Log out']) {
    await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
  }
  await snap(page, '16-account-menu');
  await expectAccessible(page, 'the account menu');
  await page.getByRole('menuitem', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/support\/help$/);
  await expect(page).toHaveTitle('Support | Quant Connect');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByText('Support', { exact: true }).first()).toBeVisible();
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Help');
  await snap(page, '17-support-help');
  await expectAccessible(page, '/support/help');

  await page.goto('/support/faq');
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('FAQ');

  // Authorise: the intro page and its contact form (POST /contact-us-authorise).
  await menu.getByRole('link', { name: /Authorise/ }).click();
  await expect(page).toHaveURL(/\/quant-authorise$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Quant Connect Authorise' })).toBeVisible();
  await snap(page, '18-authorise');
  await expectAccessible(page, '/quant-authorise');
  await page.getByRole('button', { name: 'Contact us' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toHaveAccessibleName('Contact us about Authorise');
  await expect(dialog.getByLabel(/^Name/)).toHaveValue('Ada Lovelace');
  await dialog.getByLabel('How can we help?').fill('We would like to try Authorise.');
  await snap(page, '19-authorise-contact');
  await expectAccessible(page, 'the authorise contact dialog');
  await dialog.getByRole('button', { name: 'Send enquiry' }).click();
  await expect(dialog.getByText(/Your reference is/)).toBeVisible();
  await expect(dialog.getByText('We will answer within 24 working hours.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Documentation opens the external documentation in a new tab; the portal page stays.
  await context.route('https://docs.quant.network/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Docs</title>' }),
  );
  const [docs] = await Promise.all([
    context.waitForEvent('page'),
    menu.getByRole('link', { name: /Documentation/ }).click(),
  ]);
  await expect.poll(() => docs.url()).toContain('docs.quant.network');
  await docs.close();
  await expect(page).toHaveURL(/\/quant-authorise$/);

  // Spec §2.3 redirects of listed sections whose pages come with their areas.
  await page.goto('/quant-fusion');
  await expect(page).toHaveURL(/\/quant-fusion\/multi-ledger-rollup\/transaction-explorer$/);
  // Bridge routes need the bridge feature (spec §5): a newcomer opts in to the Bridges beta first.
  await page.goto('/beta/features');
  await page.getByRole('switch', { name: 'Opt in to Bridges' }).click();
  await expect(page.getByText('Bridges is on for your account')).toBeVisible();
  await page.goto('/quant-flows/bridge-flow/deploy');
  await expect(page).toHaveURL(/\/quant-flows\/bridge-flow\/deploy\/create-new-bridge$/);
  await page.goto('/quant-authorise');

  // Collapsed to icons, the menu still names each item (tooltips and accessible names).
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await menu.getByRole('link', { name: 'Dashboard' }).hover();
  await expect(page.getByRole('tooltip', { name: 'Dashboard' })).toBeVisible();
  await snap(page, '20-menu-collapsed');
  await expectAccessible(page, 'the collapsed menu');
  await page.getByRole('button', { name: 'Expand menu' }).click();
});
