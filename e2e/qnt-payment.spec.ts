import type { APIRequestContext, Page, Route } from '@playwright/test';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { LOCAL_QNT_ADDRESS } from '../apps/server/src/adapters/chains/qnt-token.ts';
import { expectAccessible, snap as snapPage } from './support/a11y.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { createConfirmedUser } from './support/identity.ts';
import { signIn, verifyAndActivateTestnet } from './support/journey.ts';
import { PRIMARY_WALLET, TestWallet } from './support/test-wallet.ts';

// A trial customer upgrades to the annual plan and pays in QNT from a browser wallet (issue 15):
// the wallet picker offers two wallets, the wallet first refuses (the order stays payable), the
// second attempt sends the transfer, the page shows it live (processing with its confirmations)
// until the chain follower settles the order; the plan is ACTIVE with its allowances, both order
// emails are in the dev mailbox, the wallet holds exactly the amount due less, and My account
// shows the deposit address. A second customer without any wallet is told to install MetaMask.
// The first customer's steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
// Two busy cores: pages and chains answer within seconds, not instantly.
const expect = baseExpect.configure({ timeout: 15_000 });

const email = `qnt-${Date.now()}@example.com`;
const password = 'Qnt-Journey-Passw0rd!';
const profile = { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines Ltd', location: 'London' };
const ANNUAL = 'Annual Subscription — Standard';
/** £6,000 at the local price table's £80 a QNT. */
const AMOUNT_DUE = 75n * 10n ** 18n;
/** Confirmations the e2e server waits for (QNT_CONFIRMATIONS' default). */
const CONFIRMATIONS = 3;
/** How often the confirmation step looks at a QNT payment under way (apps/web QNT_TRACK_INTERVAL_MS). */
const QNT_TRACK_INTERVAL_MS = 2_500;
/** The confirmation step's look at the order. */
const TRACK_URL = '/api/account-plan/order/track';
/** The chain follower needs a few seconds for the confirmations; a loaded machine, more. */
const CHAIN_TIMEOUT = 30_000;

// anvil's accounts 6 and 7: no other journey signs with them (0 funds the platform deployer, 1 and 2
// are the tokens journey's wallets, 3 deploys for it, 9 deployed the QNT token), and the server
// minted each 1,000,000 QNT. 6 pays. No waiting for the chain follower first: a payment made as
// soon as the server is up is credited (the follower's cursor is placed before any address exists).
const PAYER = DEV_ACCOUNTS[6]!;
/** A second wallet announced in the page, so the picker asks which one to use. */
const OTHER_WALLET = { name: 'Second Browser Wallet', rdns: 'network.connect.secondwallet' };

const [ethereumPort, polygonPort] = (process.env.E2E_DEVCHAIN_PORTS ?? '').split(',');
const chains = [
  { chainId: 31337, rpcUrl: `http://127.0.0.1:${ethereumPort}` },
  { chainId: 31338, rpcUrl: `http://127.0.0.1:${polygonPort}` },
];

let accessToken = '';
let networkId = '';
let orderId = '';
let orderReference = '';
let depositAddress = '';
let balanceBefore = 0n;

type Order = {
  id: string;
  reference: string;
  status: string;
  qnt: { status: string; amountDue: string; depositAddress: string; tokenAddress: string; chainId: number } | null;
};
type Subscription = {
  status: string;
  plan: { name: string };
  pendingOrder: Order | null;
  qnt?: { held: string; depositAddress: string | null };
};

/** A full-page screenshot from the top, so the sticky top bar sits where it belongs. */
async function snap(page: Page, name: string) {
  await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await snapPage(page, name);
}

/** A dialog as the user sees it: the viewport only (a full-page shot leaves the page below the fold undimmed). */
async function snapDialog(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

/** The signed-in user's access token, as the SPA keeps it. */
const readAccessToken = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });

