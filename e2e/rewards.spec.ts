import type { APIRequestContext, Page } from '@playwright/test';
import { privateKeyToAddress, generatePrivateKey } from 'viem/accounts';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { expectAccessible, snap } from './support/a11y.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { createConfirmedUser } from './support/identity.ts';
import { chooseOption, signIn, verifyAndActivateTestnet } from './support/journey.ts';
import { latestMail } from './support/mailbox.ts';
import { buyAnnualPlanWithQnt, qntBalanceOf } from './support/qnt-plan.ts';
import { adminAccessToken, signInAsAdministrator } from './support/staff.ts';

// Rewards end to end (issue 34 §4): the administrator creates a campaign with two tasks (register
// an application; make 20 gateway calls) and publishes it; a customer on a plan bought with QNT
// opts in, registers an application and sees that task done, makes the calls and sees the second,
// sees the balance and claims 2 QNT to an address; the administrator pays the claim from the
// treasury; the address's QNT on the local chain has grown by 2; the campaign ends and both of the
// customer's histories show it. The steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
// Two busy cores: pages, chains and the outbox answer within seconds, not instantly.
const expect = baseExpect.configure({ timeout: 20_000 });

const CAMPAIGN = `December builders ${Date.now() % 100_000}`;
const VISIBLE = 'Build with Connect';
const email = `rewards-${Date.now()}@example.com`;
const password = 'Rewards-Journey-Passw0rd!';
const profile = { firstName: 'Hedy', lastName: 'Lamarr', company: 'Frequency Hopping Ltd', location: 'Vienna' };
// anvil's account 5: no other journey signs with it (see qnt-payment.spec.ts for the others).
const PAYER = DEV_ACCOUNTS[5]!.address;
/** Where the customer's claim goes: an address of its own, so its balance is exactly what was paid. */
const CLAIM_ADDRESS = privateKeyToAddress(generatePrivateKey());
const QNT = 10n ** 18n;
const utcDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let customer: Page;
// The customer's page polls its progress while open: closed with the spec, not left to the next one.
test.afterAll(async () => {
  await customer?.context().close();
});
let accessToken = '';
let trackingCode = '';

/** The signed-in user's access token, as the SPA keeps it. */
const readAccessToken = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });

/** 20 eth_blockNumber calls through the gateway with the application's own token (one batch). */
async function callGateway(request: APIRequestContext, clientId: string, clientSecret: string) {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const issued = await request.post('/oauth2/token', {
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    data: 'grant_type=client_credentials',
  });
  expect(issued.status(), await issued.text()).toBe(200);
  const token = ((await issued.json()) as { access_token: string }).access_token;
  const calls = Array.from({ length: 20 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] }));
  const answered = await request.post('/api/gateway/ethereum-testnet', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: JSON.stringify(calls),
  });
  expect(answered.status(), await answered.text()).toBe(200);
}

