import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';
import { latestMail } from './support/mailbox.ts';
import { signIn, verifyAndActivateTestnet } from './support/journey.ts';
import { adminAccessToken } from './support/staff.ts';

// One trial customer uses up the trial's applications, upgrades to the annual plan with a credit
// bundle paid by bank transfer, staff record the transfer, the plan turns ACTIVE and its allowances
// apply at once; then the customer cancels from My account. The steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const email = `upgrade-${Date.now()}@example.com`;
const password = 'Upgrade-Journey-Passw0rd!';
const profile = { firstName: 'Grace', lastName: 'Hopper', company: 'Compiler Works Ltd', location: 'London' };
const ANNUAL = 'Annual Subscription — Standard';

let accessToken = '';
let networkId = '';
let orderReference = '';

/** The signed-in user's access token, as the SPA keeps it. */
const readAccessToken = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });

const asUser = () => ({ authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' });

function registerApplication(request: APIRequestContext, name: string) {
  return request.post('/api/application-manager/create-application', {
    headers: asUser(),
    data: JSON.stringify({
      name,
      callbackUrl: 'https://example.com/callback',
      applicationType: 'testnet',
      networkIds: [networkId],
    }),
  });
}

test('a trial customer registers the three applications the trial allows, and no more', async ({ page, request }) => {
  await createConfirmedUser(request, email, password);
  await signIn(page, { email, password, profile });
  await expect(page.getByRole('banner').getByText('Trial')).toBeVisible();
  await verifyAndActivateTestnet(page);
  accessToken = await readAccessToken(page);

  const networks = await request.get('/api/application-manager/networks', { headers: asUser() });
  expect(networks.status(), await networks.text()).toBe(200);
  networkId = ((await networks.json()) as { networks: { id: string; code: string }[] }).networks.find(
    (network) => network.code === 'ethereum-testnet',
  )!.id;
  for (const name of ['Ledger One', 'Ledger Two', 'Ledger Three']) {
    const created = await registerApplication(request, name);
    expect(created.status(), await created.text()).toBeLessThan(300);
  }
  const refused = await registerApplication(request, 'Ledger Four');
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { code: string }).code).toBe('APPLICATION_QUOTA_REACHED');
});

test('the customer chooses the annual plan with a credit bundle and orders it by bank transfer', async ({ page }) => {
  await signIn(page, { email, password });
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Upgrade/i })
    .click();
  await expect(page).toHaveURL(/\/account-plan\/upgrade$/);
  await expect(page).toHaveTitle(/Upgrade Plan/);

  // Step 1: the plans table, pay as you go against the annual subscription.
  await expect(page.getByRole('table', { name: 'Choose your plan' })).toBeVisible();
  await snap(page, '60-upgrade-plans');
  await expectAccessible(page, '/account-plan/upgrade (plans)');
  await page.getByRole('button', { name: `Upgrade ${ANNUAL}` }).click();
  await page.getByRole('radio', { name: /^1,000 credits/ }).check();
  await snap(page, '61-upgrade-bundle');
  await page.getByRole('button', { name: 'Continue to summary' }).click();

  // Step 2: the summary with real figures.
  await expect(page.getByRole('heading', { name: 'Plan summary' })).toBeVisible();
  for (const label of [
    'Subscription type',
    'Start date',
    'End or renewal date',
    'Plan cost',
    'Bundle cost',
    'Subtotal',
    'Total cost',
  ]) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText('£6,000.00').first()).toBeVisible();
  await expect(page.getByText('$1,100.00').first()).toBeVisible();
  await snap(page, '62-upgrade-summary');
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  // Step 3: the three policies are required; QNT comes first for the annual plan (its fee is paid
  // in advance in QNT, spec §9), and this customer chooses bank transfer.
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'QNT' })).toBeChecked();
  await page.getByRole('radio', { name: 'Bank transfer' }).check();
  for (const name of [/terms and conditions/, /acceptable use policy/, /privacy policy/]) {
    await page.getByRole('checkbox', { name }).check();
  }
  await snap(page, '63-upgrade-payment');
  await page.getByRole('button', { name: 'Place order' }).click();

  // Step 4: the bank details and the reference; the plan is PENDING until the transfer arrives.
  await expect(page.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  await expect(page.getByText('Your plan will be active once we receive your payment')).toBeVisible();
  const reference = page.getByText(/^CNX-[0-9A-Z]{8}$/);
  await expect(reference).toBeVisible();
  orderReference = (await reference.textContent())!.trim();
  await snap(page, '64-upgrade-bank-transfer');
  await expectAccessible(page, '/account-plan/upgrade (bank transfer)');

  // The top bar shows the disabled pending label; the upgrade route resumes the order placed (e51b608).
  await page.goto('/account-plan/upgrade');
  await expect(page.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: /Pending/i })).toBeDisabled();
  await snap(page, '65-dashboard-pending');
});

