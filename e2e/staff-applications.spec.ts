import { expect as baseExpect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { newCustomer } from './support/customer.ts';

import { chooseOption, verifyAndActivateTestnet } from './support/journey.ts';
import { latestMail } from './support/mailbox.ts';
import { adminAccessToken, signInAsAdministrator } from './support/staff.ts';

// Issue 33 §2, §6: an administrator creates an application for a customer (found by typing their
// email), sees its secret once, and the customer finds it in their list and their mailbox.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 300_000 });

test('an administrator creates an application for a customer, who finds it in My applications and by email', async ({
  page,
  request,
  browser,
  consoleGuard,
}) => {
  // ── A customer who activated the local Ethereum testnet ──
  const {
    email,
    context: customer,
    page: customerPage,
  } = await newCustomer({ request, browser, consoleGuard }, 'appowner', {
    firstName: 'Ada',
    lastName: 'Appowner',
    company: 'Appowner Labs',
    location: 'Leeds',
  });
  await verifyAndActivateTestnet(customerPage);

  // ── The administrator: the list, then Create application ──
  // The portal's copy of the administrator's MFA state is read from the pool (run alone, this spec
  // meets an administrator whose authenticator adminAccessToken has just set up).
  const adminToken = await adminAccessToken(request);
  await request.get('/api/connect/user/mfa-status', { headers: { authorization: `Bearer ${adminToken}` } });
  await signInAsAdministrator(page);
  await page.getByRole('navigation', { name: /menu/i }).getByText('Application management').click();
  await expect(page).toHaveURL(/\/application-management/);
  await expect(page.getByRole('heading', { level: 1, name: 'Application management' })).toBeVisible();
  // A fresh run has no application yet: the empty list (axe is run on it below, with a row: an empty
  // DataGrid lacks the rows axe's aria-required-children asks of a grid).
  await snap(page, 'staff-applications-01-empty-list');

  await page.getByRole('button', { name: 'Create application' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create an application for a user' });
  await dialog.getByRole('combobox', { name: /User's email/ }).fill(email.slice(0, 12));
  await page.getByRole('option', { name: new RegExp(email.replace(/[.]/g, '\\.')) }).click();
  await chooseOption(page, /Role/, 'Integration');
  await dialog.getByLabel(/Application name/).fill('Onboarding bot');
  await dialog.getByLabel(/Callback URL/).fill('https://example.com/callback');
  await dialog.getByRole('checkbox', { name: /Ethereum Testnet/ }).check();
  await snap(page, 'staff-applications-02-create');
  await expectAccessible(page, '/application-management (create dialog)');
  await dialog.getByRole('button', { name: 'Create application' }).click();

  const created = page.getByRole('dialog', { name: 'Application created' });
  await expect(created.getByText('Copy the client secret now')).toBeVisible();
  await expect(created.getByRole('button', { name: 'Copy the client secret' })).toBeVisible();
  await snap(page, 'staff-applications-03-secret-once');
  await created.getByRole('button', { name: 'Done' }).click();

  // ── In the staff list, found by the owner's email ──
  await page.getByLabel('Search by name, client id or owner email').fill(email);
  const row = page.getByRole('grid').getByRole('row').filter({ hasText: 'Onboarding bot' });
  await expect(row).toContainText('Integration');
  await expect(row).toContainText(email);
  await snap(page, 'staff-applications-04-found');
  await expectAccessible(page, '/application-management');

  // ── The customer: in My applications, and told by email ──
  await customerPage.goto('/my-applications');
  await expect(customerPage.getByText('Onboarding bot')).toBeVisible();
  await snap(customerPage, 'staff-applications-05-customer-list');
  const mail = await latestMail(request, email, 'NOTIFICATION');
  expect(mail.subject).toBe('An application was created for you: Onboarding bot');
  await customer.close();
});