test('the administrator creates a campaign with two tasks and publishes it', async ({ page, request }) => {
  // The portal's copy of the administrator's MFA state is read from the pool (run alone, this spec
  // meets an administrator whose authenticator adminAccessToken has just set up).
  const adminToken = await adminAccessToken(request);
  await request.get('/api/connect/user/mfa-status', { headers: { authorization: `Bearer ${adminToken}` } });
  await signInAsAdministrator(page);
  await page.goto('/campaign-management');
  await expect(page.getByRole('heading', { level: 1, name: 'Campaign management' })).toBeVisible();
  await expect(page.getByText('Free to promise')).toBeVisible();
  await snap(page, 'rewards-01-campaigns');
  await expectAccessible(page, '/campaign-management');

  await page.getByRole('button', { name: 'New campaign' }).first().click();
  const create = page.getByRole('dialog', { name: 'New campaign' });
  await create.getByLabel(/^Name/).fill(CAMPAIGN);
  await create.getByLabel(/^Visible name/).fill(VISIBLE);
  await create.getByLabel(/^Start date/).fill(utcDay(0));
  await create.getByLabel(/^End date/).fill(utcDay(30));
  await create.getByLabel(/^Participants/).fill('50');
  await snap(page, 'rewards-02-campaign-dialog');
  await create.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('heading', { name: /Task Management|December builders/ }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/campaign-management\/[0-9a-f-]{36}$/);

  const addTask = async (activity: string, name: string, value: string, threshold?: string) => {
    await page.getByRole('button', { name: 'Add task' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add task' });
    await chooseOption(page, /^Activity/, activity);
    await dialog.getByLabel(/^How many/).fill(threshold ?? '1');
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel(/^Description/).fill(`${name} after you opt in.`);
    await dialog.getByLabel(/^Value/).fill(value);
    if (threshold) await snap(page, 'rewards-03-task-dialog');
    await dialog.getByRole('button', { name: 'Add task' }).click();
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: `Publish ${name}` }).click();
    await expect(page.getByText(`${name} is published`)).toBeVisible();
  };
  await addTask('Applications · Register an application', 'Register an application', '1');
  await addTask('Applications · Make gateway calls', 'Make 20 gateway calls', '2', '20');
  await snap(page, 'rewards-04-tasks');
  await expectAccessible(page, '/campaign-management/:campaignId');

  await page.getByRole('button', { name: 'Publish', exact: true }).first().click();
  const publish = page.getByRole('dialog', { name: `Publish ${CAMPAIGN}?` });
  await expect(publish).toContainText('150 QNT');
  await snap(page, 'rewards-05-publish');
  await publish.getByRole('button', { name: 'Publish' }).click();
  // Published on its start date: it runs at once.
  await expect(page.getByText('Active', { exact: true }).first()).toBeVisible();
});

test('a customer on a plan bought with QNT opts in, and each task shows done once they do it', async ({
  browser,
  request,
  consoleGuard,
}) => {
  await createConfirmedUser(request, email, password);
  const context = await browser.newContext();
  consoleGuard.watch(context);
  customer = await context.newPage();
  await signIn(customer, { email, password, profile });
  accessToken = await readAccessToken(customer);

  // Before the plan: the page says what rewards need.
  await customer.goto('/rewards');
  await expect(customer.getByText('Rewards are for customers on a paid plan bought with QNT.')).toBeVisible();
  await snap(customer, 'rewards-06-need-plan');

  await verifyAndActivateTestnet(customer);
  await buyAnnualPlanWithQnt(request, accessToken, PAYER);

  await customer.goto('/rewards');
  const campaign = customer.getByRole('article').filter({ hasText: VISIBLE });
  await expect(campaign).toBeVisible();
  await snap(customer, 'rewards-07-before-opt-in');
  await expectAccessible(customer, '/rewards');
  await campaign.getByRole('button', { name: /^Opt in/ }).click();
  await expect(campaign.getByText(/You take part since/)).toBeVisible();

  // The first task: an application registered through the stepper.
  await customer.goto('/my-applications/register-new-application');
  await customer.getByRole('button', { name: 'Get started' }).click();
  await customer.getByLabel(/^Application name/).fill('Reward Hunter');
  await customer.getByLabel(/^Callback URL/).fill('https://hunter.example.com/callback');
  await customer.getByRole('radio', { name: /^Testnet/ }).check();
  await customer.getByRole('button', { name: 'Continue' }).click();
  await customer.getByRole('checkbox', { name: 'Select all' }).check();
  await customer.getByRole('button', { name: 'Register application' }).click();
  await expect(customer.getByRole('heading', { name: 'Reward Hunter is registered' })).toBeVisible();
  const clientSecret = (await customer.getByTestId('client-secret').textContent())!.trim();
  const clientId = (await customer.getByLabel('Client ID', { exact: true }).textContent())!.trim();

  await customer.goto('/rewards');
  await expect(campaign.getByText('Done', { exact: true })).toHaveCount(1);
  await expect(campaign.getByText(/0 \/ 20/)).toBeVisible();
  await snap(customer, 'rewards-08-first-task-done');

  // The second: 20 gateway calls, counted by the usage meter; the open page follows.
  await callGateway(request, clientId, clientSecret);
  await expect(campaign.getByText('Done', { exact: true })).toHaveCount(2);
  const balance = customer.getByRole('region', { name: 'Reward balance' });
  await expect(balance).toContainText('3');
  await snap(customer, 'rewards-09-both-done');
});

