import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';
import { chooseOption, signIn, verifyAndActivateTestnet } from './support/journey.ts';

// One user activates a testnet, registers an application, uses its credentials against the
// platform API, rotates the secret, edits and deletes the application: the steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const email = `applications-${Date.now()}@example.com`;
const password = 'Applications-Journey-Passw0rd!';
const user = { email, password };
// The server's first local chain stands in for the Ethereum testnet (network code ethereum-testnet).
const chainPort = process.env.E2E_DEVCHAIN_PORTS?.split(',')[0];
const chainUrl = `http://127.0.0.1:${chainPort}`;
const NETWORK = 'ethereum-testnet';

let clientId = '';
let firstSecret = '';
let secondSecret = '';

/** What the page's copy button put on the clipboard (a string: the e2e project has no DOM types). */
const readClipboard = (page: Page) => page.evaluate<string>('navigator.clipboard.readText()');

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** POST /oauth2/token with HTTP Basic client credentials, form-encoded as RFC 6749 §4.4 has it. */
function requestToken(request: APIRequestContext, secret: string) {
  return request.post('/oauth2/token', {
    headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
    data: 'grant_type=client_credentials',
  });
}

async function tokenFor(request: APIRequestContext, secret: string): Promise<string> {
  const response = await requestToken(request, secret);
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
  expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  return body.access_token;
}

