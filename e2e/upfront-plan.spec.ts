import type { Page } from '@playwright/test';
import { expectAccessible, snap as snapPage } from './support/a11y.ts';
import { useTestCard } from './support/card-sandbox.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { createConfirmedUser } from './support/identity.ts';
import { signIn } from './support/journey.ts';

// The upfront period option of the plan step (spec doc 2 §2, 'first {duration} months upfront';
// issue 35 §5): the seeded annual standard plan offers its first 6 months upfront. A trial
// customer chooses it, sees the upfront cost in the summary, pays by card in the sandbox, and
// has the plan active for 6 months, renewing yearly at the full fee after them.
test.describe.configure({ timeout: 180_000 });
// Two busy cores: pages, the sandbox and the settlement answer within seconds.
const expect = baseExpect.configure({ timeout: 15_000 });

const email = `upfront-${Date.now()}@example.com`;
const password = 'Upfront-Journey-Passw0rd!';
const profile = { firstName: 'Hedy', lastName: 'Lamarr', company: 'Frequency Hopping Ltd', location: 'Vienna' };
const ANNUAL = 'Annual Subscription — Standard';
const UPFRONT = 'Pay the first 6 months upfront';

type Subscription = {
  status: string;
  plan: { name: string };
  upfrontMonths: number | null;
  startedAt: string;
  periodEnd: string | null;
};

/** A full-page screenshot from the top, so the sticky top bar sits where it belongs. */
async function snap(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await snapPage(page, name);
}

/** The signed-in user's access token, as the SPA keeps it. */
const readAccessToken = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });

/** A date as the SPA writes it (formatDate: 22.11.2026, the browser's local day). */
const asShown = (page: Page, iso: string) =>
  page.evaluate(
    (value) =>
      new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' })
        .format(new Date(value))
        .replaceAll('/', '.'),
    iso,
  );

/** The same day 6 months on, or that month's last day (the SPA's addMonths). */
function sixMonthsFrom(from: Date): Date {
  const result = new Date(from);
  const day = result.getDate();
  result.setDate(1);
  result.setMonth(result.getMonth() + 6);
  result.setDate(Math.min(day, new Date(result.getFullYear(), result.getMonth() + 1, 0).getDate()));
  return result;
}

test('a trial customer buys the annual plan with its first 6 months upfront, by card', async ({ page, request }) => {
  await createConfirmedUser(request, email, password);
  await signIn(page, { email, password, profile });
  await expect(page.getByRole('banner').getByText('Trial')).toBeVisible();
  const accessToken = await readAccessToken(page);

  // Step 1: the plan with the upfront period offers it beside its bundles; the others do not.
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Upgrade/i })
    .click();
  await expect(page.getByRole('table', { name: 'Choose your plan' })).toBeVisible();
  await page.getByRole('button', { name: `Upgrade ${ANNUAL}` }).click();
  const upfront = page.getByRole('checkbox', { name: UPFRONT });
  await expect(upfront).not.toBeChecked();
  await upfront.check();
  await expect(upfront).toBeChecked();
  await snap(page, '62a-upgrade-upfront-plan');
  await expectAccessible(page, '/account-plan/upgrade (upfront period)');
  await page.getByRole('button', { name: 'Continue to summary' }).click();

  // Step 2: the summary prices the 6 months (half the annual fee) and renews yearly at the full fee.
  await expect(page.getByRole('heading', { name: 'Plan summary' })).toBeVisible();
  const row = (label: string) => page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  await expect(row('Upfront cost')).toHaveText('£3,000.00 (first 6 months)');
  await expect(row('Renewal cost')).toHaveText('£6,000.00 per year');
  await expect(row('Total cost')).toHaveText('£3,000.00');
  await expect(row('End or renewal date')).toHaveText(await asShown(page, sixMonthsFrom(new Date()).toISOString()));
  await snap(page, '62b-upgrade-upfront-summary');
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  // Step 3: by card, in the card sandbox.
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await page.getByRole('radio', { name: 'Card' }).check();
  for (const name of [/terms and conditions/, /acceptable use policy/, /privacy policy/]) {
    await page.getByRole('checkbox', { name }).check();
  }
  await page.getByRole('button', { name: 'Continue to card payment' }).click();
  await expect(page.getByRole('heading', { name: 'Card details' })).toBeVisible();
  await expect(page.getByTestId('card-amount')).toHaveText('£3,000.00');
  await useTestCard(page, '4242424242424242');
  await page.getByRole('button', { name: 'Pay £3,000.00' }).click();

  // Step 4: the plan is active, for the 6 months paid.
  await expect(page.getByRole('heading', { name: 'Welcome to the blockchain economy' })).toBeVisible();
  await expect(page.getByRole('banner').getByText(ANNUAL)).toBeVisible();
  const response = await request.get('/api/account-plan/subscription', {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  const active = (await response.json()) as Subscription;
  expect(active).toMatchObject({ status: 'ACTIVE', plan: { name: ANNUAL }, upfrontMonths: 6 });
  const start = new Date(active.startedAt);
  const end = new Date(active.periodEnd!);
  const months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
  expect(months).toBe(6);

  // My account: paid upfront for 6 months, renewing when they end.
  await page.goto('/my-account');
  const plan = page.getByRole('region', { name: /plan/i }).first();
  await expect(plan.getByTestId('plan-name')).toHaveText(ANNUAL);
  await expect(plan.getByText('Active', { exact: true })).toBeVisible();
  const detail = (label: string) => plan.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  await expect(detail('Paid upfront')).toHaveText('6 months');
  await expect(detail('Renews on')).toHaveText(await asShown(page, active.periodEnd!));
  await snap(page, '62c-upfront-plan-active');
});