test('the customer claims 2 QNT to an address through the stepper', async () => {
  await customer.getByRole('button', { name: 'Claim', exact: true }).click();
  const dialog = customer.getByRole('dialog', { name: 'Claim QNT' });
  await expect(dialog.getByLabel(/^Amount/)).toHaveValue('2');
  await dialog.getByLabel(/^Ethereum address/).fill('0x1234');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('An Ethereum address starts with 0x and is 42 characters long.')).toBeVisible();
  await dialog.getByLabel(/^Ethereum address/).fill(CLAIM_ADDRESS);
  await snap(customer, 'rewards-10-claim-details');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('A claim cannot be undone.')).toBeVisible();
  await expect(dialog.getByText('Claims are actioned within 5 working days.')).toBeVisible();
  await snap(customer, 'rewards-11-claim-summary');
  await dialog.getByRole('button', { name: 'Confirm claim' }).click();
  await expect(dialog.getByText('Your claim has been made')).toBeVisible();
  trackingCode = (await dialog.getByText(/^CLM-[0-9A-Z]{8}$/).textContent())!.trim();
  await snap(customer, 'rewards-12-claim-made');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(customer.getByRole('region', { name: 'Reward balance' })).toContainText('2 QNT held');
});

test('the administrator pays the claim from the treasury; the address holds 2 QNT more on chain', async ({
  page,
  request,
}) => {
  const before = await qntBalanceOf(request, CLAIM_ADDRESS);
  await signInAsAdministrator(page);
  await page.goto('/claim-management');
  const row = page.getByRole('row').filter({ hasText: trackingCode });
  await expect(row).toBeVisible();
  await snap(page, 'rewards-13-claims');
  await expectAccessible(page, '/claim-management');
  await row.getByRole('button', { name: `Actions for ${trackingCode}` }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: `Claim ${trackingCode}` });
  await expect(dialog).toContainText(CLAIM_ADDRESS);
  await dialog.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(dialog).toContainText('A payment cannot be undone.');
  await snap(page, 'rewards-14-pay');
  await dialog.getByRole('button', { name: /^Pay 2/ }).click();
  await expect(dialog.getByText('Confirmed on chain')).toBeVisible({ timeout: 60_000 });
  await snap(page, 'rewards-15-paid');
  expect(await qntBalanceOf(request, CLAIM_ADDRESS)).toBe(before + 2n * QNT);

  const paid = await latestMail(request, email, 'NOTIFICATION');
  expect(paid.subject).toMatch(/paid|sent/i);
});

test('the campaign ends; both of the customer’s histories show it', async ({ page }) => {
  await signInAsAdministrator(page);
  await page.goto('/campaign-management');
  await page.getByRole('button', { name: `Actions for ${CAMPAIGN}` }).click();
  await page.getByRole('menuitem', { name: 'End now' }).click();
  await page
    .getByRole('dialog', { name: `End ${CAMPAIGN} now?` })
    .getByRole('button', { name: 'End now' })
    .click();
  await expect(page.getByText(`${CAMPAIGN} has ended`)).toBeVisible();

  await customer.goto('/rewards/history');
  await expect(customer.getByRole('heading', { level: 1, name: 'Rewards history' })).toBeVisible();
  await expect(customer.getByRole('row').filter({ hasText: VISIBLE })).toContainText('2 of 2');
  await snap(customer, 'rewards-16-campaign-history');
  await expectAccessible(customer, '/rewards/history');
  await customer.getByRole('tab', { name: 'Claim history' }).click();
  await expect(customer.getByRole('row').filter({ hasText: trackingCode })).toContainText('Paid');
  await snap(customer, 'rewards-17-claim-history');
});
