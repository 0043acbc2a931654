import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';
import { signIn, verifyAndActivateTestnet } from './support/journey.ts';

// One user registers an application, calls the gateway with its token, reads the calls by method
// on the usage page, sets a spending cap, reaches it (the gateway answers 429 with when to retry;
// an email and a bell notice say so) and raises it again. The steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const email = `usage-${Date.now()}@example.com`;
const password = 'Usage-Journey-Passw0rd!';
const user = { email, password };
const APP = 'Meter Reader';
const NETWORK = 'ethereum-testnet';

let clientId = '';
let clientSecret = '';

/** The signed-in user's access token, as the SPA keeps it. */
const readAccessToken = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });

/** An access token of the application (client credentials, RFC 6749 §4.4). */
async function applicationToken(request: APIRequestContext): Promise<string> {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const response = await request.post('/oauth2/token', {
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    data: 'grant_type=client_credentials',
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The subjects of the notification emails sent to the user so far (the dev mailbox). */
async function mailSubjects(request: APIRequestContext): Promise<string[]> {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const { messages } = (await response.json()) as { messages: { kind: string; subject: string }[] };
  return messages.filter((message) => message.kind === 'NOTIFICATION').map((message) => message.subject);
}

type Call = { method: string; params: unknown[] };

/** One JSON-RPC batch through the gateway. */
function gateway(request: APIRequestContext, token: string, calls: Call[]) {
  return request.post(`/api/gateway/${NETWORK}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, ...call }))),
  });
}

const repeat = (n: number, call: Call): Call[] => Array.from({ length: n }, () => call);
const READS: Call[] = [
  ...repeat(12, { method: 'eth_blockNumber', params: [] }),
  ...repeat(3, { method: 'eth_chainId', params: [] }),
  ...repeat(2, { method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001', 'latest'] }),
];
/** Log queries cost five reads each (0.0005 credit): 18 of them and the reads above pass a 0.01-credit cap. */
const LOGS: Call[] = repeat(18, { method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x0' }] });

test('calls through the gateway appear on the usage page by method', async ({ page, request }) => {
  await createConfirmedUser(request, email, password);
  await signIn(page, {
    ...user,
    profile: { firstName: 'Grace', lastName: 'Hopper', company: 'Meter Works Ltd', location: 'United Kingdom' },
  });
  await verifyAndActivateTestnet(page);

  // The application is registered through the API the stepper calls (applications.spec.ts walks the stepper).
  const headers = { authorization: `Bearer ${await readAccessToken(page)}` };
  const { locations } = (await (await request.get('/api/tokenise/v2/orchestration/locations', { headers })).json()) as {
    locations: { networkId: string }[];
  };
  const created = await request.post('/api/application-manager/create-application', {
    headers,
    data: {
      name: APP,
      callbackUrl: 'https://meter.example.com/callback',
      applicationType: 'testnet',
      networkIds: [locations[0]!.networkId],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  ({ clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string });

  const token = await applicationToken(request);
  const answered = await gateway(request, token, READS);
  expect(answered.status(), await answered.text()).toBe(200);
  expect(((await answered.json()) as unknown[]).length).toBe(READS.length);

  await page.goto('/usage');
  await expect(page).toHaveTitle('Usage | Quant Connect');
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  // The gateway writes its counts every second: the page shows them once written.
  const breakdown = page.getByRole('table', { name: 'Where your credits went' });
  await expect(async () => {
    await page.reload();
    await expect(breakdown.getByRole('row', { name: /eth_blockNumber/ })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(breakdown.getByRole('row', { name: /eth_blockNumber/ })).toContainText(APP);
  await expect(breakdown.getByRole('row', { name: /eth_blockNumber/ })).toContainText('12');
  await expect(breakdown.getByRole('row', { name: /eth_chainId/ })).toContainText('3');
  await expect(breakdown.getByRole('row', { name: /eth_getBalance/ })).toContainText('2');
  await expect(page.getByRole('figure', { name: 'Which methods are called most?' })).toBeVisible();
  await snap(page, 'usage-01-by-method');
  await expectAccessible(page, '/usage');

  // The CSV has the same rows.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^usage-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await import('node:fs/promises')).readFile((await file.path())!, 'utf8');
  expect(csv).toContain('eth_blockNumber');
  expect(csv).toContain(APP);
});

test('a spending cap is set, reached (429 with when to retry, an email and a notice) and raised', async ({
  page,
  request,
}) => {
  await signIn(page, user);
  await page.goto('/usage');
  const caps = page.getByRole('region', { name: 'Spending caps' });
  await caps.getByRole('button', { name: `Set cap for ${APP}` }).click();
  const dialog = page.getByRole('dialog', { name: `Spending cap of ${APP}` });
  await dialog.getByLabel('Monthly cap').fill('0');
  await dialog.getByRole('button', { name: 'Save cap' }).click();
  await expect(dialog.getByText('A cap is at least 0.01 credits.')).toBeVisible();
  await dialog.getByLabel('Monthly cap').fill('0.01');
  // The viewport: a full-page shot leaves the page below the fold undimmed.
  await page.screenshot({ path: 'e2e/screenshots/usage-02-cap-dialog.png' });
  await expectAccessible(page, 'spending cap dialog');
  await dialog.getByRole('button', { name: 'Save cap' }).click();
  await expect(page.getByText('Spending cap saved')).toBeVisible();
  await expect(dialog).toBeHidden();

  // 17 reads (0.0017) and 18 log queries (0.009) pass the cap of 0.01 credits.
  const token = await applicationToken(request);
  const logs = await gateway(request, token, LOGS);
  expect(logs.status(), await logs.text()).toBe(200);
  let refused = await gateway(request, token, READS.slice(0, 1));
  await expect
    .poll(
      async () => {
        refused = await gateway(request, token, READS.slice(0, 1));
        return refused.status();
      },
      { timeout: 15_000 },
    )
    .toBe(429);
  // A JSON-RPC error per call (-32005, as hosted providers answer), so that clients show the reason.
  const [answer] = (await refused.json()) as {
    error: { code: number; message: string; data: { code: string; allowedRps: number; retryAt: string } };
  }[];
  const problem = answer!.error.data;
  expect(answer!.error.code).toBe(-32005);
  expect(problem.code).toBe('GATEWAY_SPENDING_CAP_REACHED');
  expect(problem.allowedRps).toBe(0);
  const nextMonth = new Date();
  nextMonth.setUTCHours(0, 0, 0, 0);
  nextMonth.setUTCDate(1);
  nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
  expect(Date.parse(problem.retryAt)).toBe(nextMonth.getTime());
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);

  // The alert: one email (85 % and 100 % were crossed by one flush: the highest is told), and the bell's notice.
  await expect
    .poll(async () => (await mailSubjects(request)).filter((subject) => subject.includes('monthly cap')), {
      timeout: 15_000,
    })
    .toEqual([`${APP} reached its monthly cap`]);
  await page.reload();
  await expect(caps.getByText('Calls refused until the cap is raised or the month turns')).toBeVisible();
  await snap(page, 'usage-03-cap-reached');
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(async () => {
    await page.reload();
    await expect(bell).not.toHaveAccessibleName('Notifications, 0 unread', { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  await bell.click();
  const list = page.getByRole('dialog', { name: 'Notifications' });
  await expect(list.getByRole('link', { name: new RegExp(`^Unread: ${APP} reached its monthly cap`) })).toBeVisible();
  await expect(list).toHaveCSS('opacity', '1');
  await page.screenshot({ path: 'e2e/screenshots/usage-04-cap-notice.png' });
  await page.keyboard.press('Escape');

  // Raised: the gateway lets the calls through again at once.
  await caps.getByRole('button', { name: `Edit the cap of ${APP}` }).click();
  await dialog.getByLabel('Monthly cap').fill('5');
  await dialog.getByRole('button', { name: 'Save cap' }).click();
  await expect(page.getByText('Spending cap saved')).toBeVisible();
  const again = await gateway(request, token, READS.slice(0, 1));
  expect(again.status(), await again.text()).toBe(200);
  await expect(caps.getByText('Calls refused until the cap is raised or the month turns')).toBeHidden();
  await snap(page, 'usage-05-cap-raised');
});
