import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { expectAccessible, snap as snapPage } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';
import { signIn } from './support/journey.ts';

// One user goes from unverified to verified; the steps depend on each other. The first journey
// signs up, verifies twice and takes a dozen screenshots: on a shared, busy machine that needs
// more than the default minute.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const email = `kyc-${Date.now()}@example.com`;
const password = 'Kyc-Journey-Passw0rd!';
const user = { email, password };

/** A full-page screenshot from the top, so the sticky top bar sits where it belongs. */
async function snap(page: Page, name: string) {
  await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await snapPage(page, name);
}

test('select networks sends an unverified user to verification; a mismatching name fails, a retry verifies', async ({
  page,
  request,
}) => {
  await createConfirmedUser(request, email, password);
  await signIn(page, {
    ...user,
    profile: { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines Ltd', location: 'United Kingdom' },
  });

  // The guard of spec §5: not verified → /quant-flows/kyc?selectNetworks=true.
  await page.goto('/my-networks/select-new-networks');
  await expect(page).toHaveURL(/\/quant-flows\/kyc\?selectNetworks=true$/);
  await expect(page).toHaveTitle('Identity verification | Quant Connect');
  await expect(page.getByRole('heading', { level: 1, name: 'Identity verification' })).toBeVisible();
  await expect(page.getByText(/Selecting networks needs a verified identity/)).toBeVisible();
  const status = page.getByRole('region', { name: 'Your status' });
  await expect(status.getByText('Not verified', { exact: true })).toBeVisible();
  const names = page.getByRole('region', { name: 'Names we will check' });
  await expect(names.getByText('Ada', { exact: true })).toBeVisible();
  await expect(names.getByText('Lovelace', { exact: true })).toBeVisible();
  const verify = page.getByRole('region', { name: 'Verify your identity' });
  await expect(verify.getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(verify.getByLabel('First name on the document')).toHaveValue('Ada');
  await snap(page, 'kyc-01-unverified');
  await expectAccessible(page, '/quant-flows/kyc (unverified)');

  // A document whose last name differs from the profile: the check fails with the reason.
  await verify.getByLabel('Last name on the document').fill('Byron');
  await verify.getByRole('button', { name: 'Start verification' }).click();
  await expect(status.getByText('Pending', { exact: true })).toBeVisible();
  await expect(status.getByText(/Verification started/)).toBeVisible();
  await snap(page, 'kyc-02-pending');
  await expectAccessible(page, '/quant-flows/kyc (pending)');
  await expect(status.getByText('Failed', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(status.getByText(/The name on your document \(Ada Byron\) does not match/)).toBeVisible();
  await snap(page, 'kyc-03-failed');
  await expectAccessible(page, '/quant-flows/kyc (failed)');

  // Retry with the names as in the profile: PENDING, then VERIFIED, then on to selecting networks.
  const retry = page.getByRole('region', { name: 'Try again' });
  await retry.getByLabel('Last name on the document').fill('Lovelace');
  await retry.getByRole('button', { name: 'Start verification' }).click();
  await expect(status.getByText('Pending', { exact: true })).toBeVisible();
  await expect(status.getByText('Verified', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Your name is locked because your identity is verified.')).toBeVisible();
  await snap(page, 'kyc-04-verified');
  await expectAccessible(page, '/quant-flows/kyc (verified)');
  await status.getByRole('link', { name: 'Continue to select networks' }).click();
  await expect(page).toHaveURL(/\/my-networks\/select-new-networks$/);
});

test('once verified, My account shows it and the other verification routes lead back', async ({ page }) => {
  await signIn(page, user);
  await page.goto('/my-account');
  const personal = page.getByRole('region', { name: 'Personal details' });
  await expect(personal.getByText('Verified', { exact: true })).toBeVisible();
  // Spec §5: the names can no longer be changed.
  await expect(personal.getByRole('button', { name: 'Edit name' })).toHaveCount(0);
  await expect(personal.getByRole('link', { name: 'View details' })).toHaveAttribute('href', '/my-account/kyc');
  await snap(page, 'kyc-05-my-account-verified');

  await page.goto('/my-account/kyc');
  await expect(page.getByRole('link', { name: 'Back to My account' })).toBeVisible();
  await page.goto('/my-applications/kyc');
  await expect(page.getByRole('region', { name: 'Your status' }).getByText('Verified', { exact: true })).toBeVisible();
  await snap(page, 'kyc-06-my-applications-verified');
  await expectAccessible(page, '/my-applications/kyc (verified)');
  await page.getByRole('link', { name: 'Back to My applications' }).click();
  await expect(page).toHaveURL(/\/my-applications$/);
});