const asUser = () => ({ authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' });

async function subscription(request: APIRequestContext): Promise<Subscription> {
  const response = await request.get('/api/account-plan/subscription', { headers: asUser() });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Subscription;
}

async function trackOrder(request: APIRequestContext): Promise<Order> {
  const response = await request.post('/api/account-plan/order/track', {
    headers: asUser(),
    data: JSON.stringify({ orderId }),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Order;
}

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

type Mail = { kind: string; subject: string; text: string };

/** The mail to `to` with exactly this subject, from the dev mailbox (it goes out after the event's commit). */
async function mailWithSubject(request: APIRequestContext, to: string, subject: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        const { messages } = (await response.json()) as { messages: Mail[] };
        found = messages.find((message) => message.subject === subject);
        return found?.subject;
      },
      { timeout: 10_000 },
    )
    .toBe(subject);
  return found!;
}

/**
 * Moves the page's clock on to its next look at the order (POST /order/track) and waits for the
 * answer. Nothing is asked once the order is paid: then it only moves the clock on.
 */
async function lookAgain(page: Page) {
  const answered = page
    .waitForResponse((response) => response.url().endsWith(TRACK_URL), { timeout: 5_000 })
    .catch(() => null);
  await page.clock.fastForward(QNT_TRACK_INTERVAL_MS);
  await answered;
}

/** From the top bar's Upgrade link through plan selection and summary to the payment step, paying in QNT. */
async function openPaymentInQnt(page: Page, options: { snaps: boolean }) {
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Upgrade/i })
    .click();
  await expect(page).toHaveURL(/\/account-plan\/upgrade$/);
  await expect(page.getByRole('table', { name: 'Choose your plan' })).toBeVisible();
  await page.getByRole('button', { name: `Upgrade ${ANNUAL}` }).click();
  await expect(page.getByRole('radio', { name: 'No credit bundle' })).toBeChecked();
  if (options.snaps) await snap(page, '70-qnt-plans');
  await page.getByRole('button', { name: 'Continue to summary' }).click();

  await expect(page.getByRole('heading', { name: 'Plan summary' })).toBeVisible();
  await expect(page.getByText('£6,000.00').first()).toBeVisible();
  await expect(page.getByText(/^QNT, /)).toBeVisible(); // Accepted payment methods: QNT first
  if (options.snaps) await snap(page, '71-qnt-summary');
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await page.getByRole('radio', { name: 'QNT' }).check();
  for (const name of [/terms and conditions/, /acceptable use policy/, /privacy policy/]) {
    await page.getByRole('checkbox', { name }).check();
  }
  await expect(page.getByText(/The amount in QNT is quoted when you continue/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue to MetaMask' })).toBeEnabled();
}

test('a trial customer registers the three applications the trial allows, and no more', async ({ page, request }) => {
  expect(ethereumPort, 'E2E_DEVCHAIN_PORTS is set by playwright.config.ts').toBeTruthy();
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
  for (const name of ['Vault One', 'Vault Two', 'Vault Three']) {
    const created = await registerApplication(request, name);
    expect(created.status(), await created.text()).toBeLessThan(300);
  }
  const refused = await registerApplication(request, 'Vault Four');
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { code: string }).code).toBe('APPLICATION_QUOTA_REACHED');
});