test('staff record the transfer; the plan turns ACTIVE, the top bar and the allowances change at once', async ({
  page,
  request,
}) => {
  const staff = await adminAccessToken(request);
  const headers = { authorization: `Bearer ${staff}`, 'content-type': 'application/json' };
  const pending = await request.get('/api/account-plan/management/orders?status=AWAITING_PAYMENT', { headers });
  expect(pending.status(), await pending.text()).toBe(200);
  const order = (
    (await pending.json()) as { orders: { id: string; reference: string; totalGbpMinor: number }[] }
  ).orders.find((candidate) => candidate.reference === orderReference)!;
  expect(order).toBeTruthy();

  await signIn(page, { email, password });
  // The customer waits on the confirmation step, which checks for the payment every 30 seconds.
  await page.goto('/account-plan/upgrade');
  await expect(page.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: /Pending/i })).toBeDisabled();
  const track = await request.post('/api/account-plan/order/track', {
    headers: asUser(),
    data: JSON.stringify({ orderId: order.id }),
  });
  expect(track.status()).toBe(200);

  const receipt = await request.post(`/api/account-plan/management/orders/${order.id}/receipts`, {
    headers,
    data: JSON.stringify({
      receiptId: `BANK-${orderReference}`,
      amountGbpMinor: order.totalGbpMinor,
      receivedAt: new Date().toISOString(),
    }),
  });
  expect(receipt.status(), await receipt.text()).toBe(200);
  expect(((await receipt.json()) as { status: string }).status).toBe('PAID');

  // Pushed to the open page (GET /api/connect/live), without a reload or the 30-second poll: the
  // confirmation step shows the plan active, the top bar names it, and the bell tells of the
  // payment, the invoice paid and the credits.
  await expect(page.getByText('Welcome to the blockchain economy')).toBeVisible({ timeout: 5_000 });
  await expect(page.getByRole('banner').getByText(ANNUAL)).toBeVisible({ timeout: 5_000 });
  await snap(page, '66-dashboard-active');
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).not.toHaveAccessibleName('Notifications, 0 unread', { timeout: 5_000 });
  await bell.click();
  const notices = page.getByRole('dialog', { name: 'Notifications' });
  await expect(notices.getByText(/^Invoice INV-\S+ is paid$/)).toBeVisible();
  await expect(notices.getByText(/credits were added to your account/)).toBeVisible();
  await expect(notices.getByText('Your plan is active')).toBeVisible();
  await snap(page, '66b-bell-payment-notices');
  await page.keyboard.press('Escape');
  const paidMail = await latestMail(request, email, 'NOTIFICATION');
  expect(paidMail.subject.length).toBeGreaterThan(0);

  // The annual plan allows ten applications: a fourth is registered at once.
  const fourth = await registerApplication(request, 'Ledger Four');
  expect(fourth.status(), await fourth.text()).toBeLessThan(300);
});

test('the customer cancels the plan from My account; it ends at the end of the period', async ({ page }) => {
  await signIn(page, { email, password });
  await page.goto('/my-account');
  const plan = page.getByRole('region', { name: /plan/i }).first();
  await expect(plan.getByText(ANNUAL)).toBeVisible();
  await snap(page, '67-my-account-plan');
  await expectAccessible(page, '/my-account (plan)');
  await plan.getByRole('button', { name: 'Cancel plan' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await snap(page, '68-cancel-plan-dialog');
  await dialog.getByRole('button', { name: /Cancel plan/ }).click();
  await expect(plan.getByRole('button', { name: 'Resume plan' })).toBeVisible();
  await snap(page, '69-my-account-plan-cancelling');
});
