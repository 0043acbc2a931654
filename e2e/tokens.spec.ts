import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { DEV_ACCOUNTS, TEST_WALLET_ADDRESS, TEST_WALLET_PRIVATE_KEY } from '@connect/devchain';
import { expectAccessible, snap as snapPage } from './support/a11y.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { createConfirmedUser, idp } from './support/identity.ts';
import { chooseOption, signIn, verifyAndActivateTestnet } from './support/journey.ts';
import { deployPlatformToken } from './support/platform-tokens.ts';
import { TestWallet } from './support/test-wallet.ts';

// One user goes from no networks to deployed, minted tokens and an exhausted quota: the steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
// Two busy cores: pages and chains answer within seconds, not instantly.
const expect = baseExpect.configure({ timeout: 15_000 });

const email = `tokens-${Date.now()}@example.com`;
const password = 'Tokens-Journey-Passw0rd!';
const user = { email, password };
const profile = { firstName: 'Satoshi', lastName: 'Nakamoto', company: 'Ledgers Ltd', location: 'United Kingdom' };
const [ethereumPort, polygonPort] = (process.env.E2E_DEVCHAIN_PORTS ?? '').split(',');
const ethereumRpc = `http://127.0.0.1:${ethereumPort}`;
const chains = [
  { chainId: 31337, rpcUrl: ethereumRpc },
  { chainId: 31338, rpcUrl: `http://127.0.0.1:${polygonPort}` },
];
const flows = '/quant-flows/token-flow';
const createPath = `${flows}/deploy/create-new-smart-contract`;

/** A full-page screenshot from the top, so the sticky top bar sits where it belongs. */
async function snap(page: Page, name: string) {
  await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await snapPage(page, name);
}

