import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { readCsv } from '../apps/server/src/lib/csv-testing.ts';
import { expectAccessible, snap as snapPage } from './support/a11y.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { createConfirmedUser } from './support/identity.ts';
import { chooseOption, signIn, verifyAndActivateTestnet } from './support/journey.ts';
import { deployPlatformToken } from './support/platform-tokens.ts';
import { TestWallet } from './support/test-wallet.ts';

// Invoices (issue 18). A pay-as-you-go customer gives their billing details, uses credits on credit
// (four platform deployments: 120 credits, 20 below the 100 trial credits; and gateway calls of an
// application, a fraction of a credit), and the development
// clock closes the month now: the month's invoice appears in My Invoices with the right figures
// (20 credits at $1.20, VAT at 20 % inside), its page shows the parties, lines and summary, the PDF
// (rendered to PNG here and looked at) and the CSV say the same, and the customer pays it in QNT from
// the browser wallet; the invoice turns Paid and its receipt is created and mailed. The steps
// depend on each other.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
// Two busy cores: pages and chains answer within seconds, not instantly.
const expect = baseExpect.configure({ timeout: 15_000 });

const email = `invoices-${Date.now()}@example.com`;
const password = 'Invoice-Journey-Passw0rd!';
const profile = { firstName: 'Mary', lastName: 'Somerville', company: 'Somerville Ledgers Ltd', location: 'London' };
const PAYG = 'Pay as you go — Standard';
const COMPANY = 'Somerville Ledgers Ltd';

// anvil's account 7: no other journey signs with it, and the server minted it 1,000,000 QNT.
const PAYER = DEV_ACCOUNTS[7]!;
const [ethereumPort, polygonPort] = (process.env.E2E_DEVCHAIN_PORTS ?? '').split(',');
const chains = [
  { chainId: 31337, rpcUrl: `http://127.0.0.1:${ethereumPort}` },
  { chainId: 31338, rpcUrl: `http://127.0.0.1:${polygonPort}` },
];

let accessToken = '';
let invoiceId = '';
let invoiceNumber = '';

type Invoice = {
  id: string;
  number: string;
  status: string;
  subtotal: number;
  vat: number;
  totalGbp: number;
  amountDue: number;
  lines: { description: string; quantity: number; amount: number; vat: number }[];
  receipt: { number: string } | null;
};

/** The signed-in user's access token, as the SPA keeps it. */
const readAccessToken = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });

