import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { newCustomer } from './support/customer.ts';
import { idp } from './support/identity.ts';

import { createSalesUser, signInAsStaff } from './support/sales.ts';
import { adminAccessToken, signInAsAdministrator } from './support/staff.ts';

// Issue 33 §6: sales and an administrator look after one customer's account from the staff
// console. The machine is shared: each step gets room, the behaviour asserted is the same.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 360_000 });

const COMPANY = 'Quince Orchards Ltd';
const ANNUAL = 'Annual Subscription — Standard';

/** The customer's own access token (the order is placed through the API: the upgrade journey has its own spec). */
async function customerToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const answer = await idp(request, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult.AccessToken;
}

async function openAccountPanel(page: Page, search: string) {
  await page.getByRole('navigation', { name: /menu/i }).getByText('Account management').click();
  await expect(page).toHaveURL(/\/account-management/);
  await page.getByLabel('Search by organisation, owner or plan').fill(search);
  const row = page.getByRole('grid').getByRole('row').filter({ hasText: COMPANY });
  await row.getByRole('gridcell').first().click();
  const panel = page.getByRole('dialog').filter({ hasText: COMPANY });
  await expect(panel.getByRole('heading', { name: COMPANY })).toBeVisible();
  return panel;
}

test('sales extend a trial; an administrator switches a feature on, records the transfer, refunds it and finds it among the orders', async ({
  page,
  request,
  browser,
  consoleGuard,
}) => {
  // ── A customer with a profile, their page open to see their menu and dashboard ──
  const {
    email,
    password,
    context: customer,
    page: customerPage,
  } = await newCustomer({ request, browser, consoleGuard }, 'quince', {
    firstName: 'Quinn',
    lastName: 'Orchard',
    company: COMPANY,
    location: 'Bristol',
  });

  // ── Sales: find the account by part of its name, its panel without the deposit address, extend the trial ──
  const sales = await createSalesUser(request, `sam.sales-${Date.now()}@e2e.test`);
  const salesContext = await browser.newContext();
  consoleGuard.watch(salesContext);
  const salesPage = await salesContext.newPage();
  await signInAsStaff(salesPage, sales);
  const salesPanel = await openAccountPanel(salesPage, 'quince orch');
  await expect(salesPanel.getByText('Technology · 1–10 employees')).toBeVisible();
  await expect(salesPanel.getByText('Bristol')).toBeVisible();
  await expect(salesPanel.getByText('Deposit address')).toHaveCount(0);
  await expect(salesPanel.getByText('No orders yet.')).toBeVisible();
  await snap(salesPage, '90-sales-account-panel');
  await expectAccessible(salesPage, '/account-management (sales, account panel)');
  await salesPanel.getByRole('button', { name: 'Extend trial' }).click();
  const extend = salesPage.getByRole('dialog', { name: `Extend the trial of ${COMPANY}` });
  await expect(extend.getByLabel(/Days/)).toHaveValue('14');
  await extend.getByLabel('Reason').fill('Evaluating the annual tier');
  await extend.getByRole('button', { name: 'Extend trial' }).click();
  await expect(salesPage.getByText(/Trial extended to /).first()).toBeVisible();
  await expect(salesPanel.getByText('Trial extensions').locator('xpath=following-sibling::dd')).toHaveText('1');
  await expect(salesPanel.getByRole('list', { name: 'Recent activity' })).toContainText('Trial extended');
  await salesContext.close();

  // ── The customer orders the annual plan by bank transfer: an open order ──
  const token = await customerToken(request, email, password);
  const asCustomer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const plans = (await (await request.get('/api/account-plan/v2/fetch-plans', { headers: asCustomer })).json()) as {
    groups: { tiers: { id: string; code: string }[] }[];
  };
  const annual = plans.groups.flatMap((group) => group.tiers).find((tier) => tier.code === 'annual-standard')!;
  const placed = await request.post('/api/account-plan/order/plan', {
    headers: asCustomer,
    data: JSON.stringify({
      idempotencyKey: randomUUID(),
      ratePlanId: annual.id,
      paymentMethod: 'BANK_TRANSFER',
      terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
    }),
  });
  expect(placed.status(), await placed.text()).toBe(200);
  const order = (await placed.json()) as { id: string; reference: string; totalGbpMinor: number };

  // The bridge feature off for the account (set-up through the API), so switching it on shows.
  const admin = await adminAccessToken(request);
  const accountId = (
    (await (
      await request.get(`/api/connect/management/accounts?searchTerm=${encodeURIComponent(COMPANY)}`, {
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as { accountList: { accountId: string }[] }
  ).accountList[0]!.accountId;
  const off = await request.put(`/api/connect/management/accounts/${accountId}/overrides/bridge`, {
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    data: JSON.stringify({ enabled: false }),
  });
  expect(off.status(), await off.text()).toBe(200);
  const customerMenu = customerPage.getByRole('navigation', { name: 'Main menu' });
  const bridgeEntry = async () => {
    await customerPage.reload();
    await customerMenu.getByRole('button', { name: /Flows$/ }).click();
    return customerMenu.getByRole('link', { name: 'Bridge Flow', exact: true });
  };
  await expect(await bridgeEntry()).toHaveCount(0);

  // ── The administrator: the bridge feature on, and the customer's menu gains Bridge Flow ──
  await request.get('/api/connect/user/mfa-status', { headers: { authorization: `Bearer ${admin}` } });
  await signInAsAdministrator(page);
  const panel = await openAccountPanel(page, 'quince orch');
  const bridges = panel.getByRole('group', { name: 'Bridges override' });
  await bridges.getByRole('button', { name: 'On' }).click();
  await expect(page.getByText(`Bridges switched on for ${COMPANY}`)).toBeVisible();
  await expect(await bridgeEntry()).toBeVisible();

  // ── Record the bank transfer from the order's row: the plan turns ACTIVE on the customer's dashboard ──
  const orderRow = panel
    .getByRole('list', { name: 'Orders' })
    .getByRole('listitem')
    .filter({ hasText: order.reference });
  await expect(orderRow).toContainText('Awaiting payment');
  await snap(page, '91-admin-account-orders');
  await orderRow.getByRole('button', { name: 'Record receipt' }).click();
  const receipt = page.getByRole('dialog', { name: `Record a bank transfer for ${order.reference}` });
  await receipt.getByLabel(/Bank reference/).fill(`BARC-${order.reference}`);
  await snap(page, '92-record-receipt');
  await expectAccessible(page, '/account-management (record receipt)');
  await receipt.getByRole('button', { name: 'Continue' }).click();
  await expect(receipt.getByText(/This pays the order and its invoice/)).toBeVisible();
  await snap(page, '93-record-receipt-confirm');
  await receipt.getByRole('button', { name: 'Record receipt' }).click();
  await expect(page.getByText(`Receipt recorded for ${order.reference}`)).toBeVisible();
  await expect(orderRow).toContainText('Paid');
  await customerPage.goto('/dashboard');
  await expect(customerPage.getByRole('banner').getByText(ANNUAL)).toBeVisible();

  // ── Refund it: paid back by bank transfer, recorded with the credit note ──
  await orderRow.getByRole('button', { name: 'Refund' }).click();
  const refund = page.getByRole('dialog', { name: `Refund order ${order.reference}` });
  await refund.getByLabel(/Amount to refund/).fill('100');
  await refund.getByLabel(/Reference of your transfer/).fill(`OUT-${order.reference}`);
  await refund.getByLabel('Reason').fill('Goodwill for a slow start');
  await refund.getByRole('button', { name: 'Continue' }).click();
  await expect(refund.getByText('A refund cannot be undone.')).toBeVisible();
  await snap(page, '94-refund-confirm');
  await refund.getByRole('button', { name: 'Refund £100.00' }).click();
  const done = page.getByRole('dialog', { name: 'Refund issued' });
  await expect(done.getByText('Credit note amount').locator('xpath=following-sibling::dd')).toHaveText('£100.00');
  await snap(page, '95-refund-credit-note');
  await done.getByRole('button', { name: 'Done' }).click();
  await expect(panel.getByRole('list', { name: 'Credit notes' })).toContainText('Goodwill for a slow start');
  await expect(orderRow).toContainText('£100.00 refunded.');
  await expect(panel.getByRole('list', { name: 'Recent activity' })).toContainText('Order refunded');
  await snap(page, '96-account-panel-after');

  // ── The orders screen finds the order by the reference the customer quoted ──
  await page.keyboard.press('Escape');
  await page.getByRole('navigation', { name: /menu/i }).getByText('Orders', { exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await page.getByLabel('Search by reference (CNX-…) or account').fill(order.reference.toLowerCase());
  const listed = page.getByRole('grid', { name: 'Orders' }).getByRole('row').filter({ hasText: order.reference });
  await expect(listed).toContainText(COMPANY);
  await expect(listed).toContainText('Paid');
  await snap(page, '97-orders');
  await expectAccessible(page, '/order-management');
  await customer.close();
});