/** Walks the stepper up to the Token Details form, with a network, token type and tier. */
async function openDetails(page: Page, tokenType: 'Fungible (QRC20)' | 'Non-fungible (QRC721)', tier: string) {
  await page.goto(createPath);
  await expect(page.getByRole('heading', { name: 'Before you start' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('radio', { name: tokenType }).check();
  await page.getByRole('radio', { name: tier, exact: true }).click();
  await expect(page.getByRole('radio', { name: tier, exact: true })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Token details' })).toBeVisible();
}

const field = (page: Page, name: string) => page.getByRole('textbox', { name: new RegExp(`^${name}`) });

/** Fills the QRC20 base form (supply holder typed by hand) and picks the deployment option. */
async function fillQrc20Base(page: Page, name: string, unit: string, option: RegExp) {
  await field(page, 'Token name').fill(name);
  await field(page, 'Token unit').fill(unit);
  await field(page, 'Decimals').fill('18');
  await field(page, 'Initial supply').fill('500');
  await field(page, 'Supply holder address').fill(TEST_WALLET_ADDRESS);
  await page.getByRole('radio', { name: option }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Check your token' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue to deployment' }).click();
}

test('without networks, creating a token sends the user to configure networks; a testnet is activated', async ({
  page,
  request,
  consoleGuard,
}) => {
  // Spec §5: the creation guard learns from the locations' 409 that no network is configured yet.
  consoleGuard.allowFailedRequest(
    409,
    '/api/tokenise/v2/orchestration/locations',
    'the guard’s answer without networks',
  );
  expect(ethereumPort, 'E2E_DEVCHAIN_PORTS is set by playwright.config.ts').toBeTruthy();
  await createConfirmedUser(request, email, password);
  await signIn(page, { ...user, profile });

  await page.goto(flows);
  await expect(page).toHaveTitle('Token Flow | Quant Connect');
  await expect(page.getByRole('heading', { level: 1, name: 'My smart tokens' })).toBeVisible();
  await expect(page.getByText('You have no smart tokens yet')).toBeVisible();
  await expect(page.getByTestId('tokens-counter')).toHaveText('0 / 5 deployed');
  await snap(page, 'tokens-01-empty');
  await expectAccessible(page, 'Token Flow (empty)');

  // The use cases come from the product catalogue (spec §7): /jsons on the site's own origin,
  // asked with the basic credentials of the runtime configuration.
  const catalogueAnswer = page.waitForResponse((response) => /\/jsons\/payments\.json\?v=/.test(response.url()));
  await page.getByRole('link', { name: /Payments.*settlements/ }).click();
  await expect(page).toHaveURL(new RegExp(`${flows}/payments$`));
  const answer = await catalogueAnswer;
  expect(answer.status()).toBe(200);
  expect(answer.request().headers().authorization).toMatch(/^Basic /);
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Payments with smart tokens' })).toBeVisible();
  await expect(page.getByText('Fungible (QRC20)', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Settle between business accounts/)).toBeVisible();
  await snap(page, 'tokens-02-payments');
  await expectAccessible(page, 'payments use case');
  await page.goto(`${flows}/sustainability`);
  await expect(page.getByRole('heading', { level: 2, name: 'Sustainability with smart tokens' })).toBeVisible();
  await snap(page, 'tokens-03-sustainability');

  // Spec §5: no networks configured → My networks with configureNetworks=true.
  await page.goto(flows);
  await page.getByRole('link', { name: 'Create smart token' }).first().click();
  await expect(page).toHaveURL(/\/my-networks\?configureNetworks=true$/);
  await expect(page.getByText('Please configure your networks before you can deploy tokens')).toBeVisible();
  await snap(page, 'tokens-04-guard-configure-networks');

  await verifyAndActivateTestnet(page);
});

test('deploys a QRC20 flex token with the wallet, mints as the minter and sees the live supply', async ({ page }) => {
  const wallet = new TestWallet(TEST_WALLET_PRIVATE_KEY, chains);
  await wallet.install(page);
  await signIn(page, user);
  await page.goto(createPath);
  await expect(page).toHaveTitle('Create smart token | Quant Connect');
  await expect(page.getByRole('heading', { name: 'Before you start' })).toBeVisible();
  await expect(page.getByText('Your plan allows 5 more token deployments.')).toBeVisible();
  await snap(page, 'tokens-05-intro');
  await expectAccessible(page, 'create token: intro');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Tiers of the chosen blockchain, with what each adds and what it costs.
  await expect(page.getByRole('combobox', { name: 'Blockchain network' })).toContainText('Ethereum Testnet');
  const flex = page.getByRole('radio', { name: 'Flex', exact: true });
  await expect(flex).toContainText('mint');
  await expect(flex).toContainText('20 credits with the provider');
  await expect(flex).toContainText('10 credits with your wallet');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please choose a smart contract tier')).toBeVisible();
  await flex.click();
  await snap(page, 'tokens-06-tiers');
  await expectAccessible(page, 'create token: tiers');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Spec §5 rules under the fields as soon as a field is left.
  await field(page, 'Token name').fill('My USD Coin');
  await field(page, 'Token unit').fill('USDX');
  await field(page, 'Decimals').fill('19');
  await field(page, 'Initial supply').fill('1.5');
  await field(page, 'Supply holder address').fill('0x1234');
  await field(page, 'Minter address').click();
  await expect(page.getByText('The token name must not contain the currency code USD')).toBeVisible();
  await expect(page.getByText('The token unit must not contain the currency code USD')).toBeVisible();
  await expect(page.getByText('Decimals must be a whole number from 0 to 18')).toBeVisible();
  await expect(page.getByText('The initial supply must be a whole number from 0 to 1,000,000,000')).toBeVisible();
  await expect(page.getByText(/Please enter a valid address: 0x followed by 40/)).toBeVisible();
  await snap(page, 'tokens-07-details-errors');
  await expectAccessible(page, 'create token: details with errors');

  await field(page, 'Token name').fill('Loyalty Points');
  await field(page, 'Token unit').fill('LOYAL');
  await field(page, 'Decimals').fill('18');
  await field(page, 'Initial supply').fill('1000');
  await page.getByRole('button', { name: 'Use my wallet address: Supply holder address' }).click();
  await expect(field(page, 'Supply holder address')).toHaveValue(TEST_WALLET_ADDRESS);
  await page.getByRole('button', { name: 'Use my wallet address: Minter address' }).click();
  await expect(field(page, 'Minter address')).toHaveValue(TEST_WALLET_ADDRESS);
  await page.getByRole('radio', { name: /Deploy with Metamask/ }).check();
  await snap(page, 'tokens-08-details');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Check your token' })).toBeVisible();
  await expect(page.getByText('10 credits (you have 100)')).toBeVisible();
  await snap(page, 'tokens-09-summary');
  await expectAccessible(page, 'create token: summary');
  await page.getByRole('button', { name: 'Edit Token unit (symbol)' }).click();
  await expect(field(page, 'Token unit')).toHaveValue('LOYAL');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue to deployment' }).click();

  await expect(page.getByRole('region', { name: 'Ready to deploy Loyalty Points' })).toBeVisible();
  await snap(page, 'tokens-10-ready');
  await expectAccessible(page, 'create token: ready');
  await page.getByRole('button', { name: 'Deploy with Metamask' }).click();
  const success = page.getByRole('region', { name: 'Loyalty Points is live' });
  await expect(success).toBeVisible({ timeout: 30_000 });
  await expect(success.getByText('Your wallet deployed the contract')).toBeVisible();
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1);
  await snap(page, 'tokens-11-success-wallet');
  await expectAccessible(page, 'create token: successful');

  await success.getByRole('link', { name: 'View token' }).click();
  await expect(page).toHaveURL(new RegExp(`${flows}/qrc20/flex\\?id=`));
  await expect(page.getByRole('heading', { level: 1, name: 'Loyalty Points (LOYAL)' })).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByTestId('total-supply')).toHaveText('1,000 LOYAL');
  // Connected as the supply holder: the platform reads that wallet's balance live.
  await expect(page.getByTestId('holder-balance')).toHaveText('1,000 LOYAL');
  await expect(
    page.getByRole('region', { name: 'Smart contract functions' }).getByText('mint', { exact: true }),
  ).toBeVisible();

  const mint = page.getByRole('region', { name: 'Mint tokens' });
  await expect(mint.getByRole('textbox', { name: 'Recipient address' })).toHaveValue(TEST_WALLET_ADDRESS);
  await mint.getByRole('textbox', { name: 'Amount' }).fill('250');
  await mint.getByRole('button', { name: 'Mint' }).click();
  await expect(mint.getByText('Minted. New total supply: 1,250')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('total-supply')).toHaveText('1,250 LOYAL');
  await expect(page.getByTestId('holder-balance')).toHaveText('1,250 LOYAL');
  await snap(page, 'tokens-12-coin-details-minted');
  await expectAccessible(page, 'coin details');
});

test('deploys a QRC721 base token with the platform, without a wallet', async ({ page }) => {
  await signIn(page, user);
  await openDetails(page, 'Non-fungible (QRC721)', 'Base');
  await field(page, 'Token name').fill('Green Certificates');
  await field(page, 'Token unit').fill('GREEN');
  await field(page, 'Base token URI').fill('ftp://example.com/certs');
  await field(page, 'Initial supply').click();
  await expect(page.getByText("The base token URI must start with http and end with '/'")).toBeVisible();
  await field(page, 'Base token URI').fill('https://example.com/certs/');
  await field(page, 'Initial supply').fill('10');
  await field(page, 'Supply holder address').fill(TEST_WALLET_ADDRESS);
  await expect(page.getByRole('radio', { name: /Deploy with the provider/ })).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('15 credits (you have 90)')).toBeVisible();
  await page.getByRole('button', { name: 'Continue to deployment' }).click();
  await page.getByRole('button', { name: 'Deploy now' }).click();
  const success = page.getByRole('region', { name: 'Green Certificates is live' });
  await expect(success).toBeVisible({ timeout: 30_000 });
  await expect(success.getByText(/The platform deployed the contract .* for you: no wallet was needed/)).toBeVisible();
  await snap(page, 'tokens-13-success-platform');

  await success.getByRole('link', { name: 'View token' }).click();
  await expect(page.getByTestId('total-supply')).toHaveText('10 GREEN');
  await expect(page.getByRole('region', { name: 'Mint tokens' })).toHaveCount(0);
  // The token lives on a local chain standing in for the testnet: the page says so.
  await expect(page.getByLabel(/A local chain that stands in/)).toBeVisible();
  await snap(page, 'tokens-14-coin-details-nft');

  await page.goto(flows);
  const table = page.getByRole('table', { name: 'Your smart tokens' });
  await expect(table.getByRole('row', { name: /Loyalty Points/ }).getByText('Active')).toBeVisible();
  await expect(table.getByRole('row', { name: /Green Certificates/ }).getByText('Active')).toBeVisible();
  await expect(table.getByRole('row', { name: /Green Certificates/ }).getByText('Sandbox')).toBeVisible();
  await expect(page.getByTestId('tokens-counter')).toHaveText('2 / 5 deployed');
  await snap(page, 'tokens-15-list');
  await expectAccessible(page, 'Token Flow (two tokens)');
  await chooseOption(page, 'Token type', 'Non-fungible (QRC721)');
  await expect(table.getByRole('row', { name: /Green Certificates/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Loyalty Points/ })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search by name or unit' }).fill('loyal');
  await expect(page.getByText('No tokens match your search and filters.')).toBeVisible();
  await snap(page, 'tokens-16-list-filtered-empty');
});

test('without a wallet the deployment says to install one, and nothing is created', async ({ page }) => {
  await signIn(page, user);
  await openDetails(page, 'Fungible (QRC20)', 'Base');
  await fillQrc20Base(page, 'No Wallet Points', 'NOWAL', /Deploy with Metamask/);
  await page.getByRole('button', { name: 'Deploy with Metamask' }).click();
  await expect(page.getByText('Please install and activate your MetaMask!')).toBeVisible();
  await snap(page, 'tokens-17-no-wallet');
  await expectAccessible(page, 'create token: no wallet');
  await page.goto(flows);
  await expect(page.getByTestId('tokens-counter')).toHaveText('2 / 5 deployed');
});

test('a wallet that rejects the transaction cancels the deployment', async ({ page }) => {
  const wallet = new TestWallet(TEST_WALLET_PRIVATE_KEY, chains);
  wallet.setRejecting(true);
  await wallet.install(page);
  await signIn(page, user);
  await openDetails(page, 'Fungible (QRC20)', 'Base');
  await fillQrc20Base(page, 'Rejected Points', 'REJECT', /Deploy with Metamask/);
  await page.getByRole('button', { name: 'Deploy with Metamask' }).click();
  const cancelled = page.getByRole('region', { name: "You've canceled your deployment." });
  await expect(cancelled).toBeVisible({ timeout: 20_000 });
  await expect(cancelled.getByText('User denied transaction signature.')).toBeVisible();
  await snap(page, 'tokens-18-cancelled');
  await expectAccessible(page, 'create token: cancelled');

  // Nothing deployed, nothing charged; the quota unit is given back.
  await page.goto(flows);
  await expect(page.getByTestId('tokens-counter')).toHaveText('2 / 5 deployed');
  await expect(page.getByText('75 credits', { exact: true })).toBeVisible();
});

/** An access token of the journeys' user, for set-up calls that are not under test. */
async function accessToken(request: APIRequestContext): Promise<string> {
  const response = await idp(request, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult
    .AccessToken;
}

test('with the tokens:create quota used up, the creation page sends the user back to Token Flow', async ({
  page,
  request,
  consoleGuard,
}) => {
  // Spec §5: the creation guard learns from the locations' 409 that the quota is used up.
  consoleGuard.allowFailedRequest(409, '/api/tokenise/v2/orchestration/locations', 'the guard’s answer without quota');
  // Set-up through the API: three more platform deployments use up the plan's five.
  const token = await accessToken(request);
  for (const n of [1, 2, 3]) await deployPlatformToken(request, token, { tier: 'base', n, label: 'Quota Filler' });

  await signIn(page, user);
  await page.goto(createPath);
  await expect(page).toHaveURL(new RegExp(`${flows}\\?notice=quota$`));
  await expect(
    page.getByText('You have deployed all the tokens your plan allows. Upgrade your plan to deploy more.'),
  ).toBeVisible();
  await expect(page.getByTestId('tokens-counter')).toHaveText('5 / 5 deployed');
  await expect(page.getByRole('link', { name: 'Create smart token' })).toHaveAttribute('aria-disabled', 'true');
  await snap(page, 'tokens-19-quota-reached');
  await expectAccessible(page, 'Token Flow (quota reached)');
});

/** JSON-RPC to a local chain (set-up: pause and resume mining). */
async function rpc(url: string, method: string, params: unknown[] = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/**
 * A server of its own (its own database and port) for the restart journey, on the journeys'
 * Ethereum chain with a deployer key of its own (so its nonces never meet the main server's).
 */
function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@e2e.test',
      DATABASE_URL: '',
      DEVCHAINS: '0',
      NETWORK_RPC_ETHEREUM_TESTNET: ethereumRpc,
      DEPLOYER_PRIVATE_KEY_ETHEREUM_TESTNET: DEV_ACCOUNTS[3]!.privateKey,
      KYC_SANDBOX_DELAY_MS: '500',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`the server exited with ${child.exitCode}`));
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (response.ok) return resolve(child);
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error('the server did not start in time'));
      setTimeout(() => void poll(), 500);
    };
    void poll();
  });
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test('a platform deployment pending while the server restarts still ends Active', async ({ page, consoleGuard }) => {
  test.setTimeout(300_000);
  // The page keeps following the deployment while the test stops the server and starts it again.
  consoleGuard.allowFailedRequest(503, /^\/api\/tokenise\//, 'the stopping server refuses new requests');
  consoleGuard.allowFailedRequest('net::ERR_CONNECTION_REFUSED', /^\/api\/tokenise\//, 'the server is down');
  consoleGuard.allowFailedRequest(503, '/api/connect/notifications', 'the bell polls while the server stops');
  consoleGuard.allowFailedRequest(
    'net::ERR_CONNECTION_REFUSED',
    '/api/connect/notifications',
    'the bell polls while the server is down',
  );
  consoleGuard.allowFailedRequest(503, '/api/connect/live', 'the change stream reconnects while the server stops');
  consoleGuard.allowFailedRequest(
    'net::ERR_CONNECTION_REFUSED',
    '/api/connect/live',
    'the change stream reconnects while the server is down',
  );
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-e2e-restart-'));
  let server = await startServer(port, dataDir);
  try {
    const api = await playwrightRequest.newContext({ baseURL: base });
    await createConfirmedUser(api, email, password);
    await api.dispose();
    await signIn(page, { ...user, profile, base });
    await verifyAndActivateTestnet(page, base);

    await page.goto(`${base}${createPath}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('radio', { name: 'Base', exact: true }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    // Transactions wait in the mempool from now on: the deployment stays pending.
    await rpc(ethereumRpc, 'evm_setAutomine', [false]);
    await fillQrc20Base(page, 'Restart Points', 'RESTART', /Deploy with the provider/);
    await page.getByRole('button', { name: 'Deploy now' }).click();
    await expect(page.getByText('The platform is deploying your contract…')).toBeVisible();
    await expect(page.getByText(/You can leave this page/)).toBeVisible();
    await snap(page, 'tokens-20-pending-platform');
    await expectAccessible(page, 'create token: pending');

    await stopServer(server);
    server = await startServer(port, dataDir);
    await rpc(ethereumRpc, 'evm_setAutomine', [true]);
    await rpc(ethereumRpc, 'evm_mine');

    // The page kept waiting through the restart; the restarted server confirmed the contract.
    const success = page.getByRole('region', { name: 'Restart Points is live' });
    await expect(success).toBeVisible({ timeout: 60_000 });
    await page.goto(`${base}${flows}`);
    const row = page.getByRole('table', { name: 'Your smart tokens' }).getByRole('row', { name: /Restart Points/ });
    await expect(row.getByText('Active')).toBeVisible();
    await snap(page, 'tokens-21-after-restart');
  } finally {
    await rpc(ethereumRpc, 'evm_setAutomine', [true]).catch(() => undefined);
    await stopServer(server);
  }
});
