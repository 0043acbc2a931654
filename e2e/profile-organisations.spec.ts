import type { Page } from '@playwright/test';
import { expectAccessible, snap as snapPage } from './support/a11y.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { createConfirmedUser } from './support/identity.ts';
import { chooseOption, dismissCookies, signIn } from './support/journey.ts';

// The organisations already registered (issue 35 §2, GET /organisations): a first user registers
// Acme Widgets Ltd; a second user from the same company types "Acme" on /user-details, picks the
// existing name from the list and finds it on the profile. The profile's names form saves the
// names alone (PUT /user/identity).
test.describe.configure({ mode: 'serial', timeout: 180_000 });
// Two busy cores: pages and password hashing answer within seconds.
const expect = baseExpect.configure({ timeout: 15_000 });

const ORGANISATION = 'Acme Widgets Ltd';
const stamp = Date.now();
const first = { email: `acme-first-${stamp}@example.com`, password: 'Acme-First-Passw0rd!' };
const second = { email: `acme-second-${stamp}@example.com`, password: 'Acme-Second-Passw0rd!' };

/** A full-page screenshot from the top. */
async function snap(page: Page, name: string) {
  await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await snapPage(page, name);
}

test('a first user registers the organisation', async ({ page, request }) => {
  await createConfirmedUser(request, first.email, first.password);
  await signIn(page, {
    ...first,
    profile: { firstName: 'Wile', lastName: 'Coyote', company: ORGANISATION, location: 'Arizona' },
  });
  await page.goto('/my-account');
  const business = page.getByRole('region', { name: 'Business details' });
  await expect(business.getByRole('combobox', { name: 'Company name' })).toHaveValue(ORGANISATION);
});

test('a second user from the same company picks the registered name', async ({ page, request }) => {
  await createConfirmedUser(request, second.email, second.password);
  await page.goto('/login');
  await page.getByLabel('Email address').fill(second.email);
  await page.getByLabel('Password', { exact: true }).fill(second.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/terms-conditions$/, { timeout: 20_000 });
  await page.getByRole('checkbox', { name: /I have read and accept/ }).check();
  await page.getByRole('button', { name: 'Accept and continue' }).click();
  await expect(page).toHaveURL(/\/user-details$/);

  await page.getByLabel('First name').fill('Road');
  await page.getByLabel('Last name').fill('Runner');
  const company = page.getByRole('combobox', { name: 'Company name' });
  await company.pressSequentially('Acme', { delay: 50 });
  const suggestion = page.getByRole('option', { name: ORGANISATION, exact: true });
  await expect(suggestion).toBeVisible();
  await expectAccessible(page, 'the organisation suggestions on /user-details');
  await snap(page, 'profile-organisations-01-suggestions');
  await suggestion.click();
  await expect(company).toHaveValue(ORGANISATION);
  await expect(page.getByRole('listbox')).toHaveCount(0);

  await page.getByLabel('Company location').fill('Arizona');
  await chooseOption(page, 'Industry', 'Technology');
  await chooseOption(page, 'Company size', '11–50 employees');
  await chooseOption(page, 'How did you hear about us?', 'Recommendation from someone');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL(/\/mfa-setup$/);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  await dismissCookies(page);

  await page.goto('/my-account');
  const business = page.getByRole('region', { name: 'Business details' });
  await expect(business.getByRole('combobox', { name: 'Company name' })).toHaveValue(ORGANISATION);
  await snap(page, 'profile-organisations-02-profile');
});

test('the profile saves the names alone, and they stay after a reload', async ({ page }) => {
  await signIn(page, second);
  await page.goto('/my-account');
  const personal = page.getByRole('region', { name: 'Personal details' });
  await personal.getByRole('button', { name: 'Edit name' }).click();
  await personal.getByRole('textbox', { name: 'Last name' }).fill('Runner-Beep');
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/api/connect/user/identity') && response.request().method() === 'PUT',
  );
  await personal.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
  await expect(personal.getByText('Road Runner-Beep')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Personal details' }).getByText('Road Runner-Beep')).toBeVisible();
});
