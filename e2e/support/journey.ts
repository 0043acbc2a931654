import { expect as baseExpect, type Page } from '@playwright/test';

// The steps the journeys share to get a user where the test starts. Two busy cores: password
// hashing and page loads take seconds, so these steps wait longer than the default.
const expect = baseExpect.configure({ timeout: 15_000 });
const SIGN_IN_TIMEOUT = 20_000;

/**
 * Opens a select by its label, picks an option and waits until the list has closed: while a
 * select's list is open the rest of the page is hidden from the accessibility tree, so the next
 * field could not be found. On a loaded machine a click can land while the list is still opening
 * and be lost (one CI run waited four minutes for the next field); the pick is then repeated.
 */
export async function chooseOption(page: Page, label: string | RegExp, option: string) {
  const select = page.getByRole('combobox', { name: label });
  const choice = page.getByRole('option', { name: option, exact: true });
  await select.click();
  await choice.click();
  await expect(async () => {
    if (await choice.isVisible()) await choice.click({ timeout: 2_000 });
    await expect(page.getByRole('listbox')).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** The cookie banner of a fresh browser would cover the tables and forms in the screenshots. */
export async function dismissCookies(page: Page) {
  await page.getByRole('button', { name: 'Necessary only' }).click();
}

/** What a first sign-in types into the profile form (user details). */
export type Profile = { firstName: string; lastName: string; company: string; location: string };

/**
 * Signs in on `base` (the journeys' server unless given) and dismisses the cookie banner. With a
 * `profile` it is the first sign-in: the user accepts the terms, fills in the profile and skips MFA.
 */
export async function signIn(
  page: Page,
  { email, password, profile, base = '' }: { email: string; password: string; profile?: Profile; base?: string },
) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  if (profile) {
    await expect(page).toHaveURL(/\/terms-conditions$/, { timeout: SIGN_IN_TIMEOUT });
    await page.getByRole('checkbox', { name: /I have read and accept/ }).check();
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await expect(page).toHaveURL(/\/user-details$/);
    await page.getByLabel('First name').fill(profile.firstName);
    await page.getByLabel('Last name').fill(profile.lastName);
    await page.getByLabel('Company name').fill(profile.company);
    await page.getByLabel('Company location').fill(profile.location);
    await chooseOption(page, 'Industry', 'Technology');
    await chooseOption(page, 'Company size', '1–10 employees');
    await chooseOption(page, 'How did you hear about us?', 'Search engine');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page).toHaveURL(/\/mfa-setup$/);
    await page.getByRole('button', { name: 'Skip for now' }).click();
  }
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: SIGN_IN_TIMEOUT });
  await dismissCookies(page);
}

/**
 * On the verification page the select-networks guard sent the user to: verifies in the embedded
 * KYC sandbox (labelled as such) and continues to select networks.
 */
export async function verifyIdentityForNetworks(page: Page) {
  const verify = page.getByRole('region', { name: 'Verify your identity' });
  await expect(verify.getByText('Sandbox', { exact: true })).toBeVisible();
  await verify.getByRole('button', { name: 'Start verification' }).click();
  const status = page.getByRole('region', { name: 'Your status' });
  await expect(status.getByText('Verified', { exact: true })).toBeVisible({ timeout: 20_000 });
  await status.getByRole('link', { name: 'Continue to select networks' }).click();
  await expect(page).toHaveURL(/\/my-networks\/select-new-networks$/);
}

/**
 * For a user without a verified identity: select networks asks for verification first (spec §5);
 * verifies in the sandbox, then activates the local Ethereum testnet through the stepper.
 */
export async function verifyAndActivateTestnet(page: Page, base = '') {
  await page.goto(`${base}/my-networks/select-new-networks`);
  await expect(page).toHaveURL(/\/kyc\?selectNetworks=true$/);
  await verifyIdentityForNetworks(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('checkbox', { name: /Ethereum Testnet/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Activate networks' }).click();
  await expect(page.getByRole('heading', { name: 'Your networks are active' })).toBeVisible();
}
