import { expect as baseExpect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { newCustomer } from './support/customer.ts';

import { adminAccessToken, signInAsAdministrator } from './support/staff.ts';

// The machine is shared with other work: give each step room, the behaviour asserted is the same.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 300_000 });

test('an administrator creates a subscription tier that a customer sees in the plans table, moves it, retires it and deletes it', async ({
  page,
  request,
  browser,
  consoleGuard,
}) => {
  const tierName = `Annual — Platinum ${Date.now() % 100_000}`;

  // ── The administrator opens Subscription tiers from the Connect Admin menu ──
  const adminToken = await adminAccessToken(request);
  await request.get('/api/connect/user/mfa-status', { headers: { authorization: `Bearer ${adminToken}` } });
  await signInAsAdministrator(page);
  await page.getByRole('navigation', { name: /menu/i }).getByText('Subscription tiers', { exact: true }).click();
  await expect(page).toHaveURL(/\/subscription-management$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription tiers' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Subscription tiers' });
  await expect(table.getByRole('row').filter({ hasText: 'Annual Subscription — Standard' })).toContainText(
    '£6,000.00 a year',
  );
  await snap(page, 'subscription-tiers-01-list');
  await expectAccessible(page, '/subscription-management');

  // ── A new annual tier, its money typed in pounds, QNT and dollars ──
  await page.getByRole('button', { name: 'New tier' }).click();
  const dialog = page.getByRole('dialog', { name: 'New subscription tier' });
  await dialog.getByRole('button', { name: 'Create tier' }).click();
  await expect(dialog.getByText('Choose at least one payment method.')).toBeVisible();
  await dialog.getByRole('textbox', { name: /^Name/ }).fill(tierName);
  await dialog.getByRole('combobox', { name: /^Plan type/ }).click();
  await page.getByRole('option', { name: 'Annual Subscription' }).click();
  await dialog.getByRole('combobox', { name: /^Tier/ }).click();
  await page.getByRole('option', { name: 'Advance' }).click();
  await dialog.getByRole('textbox', { name: /^Short description/ }).fill('Every blockchain, the most of everything.');
  await dialog.getByRole('textbox', { name: /^Full description/ }).fill('Billed annually in advance.');
  await dialog.getByRole('textbox', { name: /^Annual fee/ }).fill('24,000');
  await dialog.getByRole('textbox', { name: /^QNT price/ }).fill('300');
  await dialog.getByRole('checkbox', { name: 'QNT' }).check();
  await dialog.getByRole('checkbox', { name: 'Bank transfer' }).check();
  const allowances = { Applications: '80', Tokens: '150', Bridges: '80', Blockchains: '0', Mainnets: '15' };
  for (const [label, value] of Object.entries(allowances)) {
    await dialog.getByRole('textbox', { name: new RegExp(`^${label}`) }).fill(value);
  }
  await dialog.getByRole('textbox', { name: /^Testnets/ }).fill('80');
  await dialog.getByRole('textbox', { name: /^Rate limit/ }).fill('400');
  await dialog.getByRole('button', { name: 'Add bundle' }).click();
  const bundle = dialog.getByRole('group', { name: 'Credit bundles 1' });
  await bundle.getByRole('textbox', { name: /^Credits/ }).fill('10,000');
  await bundle.getByRole('textbox', { name: /^Price including VAT/ }).fill('9,500');
  await expect(bundle).toContainText('$0.95 a credit');
  await snap(page, 'subscription-tiers-02-create');
  await expectAccessible(page, '/subscription-management (new tier)');
  await dialog.getByRole('button', { name: 'Create tier' }).click();
  await expect(dialog).toBeHidden();
  const row = table.getByRole('row').filter({ hasText: tierName });
  await expect(row).toContainText('£24,000.00 a year');
  await expect(row).toContainText('On sale');

  // ── The customer sees it in the plans table of the upgrade journey ──
  const { context: customer, page: customerPage } = await newCustomer({ request, browser, consoleGuard }, 'tiers', {
    firstName: 'Tia',
    lastName: 'Ers',
    company: 'Tier Works Ltd',
    location: 'United Kingdom',
  });
  await customerPage.goto('/account-plan/upgrade');
  const plans = customerPage.getByRole('table', { name: 'Choose your plan' });
  await expect(plans.getByText(tierName)).toBeVisible();
  await expect(plans).toContainText('£24,000.00');
  await snap(customerPage, 'subscription-tiers-03-customer-plans');

  // ── Moved up by keyboard: the focus stays on the moved tier ──
  const up = page.getByRole('button', { name: `Move ${tierName} up` });
  await up.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: `Move ${tierName} down` })).toBeEnabled();
  await expect
    .poll(async () => (await table.getByRole('row').allTextContents()).findIndex((text) => text.includes(tierName)))
    .toBe(4);

  // ── Retired: hidden from the customer's plans table ──
  await page.getByRole('button', { name: `Retire ${tierName}` }).click();
  const retire = page.getByRole('dialog', { name: `Retire ${tierName}?` });
  await snap(page, 'subscription-tiers-04-retire');
  await retire.getByRole('button', { name: 'Retire' }).click();
  await expect(row).toContainText('Retired');
  await customerPage.reload();
  await expect(customerPage.getByRole('table', { name: 'Choose your plan' })).toBeVisible();
  await expect(customerPage.getByText(tierName)).toHaveCount(0);

  // ── Deleted: nothing uses it; a seeded tier in use cannot be ──
  await page.getByRole('button', { name: `Delete ${tierName}` }).click();
  const remove = page.getByRole('dialog', { name: `Delete ${tierName}?` });
  await remove.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await snap(page, 'subscription-tiers-05-after-delete');
  await customer.close();
});