function gatewayCall(request: APIRequestContext, token: string, method = 'eth_blockNumber') {
  return request.post(`/api/gateway/${NETWORK}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  });
}

async function directBlockNumber(request: APIRequestContext): Promise<bigint> {
  const response = await request.post(chainUrl, {
    headers: { 'content-type': 'application/json' },
    data: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  return BigInt(((await response.json()) as { result: string }).result);
}

test('My applications starts empty; the user verifies identity and activates a testnet', async ({ page, request }) => {
  expect(chainPort, 'E2E_DEVCHAIN_PORTS is set by playwright.config.ts').toBeTruthy();
  await createConfirmedUser(request, email, password);
  await signIn(page, {
    ...user,
    profile: {
      firstName: 'Katherine',
      lastName: 'Johnson',
      company: 'Orbital Mechanics Ltd',
      location: 'United States',
    },
  });

  await page.goto('/my-applications');
  await expect(page).toHaveTitle('My applications | Quant Connect');
  await expect(page.getByRole('heading', { level: 1, name: 'My applications' })).toBeVisible();
  await expect(page.getByText('No applications yet')).toBeVisible();
  await expect(page.getByTestId('applications-counter')).toHaveText('0 / 3 applications');
  await snap(page, 'applications-01-empty');
  await expectAccessible(page, '/my-applications (empty)');

  // Networks are activated in My networks; choosing them first asks for a verified identity.
  await verifyAndActivateTestnet(page);
});

test('registers an application through the stepper and copies the secret from the success step', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, user);
  await page.goto('/my-applications');
  await page.getByRole('link', { name: 'Register new application' }).first().click();
  await expect(page).toHaveURL(/\/my-applications\/register-new-application$/);
  await expect(page).toHaveTitle('Register new application | Quant Connect');
  await expect(page.getByRole('heading', { name: 'Connect your software to blockchains' })).toBeVisible();
  await snap(page, 'applications-02-stepper-intro');
  await expectAccessible(page, 'register application: intro');
  await page.getByRole('button', { name: 'Get started' }).click();

  // The spec's messages, under the fields.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please enter an application name')).toBeVisible();
  await page.getByLabel(/^Application name/).fill('x'.repeat(50));
  await page.getByLabel(/^Callback URL/).fill('http://orbit.example.com/callback');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Your application name is too long')).toBeVisible();
  await expect(page.getByText(/valid secure callback URL/)).toBeVisible();
  await snap(page, 'applications-03-stepper-details-errors');
  await expectAccessible(page, 'register application: details with errors');

  await page.getByLabel(/^Application name/).fill('Orbit Tracker');
  await page.getByLabel(/^Callback URL/).fill('https://orbit.example.com/callback');
  await page.getByRole('radio', { name: /^Testnet/ }).check();
  await snap(page, 'applications-04-stepper-details');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Select networks' })).toBeVisible();
  await page.getByRole('button', { name: 'Register application' }).click();
  await expect(page.getByText('Please select at least one of the available networks!')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await expect(page.getByRole('checkbox', { name: /Ethereum Testnet \(local\)/ })).toBeChecked();
  await snap(page, 'applications-05-stepper-networks');
  await expectAccessible(page, 'register application: networks');

  // Leaving mid-flow asks first.
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  const leave = page.getByRole('dialog', { name: 'Leave the registration?' });
  await expect(leave).toBeVisible();
  await snap(page, 'applications-06-stepper-leave');
  await expectAccessible(page, 'register application: leave dialog');
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page).toHaveURL(/\/register-new-application$/);

  await page.getByRole('button', { name: 'Register application' }).click();
  await expect(page.getByRole('heading', { name: 'Orbit Tracker is registered' })).toBeVisible();
  await expect(page.getByText(/shown only this once/)).toBeVisible();
  await expect(page.getByText('quant-testnet-signing')).toBeVisible();
  await expect(page.getByText(/^key-/)).toBeVisible();
  await expect(page.getByText(/^0x04[0-9a-f]{128}$/)).toBeVisible();
  await snap(page, 'applications-07-stepper-success');
  await expectAccessible(page, 'register application: success');

  await page.getByRole('button', { name: 'Copy client secret' }).click();
  firstSecret = await readClipboard(page);
  expect(firstSecret).toBe((await page.getByTestId('client-secret').textContent())?.trim());
  expect(firstSecret.length).toBeGreaterThanOrEqual(43);
  await page.getByRole('button', { name: 'Copy client ID' }).click();
  clientId = await readClipboard(page);
  expect(clientId).toMatch(/^[a-z0-9]{26}$/);

  await page.getByRole('link', { name: 'Go to My applications' }).click();
  await expect(page).toHaveURL(/\/my-applications$/);
  await expect(page.getByRole('row', { name: /Orbit Tracker/ })).toBeVisible();
  await expect(page.getByTestId('applications-counter')).toHaveText('1 / 3 applications');
  await snap(page, 'applications-08-list');
  await expectAccessible(page, '/my-applications (one application)');
});

test('the credentials get a token and read eth_blockNumber from the local chain through the gateway', async ({
  request,
}) => {
  const token = await tokenFor(request, firstSecret);
  const before = await directBlockNumber(request);
  const response = await gatewayCall(request, token);
  expect(response.status(), await response.text()).toBe(200);
  const through = BigInt(((await response.json()) as { result: string }).result);
  const after = await directBlockNumber(request);
  expect(through >= before && through <= after, `${before} <= ${through} <= ${after}`).toBe(true);

  const chainId = await gatewayCall(request, token, 'eth_chainId');
  expect(BigInt(((await chainId.json()) as { result: string }).result)).toBe(31337n);
  // A network the application is not associated with is refused.
  const other = await request.post('/api/gateway/polygon-testnet', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  expect(other.status()).toBe(403);
});

test('the details dialog shows the usage; rotating keeps the old secret working until it is revoked', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const oldToken = await tokenFor(request, firstSecret);
  await signIn(page, user);
  await page.goto('/my-applications');
  await page.getByRole('button', { name: 'Orbit Tracker', exact: true }).click();
  const details = page.getByRole('dialog', { name: /Orbit Tracker/ });
  // Exact: the gateway examples in the dialog carry the client id too.
  await expect(details.getByText(clientId, { exact: true })).toBeVisible();
  await expect(details.getByText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)).toBeVisible();
  await expect(details.getByText(`Secret ending in ${firstSecret.slice(-4)}`)).toBeVisible();
  // The gateway's counts are written every second; the chart shows today's requests.
  await expect(details.getByText(/^[1-9]\d* requests in 14 days$/)).toBeVisible({ timeout: 10_000 });
  const chart = details.getByRole('img', { name: 'Requests per day, last 14 days' });
  await expect(chart).toBeVisible();
  await snap(page, 'applications-09-details');
  await chart.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e/screenshots/applications-09b-details-usage.png' });
  await expectAccessible(page, 'application details dialog');

  await details.getByRole('button', { name: 'Rotate secret' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the client secret of Orbit Tracker' });
  await rotate.getByRole('radio', { name: '1 hour' }).check();
  await snap(page, 'applications-10-rotate');
  await expectAccessible(page, 'rotate secret dialog');
  await rotate.getByRole('button', { name: 'Issue new secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'New client secret for Orbit Tracker' });
  await expect(rotated.getByText(/shown only this once/)).toBeVisible();
  await expect(rotated.getByText(/previous secret works until/)).toBeVisible();
  await snap(page, 'applications-11-rotated');
  await expectAccessible(page, 'new secret dialog');
  await rotated.getByRole('button', { name: 'Copy client secret' }).click();
  secondSecret = await readClipboard(page);
  expect(secondSecret).not.toBe(firstSecret);
  await rotated.getByRole('button', { name: 'Done' }).click();

  // Within the grace period both secrets work, and tokens of the old one too.
  const newToken = await tokenFor(request, secondSecret);
  await tokenFor(request, firstSecret);
  expect((await gatewayCall(request, oldToken)).status()).toBe(200);
  expect((await gatewayCall(request, newToken)).status()).toBe(200);
  await expect(details.getByText('Expiring', { exact: true })).toBeVisible();

  // Ending the grace period now: the old secret is refused, and so are its tokens.
  await details.getByRole('button', { name: 'Revoke now' }).click();
  const revoke = page.getByRole('dialog', { name: `Revoke the secret ending in ${firstSecret.slice(-4)}?` });
  await snap(page, 'applications-12-revoke');
  await revoke.getByRole('button', { name: 'Revoke now' }).click();
  await expect(details.getByText('Revoked', { exact: true })).toBeVisible();
  const refused = await requestToken(request, firstSecret);
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
  await expect.poll(async () => (await gatewayCall(request, oldToken)).status(), { timeout: 5_000 }).toBe(401);
  expect((await gatewayCall(request, newToken)).status()).toBe(200);
  await details.getByRole('button', { name: 'Close' }).click();
});

test('edits the application, confirming testnet signing', async ({ page }) => {
  await signIn(page, user);
  await page.goto('/my-applications');
  await page.getByRole('button', { name: 'Actions for Orbit Tracker' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Orbit Tracker' });
  await edit.getByLabel(/^Application name/).fill('');
  await edit.getByLabel(/^Callback URL/).click();
  await expect(edit.getByText('Please enter an application name')).toBeVisible();
  await edit.getByLabel(/^Application name/).fill('Orbit Tracker v2');
  await edit.getByLabel(/^Callback URL/).fill('https://orbit.example.com/v2/callback');
  await snap(page, 'applications-13-edit');
  await expectAccessible(page, 'edit application dialog');
  await edit.getByRole('checkbox', { name: /sign testnet transactions/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Turn on testnet signing?' });
  await snap(page, 'applications-14-edit-signing-confirm');
  await expectAccessible(page, 'testnet signing confirmation');
  await confirm.getByRole('button', { name: 'Turn on' }).click();
  await expect(edit.getByRole('checkbox', { name: /sign testnet transactions/ })).toBeChecked();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Application has been updated successfully.')).toBeVisible();
  await expect(page.getByRole('row', { name: /Orbit Tracker v2/ })).toBeVisible();

  // Search and filters.
  await page.getByRole('searchbox', { name: 'Search by name' }).fill('nothing like it');
  await expect(page.getByText('No applications match your search or filters.')).toBeVisible();
  await snap(page, 'applications-15-no-match');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await chooseOption(page, 'Environment', 'Testnet');
  await expect(page.getByRole('row', { name: /Orbit Tracker v2/ })).toBeVisible();
});

test('deletes the application; its credentials stop working', async ({ page, request }) => {
  const token = await tokenFor(request, secondSecret);
  await signIn(page, user);
  await page.goto('/my-applications');
  await page.getByRole('button', { name: 'Actions for Orbit Tracker v2' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Orbit Tracker v2?' });
  await snap(page, 'applications-16-delete');
  await expectAccessible(page, 'delete application dialog');
  await dialog.getByRole('button', { name: 'Delete application' }).click();
  await expect(page.getByText('Orbit Tracker v2 has been deleted.')).toBeVisible();
  await expect(page.getByText('No applications yet')).toBeVisible();
  await expect(page.getByTestId('applications-counter')).toHaveText('0 / 3 applications');
  expect((await requestToken(request, secondSecret)).status()).toBe(401);
  expect((await gatewayCall(request, token)).status()).toBe(401);
});