test('the customer pays the annual plan in QNT from the wallet they pick; a refusal leaves the order payable; the payment is followed live until it settles', async ({
  page,
  request,
}) => {
  const wallet = new TestWallet(PAYER.privateKey, chains);
  await wallet.install(page, { others: [OTHER_WALLET] });
  // The page's clock runs as usual until the payment is on the chain (see below).
  await page.clock.install();
  balanceBefore = await wallet.balanceOf(LOCAL_QNT_ADDRESS);
  expect(balanceBefore).toBeGreaterThanOrEqual(AMOUNT_DUE);

  await signIn(page, { email, password });
  await openPaymentInQnt(page, { snaps: true });
  await snap(page, '72-qnt-payment-step');
  await expectAccessible(page, '/account-plan/upgrade (payment in QNT)');

  // The customer presses Reject in the wallet the first time.
  wallet.setRejecting(true);
  await page.getByRole('button', { name: 'Continue to MetaMask' }).click();

  // The order is placed and the wallet opens at once: two wallets announced themselves, so the picker asks.
  const picker = page.getByRole('dialog', { name: 'Choose a wallet' });
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('button', { name: PRIMARY_WALLET.name })).toBeVisible();
  await expect(picker.getByRole('button', { name: OTHER_WALLET.name })).toBeVisible();
  await snapDialog(page, '73-qnt-wallet-picker');
  await expectAccessible(page, '/account-plan/upgrade (wallet picker)');
  await picker.getByRole('button', { name: PRIMARY_WALLET.name }).click();
  await expect(picker).toBeHidden();

  // Spec §8's words for the refusal; the order still waits for its transfer and can be paid again.
  await expect(page.getByText('User denied transaction signature.', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Waiting for your transfer' })).toBeVisible();
  await expect(page.getByTestId('qnt-amount-due')).toHaveText('75 QNT');
  const payAgain = page.getByRole('button', { name: 'Pay 75 QNT with your wallet' });
  await expect(payAgain).toBeEnabled();
  await expect(page.getByRole('banner').getByRole('button', { name: /Pending/i })).toBeDisabled();

  const placed = (await subscription(request)).pendingOrder!;
  expect(placed).toMatchObject({ status: 'AWAITING_PAYMENT', ratePlan: { name: ANNUAL }, paymentMethod: 'QNT' });
  expect(placed.qnt).toMatchObject({ status: 'NEW', amountDue: AMOUNT_DUE.toString(), chainId: 31337 });
  expect(placed.qnt!.tokenAddress.toLowerCase()).toBe(LOCAL_QNT_ADDRESS.toLowerCase());
  orderId = placed.id;
  orderReference = placed.reference;
  depositAddress = placed.qnt!.depositAddress;
  await expect(page.getByTestId('qnt-deposit')).toHaveText(depositAddress);
  await expect(page.getByText(`Order ${orderReference}, £6,000.00.`)).toBeVisible();
  // Nothing left the wallet.
  expect(await wallet.balanceOf(LOCAL_QNT_ADDRESS)).toBe(balanceBefore);
  await snap(page, '74-qnt-waiting-denied');
  await expectAccessible(page, '/account-plan/upgrade (QNT waiting, refused)');

  // Try again: the wallet chosen a moment ago is used without asking, and this time it sends.
  wallet.setRejecting(false);
  await payAgain.click();

  // Live: the follower sees the transfer, then counts its confirmations. On the local chain (a block
  // a second) that takes 1–3 s, less than the page's 2.5 s between looks, so the page could go from
  // the transfer sent straight to the success screen. The test moves the page's clock on a look at
  // a time, so the page asks every few hundred milliseconds and shows each state the follower
  // reports; it holds the page's next look back while it photographs and checks the processing state.
  const transfer = page.getByTestId('qnt-transfer');
  const confirmations = new RegExp(`^75 QNT.*[0-${CONFIRMATIONS}] of ${CONFIRMATIONS} confirmations$`);
  await expect
    .poll(
      async () => {
        await lookAgain(page);
        return (await transfer.allTextContents()).join(' | ');
      },
      {
        message: 'the transfer with its confirmations, before the order settles',
        timeout: CHAIN_TIMEOUT,
        intervals: [200],
      },
    )
    .toMatch(confirmations);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const holdBack = (route: Route) => released.then(() => route.continue());
  await page.route(`**${TRACK_URL}`, holdBack);
  await expect(page.getByRole('heading', { name: 'Your transfer is being confirmed' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: new RegExp(`of ${CONFIRMATIONS} confirmations`) })).toBeVisible();
  await snap(page, '75-qnt-processing');
  await expectAccessible(page, '/account-plan/upgrade (QNT processing)');
  release();
  // Once the look held back has gone on its way (the page has no other routes).
  await page.unrouteAll({ behavior: 'wait' });

  const success = page.getByRole('heading', { name: 'Thank you for submitting your QNT payment' });
  await expect
    .poll(
      async () => {
        if (await success.isVisible()) return true;
        await lookAgain(page);
        return success.isVisible();
      },
      { timeout: CHAIN_TIMEOUT, intervals: [200] },
    )
    .toBe(true);
  await expect(page.getByText(`Your payment is confirmed and your ${ANNUAL} plan is active.`)).toBeVisible();
  await expect(picker).toBeHidden();

  // Both wallet payments went to the wallet picked by name; the second one alone was sent.
  const sent = wallet.requests.filter((r) => r.method === 'eth_sendTransaction');
  expect(sent).toHaveLength(2);
  expect(sent.every((r) => r.wallet === PRIMARY_WALLET.rdns)).toBe(true);

  // The top bar follows at once: the plan's name, no longer the pending label.
  const banner = page.getByRole('banner');
  await expect(banner.getByText(ANNUAL)).toBeVisible();
  await expect(banner.getByRole('button', { name: /Pending/i })).toHaveCount(0);
  await snap(page, '76-qnt-success');
  await expectAccessible(page, '/account-plan/upgrade (QNT success)');
});

test('the order is paid: the annual allowances apply, both emails are in the mailbox, the wallet paid exactly the amount due', async ({
  request,
}) => {
  const order = await trackOrder(request);
  expect(order.status).toBe('PAID');
  expect(order.qnt?.status).toBe('SETTLED');
  expect((await subscription(request)).status).toBe('ACTIVE');

  // The annual plan allows ten applications: a fourth is registered at once.
  const fourth = await registerApplication(request, 'Vault Four');
  expect(fourth.status(), await fourth.text()).toBeLessThan(300);

  // The email sent when the order was placed: where to send how much.
  const placed = await mailWithSubject(request, email, `Order ${orderReference}: your QNT payment`);
  expect(placed.text).toContain('Please send 75 QNT (£6,000.00 at £80 a QNT)');
  expect(placed.text).toContain(depositAddress);
  expect(placed.text.toLowerCase()).toContain(`qnt token contract: ${LOCAL_QNT_ADDRESS.toLowerCase()}`);
  // And the one sent when it was paid.
  const paid = await mailWithSubject(request, email, `Order ${orderReference}: your plan is active`);
  expect(paid.text).toContain(`We received your payment of 75 QNT for order ${orderReference}.`);
  expect(paid.text).toContain(`Your plan ${ANNUAL} is active from`);

  // What the chain says: the wallet holds exactly the amount due less.
  const wallet = new TestWallet(PAYER.privateKey, chains);
  expect(await wallet.balanceOf(LOCAL_QNT_ADDRESS)).toBe(balanceBefore - AMOUNT_DUE);
});

test('My account shows the plan ACTIVE, the QNT held and the deposit address', async ({ page }) => {
  await signIn(page, { email, password });
  await page.goto('/my-account');
  const plan = page.getByRole('region', { name: /plan/i }).first();
  await expect(plan.getByTestId('plan-name')).toHaveText(ANNUAL);
  await expect(plan.getByText('Active', { exact: true })).toBeVisible();
  const qnt = plan.getByRole('region', { name: 'QNT' });
  // Paid exactly: nothing is left over to hold.
  await expect(qnt.getByTestId('qnt-held')).toHaveText('0 QNT');
  await expect(qnt.getByTestId('qnt-address')).toHaveText(depositAddress);
  await snap(page, '77-qnt-my-account');
  await expectAccessible(page, '/my-account (plan paid in QNT)');
});

test('without any wallet in the browser, paying in QNT asks to install MetaMask', async ({ page, request }) => {
  // A second customer, whose browser has no wallet at all (no install()).
  const other = `qnt-nowallet-${Date.now()}@example.com`;
  await createConfirmedUser(request, other, password);
  await signIn(page, {
    email: other,
    password,
    profile: { ...profile, firstName: 'Charles', lastName: 'Babbage' },
  });
  await openPaymentInQnt(page, { snaps: false });
  await page.getByRole('button', { name: 'Continue to MetaMask' }).click();

  await expect(page.getByText('Please install and activate your MetaMask!', { exact: true })).toBeVisible();
  // The order is placed all the same: the deposit address and the amount are there to pay from elsewhere.
  await expect(page.getByRole('heading', { name: 'Waiting for your transfer' })).toBeVisible();
  await expect(page.getByTestId('qnt-deposit')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByRole('button', { name: 'Pay 75 QNT with your wallet' })).toBeEnabled();
  await snap(page, '78-qnt-no-wallet');
  await expectAccessible(page, '/account-plan/upgrade (QNT, no wallet)');
});