const asUser = () => ({ authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' });

async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url, { headers: asUser() });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** The credits the account holds now (below zero: used on credit). */
async function creditBalance(request: APIRequestContext): Promise<number> {
  return (await getJson<{ credits: { balance: number } }>(request, '/api/account-plan/subscription')).credits.balance;
}

/** A full-page screenshot from the top, so the sticky top bar sits where it belongs. */
async function snap(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await snapPage(page, name);
}

/** The mail to the customer whose subject matches, from the dev mailbox. */
async function mailMatching(request: APIRequestContext, subject: RegExp) {
  let found: { subject: string; text: string } | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
        const { messages } = (await response.json()) as { messages: { subject: string; text: string }[] };
        found = messages.find((message) => subject.test(message.subject));
        return Boolean(found);
      },
      { message: `a mail with the subject ${String(subject)}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

const pdfjs = path.join(process.cwd(), 'node_modules/pdfjs-dist/build');

/**
 * Renders the first page of a PDF to PNG in the browser with pdf.js (the library the server tests
 * read the text with), served from node_modules on a made-up origin, and answers the page's text.
 */
async function renderPdf(page: Page, pdf: Buffer, screenshot: string): Promise<string> {
  const origin = 'http://pdf.render.test';
  await page.route(`${origin}/**`, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    if (name === 'doc.pdf') return route.fulfill({ body: pdf, contentType: 'application/pdf' });
    if (name === 'pdf.mjs' || name === 'pdf.worker.mjs') {
      return route.fulfill({ body: await readFile(path.join(pdfjs, name)), contentType: 'text/javascript' });
    }
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><body style="margin:0;background:#888">
<canvas id="sheet" style="display:block;margin:16px auto;background:#fff"></canvas>
<script type="module">
import * as pdfjsLib from '/pdf.mjs';
pdfjsLib.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
const doc = await pdfjsLib.getDocument('/doc.pdf').promise;
const first = await doc.getPage(1);
const viewport = first.getViewport({ scale: 1.4 });
const canvas = document.getElementById('sheet');
canvas.width = viewport.width;
canvas.height = viewport.height;
await first.render({ canvas, viewport }).promise;
const text = await first.getTextContent();
window.pdfText = text.items.map((item) => item.str).join(' ');
document.body.dataset.rendered = 'yes';
</script></body></html>`,
    });
  });
  await page.goto(`${origin}/index.html`);
  await expect(page.locator('body[data-rendered="yes"]')).toBeAttached({ timeout: 20_000 });
  await page.locator('#sheet').screenshot({ path: `e2e/screenshots/${screenshot}.png` });
  return page.evaluate(() => (globalThis as unknown as { pdfText: string }).pdfText);
}

const fileOf = async (download: Download) => readFile((await download.path())!);

const NETWORK = 'ethereum-testnet';
const GATEWAY_READS = 17;

/** An access token of a new application of the customer (client credentials, RFC 6749 §4.4). */
async function applicationToken(request: APIRequestContext): Promise<string> {
  const { locations } = await getJson<{ locations: { networkId: string }[] }>(
    request,
    '/api/tokenise/v2/orchestration/locations',
  );
  const created = await request.post('/api/application-manager/create-application', {
    headers: asUser(),
    data: JSON.stringify({
      name: 'Ledger Reader',
      callbackUrl: 'https://ledger.example.com/callback',
      applicationType: 'testnet',
      networkIds: [locations[0]!.networkId],
    }),
  });
  expect(created.status(), await created.text()).toBe(201);
  const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
  const response = await request.post('/oauth2/token', {
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    data: 'grant_type=client_credentials',
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

test('a pay-as-you-go customer gives billing details and uses credits on credit; the month is closed', async ({
  page,
  request,
}) => {
  await createConfirmedUser(request, email, password);
  await signIn(page, { email, password, profile });
  accessToken = await readAccessToken(page);

  // Pay as you go, paid in QNT (nothing to pay now): the month's bills are then quoted in QNT.
  const { plans } = await getJson<{ plans: { id: string; name: string }[] }>(request, '/api/account-plan/plans');
  const ordered = await request.post('/api/account-plan/order/plan', {
    headers: asUser(),
    data: JSON.stringify({
      idempotencyKey: crypto.randomUUID(),
      ratePlanId: plans.find((plan) => plan.name === PAYG)!.id,
      paymentMethod: 'QNT',
      terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
    }),
  });
  expect(ordered.status(), await ordered.text()).toBeLessThan(300);

  // The billing details the invoice is made out to, from My account.
  await page.goto('/my-account');
  const billing = page.getByRole('region', { name: 'Billing details' });
  await billing.getByRole('button', { name: 'Add billing details' }).click();
  await billing.getByLabel('Company or name').fill(COMPANY);
  await billing.getByLabel('Address line 1').fill('12 Orbit Lane');
  await billing.getByLabel('Town or city').fill('London');
  await billing.getByLabel('Postcode').fill('N1 7GU');
  await chooseOption(page, /^Country/, 'United Kingdom (GB)');
  await billing.getByLabel('Company registration number').fill('09876543');
  await billing.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your billing details have been saved')).toBeVisible();
  await expect(billing).toContainText('12 Orbit Lane');
  await billing.scrollIntoViewIfNeeded();
  await snap(page, 'invoices-01-billing-details');

  // 120 credits of deployments: 20 below the trial's 100, used on credit.
  await verifyAndActivateTestnet(page);
  const before = await creditBalance(request);
  for (const n of [1, 2, 3, 4]) {
    await deployPlatformToken(request, accessToken, { tier: 'vari', n, label: 'Ledger Points' });
  }
  await expect
    .poll(() => creditBalance(request), { message: 'the four deployments charged', timeout: 60_000 })
    .toBe(before - 120);

  // And gateway calls of an application: 17 reads (0.0017 credit, counted and charged by the hour).
  const token = await applicationToken(request);
  const answered = await request.post(`/api/gateway/${NETWORK}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: JSON.stringify(
      Array.from({ length: GATEWAY_READS }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' })),
    ),
  });
  expect(answered.status(), await answered.text()).toBe(200);
  // The gateway writes its counts once a second; the usage report shows them once written.
  const today = new Date().toISOString().slice(0, 10);
  await expect
    .poll(
      async () =>
        (
          await getJson<{ totals: { calls: number } }>(
            request,
            `/api/application-manager/usage/report?from=${today}&to=${today}`,
          )
        ).totals.calls,
      { message: 'the gateway calls counted', timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(GATEWAY_READS);

  // The development clock closes the month so far at once (drafted and numbered without the grace window).
  const closed = await request.post('/api/dev/billing/close-period', {
    headers: { 'content-type': 'application/json' },
    data: JSON.stringify({}),
  });
  expect(closed.status(), await closed.text()).toBe(200);
  const { invoiceIds } = (await closed.json()) as { invoiceIds: string[] };
  expect(invoiceIds.length).toBeGreaterThanOrEqual(1);
});

test('the month’s invoice is in My Invoices with the right figures; its page, PDF and CSV agree', async ({
  page,
  request,
}) => {
  await signIn(page, { email, password });
  const list = await getJson<{ content: { id: string; invoiceNumber: string; kind: string }[] }>(
    request,
    '/api/payment/user/invoices?size=10',
  );
  const monthly = list.content.find((row) => row.kind === 'MONTHLY')!;
  expect(monthly, JSON.stringify(list)).toBeTruthy();
  invoiceId = monthly.id;
  invoiceNumber = monthly.invoiceNumber;
  const invoice = await getJson<Invoice>(request, `/api/payment/user/invoice/${invoiceId}`);
  // 20 credits at $1.20 = $24.00 = £18.90 at $1.27 to the pound, VAT at 20 % inside it (£3.15).
  expect(invoice).toMatchObject({ status: 'OPEN', totalGbp: 1_890, vat: 315, subtotal: 1_575, amountDue: 1_890 });

  // From the account menu.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Invoices' }).click();
  await expect(page).toHaveURL(/\/invoices\/my-invoices/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Invoices' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Your invoices' });
  const row = table.getByRole('row', { name: new RegExp(invoiceNumber) });
  await expect(row).toContainText('£15.75');
  await expect(row).toContainText('Due');
  // Invoice Number is sorted newest first at the start (spec §4, §9).
  await expect(table.getByRole('columnheader', { name: /Invoice Number/ })).toHaveAttribute('aria-sort', 'descending');
  await snap(page, 'invoices-02-my-invoices');
  await expectAccessible(page, '/invoices/my-invoices');

  // The CSV, from the row's actions.
  await row.getByRole('button', { name: `Actions for invoice ${invoiceNumber}` }).click();
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Download CSV' }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toBe(`${invoiceNumber}.csv`);
  const csvText = (await fileOf(csvFile)).toString('utf8');
  const rows = readCsv(csvText);
  const field = (name: string) => rows.find(([first]) => first === name)?.[1];
  expect(field('Invoice number')).toBe(invoiceNumber);
  expect(rows.flat()).toContain(COMPANY);
  expect(Number(field('Total (GBP)'))).toBe(18.9);
  expect(Number(field('VAT (GBP)'))).toBe(3.15);

  // The invoice page.
  await row.getByRole('button', { name: `Actions for invoice ${invoiceNumber}` }).click();
  await page.getByRole('menuitem', { name: 'See details' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Invoice ${invoiceNumber}` })).toBeVisible();
  await expect(page.getByText(COMPANY).first()).toBeVisible();
  await expect(page.getByText('12 Orbit Lane')).toBeVisible();
  const lines = page.getByRole('table', { name: 'Lines' });
  await expect(lines).toContainText('Token deployments (4): 120 credits');
  await expect(lines).toContainText(`Gateway calls — read (${GATEWAY_READS} calls)`);
  await expect(lines).toContainText('£15.75');
  await expect(page.getByText('£18.90').first()).toBeVisible();
  await snap(page, 'invoices-03-invoice-page');
  await expectAccessible(page, '/invoices/my-invoices/:invoiceId');

  // The PDF says what the page says.
  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const pdfFile = await pdfDownload;
  expect(pdfFile.suggestedFilename()).toBe(`${invoiceNumber}.pdf`);
  const pdf = await fileOf(pdfFile);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const viewer = await page.context().newPage();
  const text = await renderPdf(viewer, pdf, 'invoices-04-invoice-pdf');
  await viewer.close();
  for (const expected of [invoiceNumber, COMPANY, '12 Orbit Lane', '£18.90', '£3.15', '£15.75']) {
    expect(text, expected).toContain(expected);
  }
});

test('the customer pays the invoice in QNT from the wallet; it is Paid and its receipt is mailed', async ({
  page,
  request,
}) => {
  const wallet = new TestWallet(PAYER.privateKey, chains);
  await wallet.install(page);
  await signIn(page, { email, password });
  await page.goto(`/invoices/my-invoices/${invoiceId}`);
  await page.getByRole('button', { name: 'Pay with QNT' }).click();
  const dialog = page.getByRole('dialog', { name: `Pay invoice ${invoiceNumber} with QNT` });
  await expect(dialog).toContainText('£18.90');
  await expect(dialog.getByText(/less than the .* due: send the QNT from your wallet/)).toBeVisible();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'e2e/screenshots/invoices-05-pay-dialog.png' });
  await expectAccessible(page, 'pay invoice dialog');
  await dialog.getByRole('button', { name: 'Pay with your wallet' }).click();

  // The chain follower sees the transfer, waits for its confirmations and settles the order.
  await expect(dialog.getByRole('heading', { name: 'Invoice paid' })).toBeVisible({ timeout: 60_000 });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: 'e2e/screenshots/invoices-06-paid.png' });
  await dialog.getByRole('button', { name: 'Close' }).click();

  await expect(page.getByText('Paid').first()).toBeVisible();
  await page.getByRole('button', { name: 'Create receipt' }).click();
  const created = page.getByText(/^Receipt RCT-\d{6} sent to your email$/);
  await expect(created).toBeVisible();
  const invoice = await getJson<Invoice>(request, `/api/payment/user/invoice/${invoiceId}`);
  expect(invoice.status).toBe('PAID');
  expect(invoice.amountDue).toBe(0);
  expect(invoice.receipt?.number).toMatch(/^RCT-\d{6}$/);
  const mail = await mailMatching(request, new RegExp(invoice.receipt!.number));
  expect(mail.text).toContain(invoiceNumber);

  const receiptDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download receipt' }).click();
  const receipt = await receiptDownload;
  expect((await fileOf(receipt)).subarray(0, 5).toString()).toBe('%PDF-');
  await snap(page, 'invoices-07-paid-with-receipt');
});
