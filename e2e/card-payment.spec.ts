import type { APIRequestContext, Page } from '@playwright/test';
import { expectAccessible, snap as snapPage } from './support/a11y.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { useTestCard } from './support/card-sandbox.ts';
import { createConfirmedUser } from './support/identity.ts';
import { signIn, verifyAndActivateTestnet } from './support/journey.ts';
import { deployPlatformToken } from './support/platform-tokens.ts';

// Card payments (issue 16) through the real card form against the embedded card sandbox, which
// answers Stripe's API with Stripe's test cards. A trial customer upgrades to the annual plan by
// card: a declined card, an authentication that fails, then one that completes; the card is saved
// and later buys credits. A second customer takes pay as you go with a card whose charges are all
// declined, uses credits on credit, and the development clock runs the month end: the bill's
// charge fails, is mailed and shown in My account with Pay now; the customer replaces the card and
// pays. Each customer's steps depend on each other (a serial group each); the two are independent.
test.describe.configure({ timeout: 180_000 });
// Two busy cores: pages, the sandbox's redirects and the settlement answer within seconds.
const expect = baseExpect.configure({ timeout: 15_000 });

const password = 'Card-Journey-Passw0rd!';
const ANNUAL = 'Annual Subscription — Standard';
const PAYG = 'Pay as you go — Standard';

/** Stripe's test cards, as the sandbox knows them. */
const CARDS = {
  visa: '4242424242424242',
  authentication: '4000002500003155',
  declined: '4000000000000002',
  chargeDeclined: '4000000000000341',
} as const;

const annual = {
  email: `card-annual-${Date.now()}@example.com`,
  profile: { firstName: 'Katherine', lastName: 'Johnson', company: 'Orbital Mechanics Ltd', location: 'London' },
  accessToken: '',
  orderReference: '',
};
const payg = {
  email: `card-payg-${Date.now()}@example.com`,
  profile: { firstName: 'Dorothy', lastName: 'Vaughan', company: 'Fortran Services Ltd', location: 'Leeds' },
  accessToken: '',
  billReference: '',
};

type Order = { id: string; reference: string; status: string; kind: string; totalGbpMinor: number };
type Subscription = {
  status: string;
  statusReason: string | null;
  plan: { name: string };
  periodEnd: string | null;
  pendingOrder: Order | null;
  openOrders: Order[];
  credits: { available: number; balance: number; floor: number };
};
type Mail = { kind: string; subject: string; text: string };

/** A full-page screenshot from the top, so the sticky top bar sits where it belongs. */
async function snap(page: Page, name: string) {
  // The pointer out of the way: after the scroll it would hover whatever is now under it (a tooltip).
  await page.mouse.move(0, 0);
  await page.evaluate(() => (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0));
  await snapPage(page, name);
}

/** A dialog as the user sees it: the viewport only (a full-page shot leaves the page below the fold undimmed). */
async function snapDialog(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

/** The signed-in user's access token, as the SPA keeps it. */
const readAccessToken = (page: Page) =>
  page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });

const asUser = (accessToken: string) => ({
  authorization: `Bearer ${accessToken}`,
  'content-type': 'application/json',
});

async function subscription(request: APIRequestContext, accessToken: string): Promise<Subscription> {
  const response = await request.get('/api/account-plan/subscription', { headers: asUser(accessToken) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Subscription;
}

async function trackOrder(request: APIRequestContext, accessToken: string, orderId: string): Promise<Order> {
  const response = await request.post('/api/account-plan/order/track', {
    headers: asUser(accessToken),
    data: JSON.stringify({ orderId }),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Order;
}

/** The mail to `to` whose subject matches, from the dev mailbox (it goes out after the event's commit). */
async function mailWithSubject(request: APIRequestContext, to: string, subject: string | RegExp): Promise<Mail> {
  const matches = (candidate: string) =>
    typeof subject === 'string' ? candidate === subject : subject.test(candidate);
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        const { messages } = (await response.json()) as { messages: Mail[] };
        found = messages.find((message) => matches(message.subject));
        return Boolean(found);
      },
      { message: `a mail to ${to} with the subject ${String(subject)}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The card form's fields, as a customer types into them. */
async function typeCard(page: Page, number: string) {
  await page.getByRole('textbox', { name: 'Card number' }).fill(number);
  await page.getByRole('textbox', { name: 'Expiry date' }).fill('12 / 34');
  await page.getByRole('textbox', { name: 'Security code (CVC)' }).fill('123');
}

/**
 * From the top bar's Upgrade link through plan selection and summary to the payment step with
 * Card chosen (`byCard`; a plan with nothing to pay now offers the summary's methods for its
 * month-end bills, Card first and chosen, and never asks whether to keep the card) and the
 * policies accepted.
 */
async function openPaymentByCard(
  page: Page,
  planName: string,
  options: { byCard: boolean; snap: string; note: string; continueLabel?: string },
) {
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Upgrade/i })
    .click();
  await expect(page).toHaveURL(/\/account-plan\/upgrade$/);
  await expect(page.getByRole('table', { name: 'Choose your plan' })).toBeVisible();
  await page.getByRole('button', { name: `Upgrade ${planName}` }).click();
  await page.getByRole('button', { name: 'Continue to summary' }).click();
  await expect(page.getByRole('heading', { name: 'Plan summary' })).toBeVisible();
  if (!options.byCard) {
    // Nothing to pay now: the plan starts at once, and spec §9's help text on credits.
    await expect(page.getByText('Your new plan starts now.')).toBeVisible();
    await expect(
      page.getByText(
        'Pay-as-you-go credits are billed at the end of each month, at most $1.20 per credit in QNT and $1.21 including VAT.',
      ),
    ).toBeVisible();
    await snap(page, `${options.snap}-summary`);
  }
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  const card = page.getByRole('radio', { name: 'Card' });
  const keepCard = page.getByRole('checkbox', { name: 'Keep this card for renewals and month-end bills' });
  if (options.byCard) {
    await card.check();
    // A checkout keeps the card for the renewals unless the customer says otherwise.
    await expect(keepCard).toBeChecked();
  } else {
    await expect(card).toBeChecked();
    await expect(keepCard).toHaveCount(0);
  }
  for (const name of [/terms and conditions/, /acceptable use policy/, /privacy policy/]) {
    await page.getByRole('checkbox', { name }).check();
  }
  await expect(page.getByText(options.note)).toBeVisible();
  await snap(page, options.snap);
  await expectAccessible(page, `/account-plan/upgrade (payment step, ${planName})`);
  await page.getByRole('button', { name: options.continueLabel ?? 'Continue to card payment' }).click();
}

test.describe('the annual plan paid by card', () => {
  test.describe.configure({ mode: 'serial' });

  test('a declined card, then an authentication that fails, then one that completes: the plan is active', async ({
    page,
    request,
  }) => {
    await createConfirmedUser(request, annual.email, password);
    await signIn(page, { email: annual.email, password, profile: annual.profile });
    await expect(page.getByRole('banner').getByText('Trial')).toBeVisible();
    annual.accessToken = await readAccessToken(page);

    await openPaymentByCard(page, ANNUAL, {
      byCard: true,
      snap: '79-card-payment-step',
      note: 'You enter your card details on the next step. Nothing is charged until you confirm the payment.',
    });

    // The card form of the sandbox: its chip, the amount and the form.
    await expect(page.getByRole('heading', { name: 'Card details' })).toBeVisible();
    await expect(page.getByRole('main').getByText('Sandbox', { exact: true })).toBeVisible();
    await expect(page.getByTestId('card-amount')).toHaveText('£6,000.00');
    await expect(page.getByRole('button', { name: 'Pay £6,000.00' })).toBeEnabled();
    await snap(page, '80-card-form');
    await expectAccessible(page, '/account-plan/upgrade (card form)');

    // The order waits for its payment: the plan is PENDING.
    const pending = await subscription(request, annual.accessToken);
    expect(pending.status).toBe('PENDING');
    expect(pending.pendingOrder).toMatchObject({ status: 'AWAITING_PAYMENT', ratePlan: { name: ANNUAL } });
    const orderId = pending.pendingOrder!.id;
    annual.orderReference = pending.pendingOrder!.reference;

    // Left before the card is entered: the upgrade page shows the order with Resume payment and
    // Cancel order (confirmed first), instead of sending the customer to the dashboard.
    await page.goto('/dashboard');
    await page.goto('/account-plan/upgrade');
    await expect(page).toHaveURL(/\/account-plan\/upgrade$/);
    const waiting = page.getByRole('region', { name: 'Order awaiting payment' });
    await expect(waiting).toContainText(annual.orderReference);
    await expect(waiting).toContainText(ANNUAL);
    await expect(waiting).toContainText('£6,000.00');
    await expect(waiting.getByRole('button', { name: 'Resume payment' })).toBeVisible();
    await snap(page, '80a-card-order-awaiting-payment');
    await expectAccessible(page, '/account-plan/upgrade (order awaiting payment)');
    await waiting.getByRole('button', { name: 'Cancel order' }).click();
    const confirmCancel = page.getByRole('dialog', { name: `Cancel order ${annual.orderReference}?` });
    await expect(confirmCancel).toBeVisible();
    await snapDialog(page, '80b-card-order-cancel-dialog');
    await confirmCancel.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(confirmCancel).toBeHidden();
    expect((await trackOrder(request, annual.accessToken, orderId)).status).toBe('AWAITING_PAYMENT');
    await waiting.getByRole('button', { name: 'Resume payment' }).click();
    await expect(page.getByRole('heading', { name: 'Card details' })).toBeVisible();
    await expect(page.getByTestId('card-amount')).toHaveText('£6,000.00');

    const testCards = page.getByRole('button', { name: 'Test cards' });
    await testCards.click();
    await expect(page.getByRole('button', { name: 'Use test card 4242 4242 4242 4242' })).toBeVisible();
    // The list it opens, once it has finished unfolding.
    const list = page.locator(`[id="${await testCards.getAttribute('aria-controls')}"]`);
    await expect(list).toHaveClass(/MuiCollapse-entered/);
    await snap(page, '81-card-test-cards');
    await expectAccessible(page, '/account-plan/upgrade (test cards)');

    // A declined card: the reason and the advice, and the form stays for another card.
    await typeCard(page, CARDS.declined);
    await page.getByRole('button', { name: 'Pay £6,000.00' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'Payment has failed' });
    await expect(failure).toBeVisible();
    await expect(failure).toContainText('Please check your card details and try again, or use another card.');
    await expect(failure).toBeFocused();
    await expect(page).toHaveURL(/\/account-plan\/upgrade$/);
    await expect(page.getByRole('textbox', { name: 'Card number' })).toBeEnabled();
    await snap(page, '82-card-declined');
    await expectAccessible(page, '/account-plan/upgrade (card declined)');
    expect((await trackOrder(request, annual.accessToken, orderId)).status).toBe('AWAITING_PAYMENT');

    // The authentication card: the sandbox's authentication page, where the customer fails it.
    await useTestCard(page, CARDS.authentication);
    await expect(failure).toBeHidden();
    await page.getByRole('button', { name: 'Pay £6,000.00' }).click();
    await expect(page).toHaveURL(/\/card-sandbox\/authenticate\?/);
    await expect(page.getByRole('heading', { name: 'Authenticate this payment' })).toBeVisible();
    await expect(page.getByRole('main').getByText('Sandbox', { exact: true })).toBeVisible();
    await expect(page.getByTestId('authentication-amount')).toHaveText('£6,000.00');
    await snap(page, '83-card-authentication');
    await expectAccessible(page, '/card-sandbox/authenticate');
    await page.getByRole('button', { name: 'Fail authentication' }).click();

    await expect(page).toHaveURL(/\/account-plan\/upgrade/);
    await expect(page.getByRole('heading', { name: 'Payment has failed' })).toBeVisible();
    await expect(
      page.getByText(
        'We are unable to authenticate your payment method. Please check your card details and try again, or use another card.',
      ),
    ).toBeVisible();
    const tryAnother = page.getByRole('button', { name: 'Try another card' });
    await expect(tryAnother).toBeVisible();
    // The query is taken out of the address once the outcome is shown.
    await expect(page).toHaveURL(/\/account-plan\/upgrade$/);
    await snap(page, '84-card-authentication-failed');
    await expectAccessible(page, '/account-plan/upgrade (authentication failed)');
    expect((await trackOrder(request, annual.accessToken, orderId)).status).toBe('AWAITING_PAYMENT');

    // Again, and this time the customer completes the authentication.
    await tryAnother.click();
    await expect(page.getByRole('heading', { name: 'Card details' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pay £6,000.00' })).toBeEnabled();
    await useTestCard(page, CARDS.authentication);
    await page.getByRole('button', { name: 'Pay £6,000.00' }).click();
    await expect(page).toHaveURL(/\/card-sandbox\/authenticate\?/);
    // The return to the upgrade page, with the intent in the query as Stripe sends it.
    const returned = page.waitForRequest(
      (candidate) =>
        candidate.isNavigationRequest() && /\/account-plan\/upgrade\?.*payment_intent=pi_/.test(candidate.url()),
    );
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    const returnUrl = new URL((await returned).url());
    expect(returnUrl.searchParams.get('redirect_status')).toBe('succeeded');
    expect(returnUrl.searchParams.get('payment_intent_client_secret')).toMatch(/^pi_.+_secret_/);

    await expect(page.getByRole('heading', { name: 'Welcome to the blockchain economy' })).toBeVisible();
    await expect(page.getByText(new RegExp(`${ANNUAL}`)).first()).toBeVisible();
    await expect(page).toHaveURL(/\/account-plan\/upgrade$/);
    const banner = page.getByRole('banner');
    await expect(banner.getByText(ANNUAL)).toBeVisible();
    await expect(banner.getByRole('button', { name: /Pending/i })).toHaveCount(0);
    await snap(page, '85-card-success');
    await expectAccessible(page, '/account-plan/upgrade (card success)');

    const paid = await trackOrder(request, annual.accessToken, orderId);
    expect(paid.status).toBe('PAID');
    expect((await subscription(request, annual.accessToken)).status).toBe('ACTIVE');
  });

  test('My account shows the plan active and the saved card; the paid email is in the mailbox', async ({
    page,
    request,
  }) => {
    await signIn(page, { email: annual.email, password });
    await page.goto('/my-account');
    const plan = page.getByRole('region', { name: /plan/i }).first();
    await expect(plan.getByTestId('plan-name')).toHaveText(ANNUAL);
    await expect(plan.getByText('Active', { exact: true })).toBeVisible();
    // Paid: no order waits for its payment.
    await expect(page.getByRole('region', { name: 'Order awaiting payment' })).toHaveCount(0);
    const card = page.getByRole('region', { name: 'Payment card' });
    await expect(card.getByTestId('saved-card')).toHaveText('Visa •••• 3155');
    await expect(card.getByText('Sandbox', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Replace card' })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await snap(page, '86-card-my-account-saved');
    await expectAccessible(page, '/my-account (saved card)');

    const mail = await mailWithSubject(request, annual.email, `Order ${annual.orderReference}: your plan is active`);
    expect(mail.text).toContain(`We received £6,000.00 for order ${annual.orderReference}.`);
    expect(mail.text).toContain(`Your plan ${ANNUAL} is active from`);
  });

  test('credits bought from My account by card with 4242 are added at once', async ({ page, request }) => {
    await signIn(page, { email: annual.email, password });
    await page.goto('/my-account');
    const available = page.getByTestId('credits-available');
    await expect(available).toBeVisible();
    const before = (await subscription(request, annual.accessToken)).credits.available;

    await page.getByRole('button', { name: 'Buy credits' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: /^1,000 credits/ }).check();
    await dialog.getByRole('radio', { name: 'Card' }).check();
    for (const name of [/terms and conditions/i, /acceptable use policy/i, /privacy policy/i]) {
      await dialog.getByRole('checkbox', { name }).check();
    }
    await snapDialog(page, '87-card-buy-credits');
    await expectAccessible(page, '/my-account (buy credits by card)');
    await dialog.getByRole('button', { name: /Place order|Buy/ }).click();

    // The order placed, then the card form for it.
    await expect(dialog.getByText('Sandbox', { exact: true })).toBeVisible();
    const pay = dialog.getByRole('button', { name: /^Pay £/ });
    await expect(pay).toBeEnabled();
    await useTestCard(page, CARDS.visa);
    await snapDialog(page, '88-card-buy-credits-form');
    await expectAccessible(page, '/my-account (buy credits, card form)');
    await pay.click();

    // Back on My account: the payment confirmed, the credits added, and no order left waiting.
    await expect(page.getByText('Payment received')).toBeVisible();
    await expect(page).toHaveURL(/\/my-account$/);
    await expect(available).toHaveText(`${(before + 1_000).toLocaleString('en-GB')} credits`);
    expect((await subscription(request, annual.accessToken)).credits.available).toBe(before + 1_000);
    await expect(page.getByRole('region', { name: 'Order awaiting payment' })).toHaveCount(0);
    await snap(page, '89-card-credits-added');
    await mailWithSubject(request, annual.email, /: your credits are added$/);
  });
});

test.describe('pay as you go with a monthly charge', () => {
  test.describe.configure({ mode: 'serial' });

  test('a customer takes pay as you go and saves a card whose charges are declined', async ({ page, request }) => {
    await createConfirmedUser(request, payg.email, password);
    await signIn(page, { email: payg.email, password, profile: payg.profile });
    payg.accessToken = await readAccessToken(page);

    await openPaymentByCard(page, PAYG, {
      byCard: false,
      snap: '90-card-payg-payment-step',
      note: 'Nothing to pay now: the credits you use are billed at the end of each month to the card you add on the next step.',
      continueLabel: 'Place order',
    });
    // Nothing to pay now: the card is saved with a SetupIntent for the month-end bills.
    await expect(page.getByRole('heading', { name: 'Card details' })).toBeVisible();
    await expect(page.getByText(/Nothing to pay now: add the card your month-end bills are charged to/)).toBeVisible();
    await expect(page.getByTestId('card-amount')).toHaveCount(0);
    await useTestCard(page, CARDS.chargeDeclined);
    await snap(page, '91-card-payg-setup');
    await expectAccessible(page, '/account-plan/upgrade (pay as you go, save card)');
    const returned = page.waitForRequest(
      (candidate) =>
        candidate.isNavigationRequest() && /\/account-plan\/upgrade\?.*setup_intent=seti_/.test(candidate.url()),
    );
    await page.getByRole('button', { name: 'Save card' }).click();
    await returned;
    await expect(page.getByRole('heading', { name: 'Welcome to the blockchain economy' })).toBeVisible();
    await expect(page.getByRole('banner').getByText(PAYG)).toBeVisible();
    await snap(page, '92-card-payg-success');

    const current = await subscription(request, payg.accessToken);
    expect(current).toMatchObject({ status: 'ACTIVE', plan: { name: PAYG } });
  });

  test('credits used on credit are billed at month end; the charge fails, is mailed and shown with Pay now', async ({
    page,
    request,
  }) => {
    await signIn(page, { email: payg.email, password });
    await verifyAndActivateTestnet(page);
    const before = (await subscription(request, payg.accessToken)).credits.balance;
    // Four QRC20 vari tokens deployed by the platform: 120 credits, below zero.
    for (const n of [1, 2, 3, 4]) {
      await deployPlatformToken(request, payg.accessToken, { tier: 'vari', n, label: 'Metered Points' });
    }
    await expect
      .poll(async () => (await subscription(request, payg.accessToken)).credits.balance, {
        message: 'the four deployments charged',
        timeout: 60_000,
      })
      .toBe(before - 120);
    const used = await subscription(request, payg.accessToken);
    expect(used.credits.balance).toBeLessThan(0);

    // The period closed now (the development close): the month's invoice and the USAGE order that
    // collects it; then the development clock runs the saved card's charge, which fails.
    const closed = await request.post('/api/dev/billing/close-period', {
      headers: { 'content-type': 'application/json' },
      data: JSON.stringify({}),
    });
    expect(closed.status(), await closed.text()).toBe(200);
    const run = await request.post('/api/dev/billing/run', {
      headers: { 'content-type': 'application/json' },
      data: JSON.stringify({ at: new Date(Date.now() + 60_000).toISOString() }),
    });
    expect(run.status(), await run.text()).toBe(200);
    const ran = (await run.json()) as { charges: { failed: number } };
    // The plan's period does not roll while its month's bill waits for payment.
    expect(ran.charges.failed).toBeGreaterThanOrEqual(1);

    const billed = await subscription(request, payg.accessToken);
    const bill = [billed.pendingOrder, ...billed.openOrders].find((order) => order?.kind === 'USAGE')!;
    expect(bill, JSON.stringify(billed)).toBeTruthy();
    payg.billReference = bill.reference;
    expect(billed.status).toBe('ACTIVE');
    expect(billed.statusReason).toBe('RENEWAL_DUE');

    const mail = await mailWithSubject(request, payg.email, `Payment has failed: order ${bill.reference}`);
    expect(mail.text).toContain('The card provider said: Your card was declined.');
    expect(mail.text).toContain('Please check your card details and try again, or use another card.');

    await page.goto('/my-account');
    // The bill waits for its payment; the plan stays active meanwhile.
    await expect(page.getByTestId('plan-status-reason')).toHaveText(
      "Your plan is active. Last month's bill is waiting for its payment.",
    );
    const waiting = page.getByRole('region', { name: 'Order awaiting payment' });
    await expect(waiting).toContainText(bill.reference);
    await expect(waiting).toContainText('Month-end bill for the credits used');
    // Paid, never withdrawn: it is for credits already used.
    await expect(waiting.getByRole('button', { name: 'Pay by card' })).toBeVisible();
    await expect(waiting.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
    const card = page.getByRole('region', { name: 'Payment card' });
    await expect(card.getByTestId('saved-card')).toHaveText('Visa •••• 0341');
    const failed = card.getByRole('alert').filter({ hasText: 'Payment has failed' });
    await expect(failed).toBeVisible();
    await expect(failed).toContainText(bill.reference);
    await expect(failed).toContainText('Attempts so far');
    await expect(failed).toContainText('Next attempt');
    await expect(failed.getByRole('button', { name: 'Pay now' })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await snap(page, '93-card-charge-failed');
    await expectAccessible(page, '/my-account (failed charge)');
  });

  test('the customer replaces the card and pays the bill now; the plan is in good standing', async ({
    page,
    request,
  }) => {
    await signIn(page, { email: payg.email, password });
    await page.goto('/my-account');
    const card = page.getByRole('region', { name: 'Payment card' });
    await card.getByRole('button', { name: 'Replace card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace your card' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Sandbox', { exact: true })).toBeVisible();
    await useTestCard(page, CARDS.visa);
    await snapDialog(page, '94-card-replace-dialog');
    await expectAccessible(page, '/my-account (replace card)');
    await dialog.getByRole('button', { name: 'Save card' }).click();

    await expect(page.getByText('Card saved')).toBeVisible();
    await expect(card.getByTestId('saved-card')).toHaveText('Visa •••• 4242');
    const failed = card.getByRole('alert').filter({ hasText: 'Payment has failed' });
    await expect(failed).toBeVisible();
    await failed.getByRole('button', { name: 'Pay now' }).click();
    await expect(card.getByText('Payment received')).toBeVisible();
    await expect(failed).toHaveCount(0);
    await expect(page.getByTestId('plan-status-reason')).toHaveText('Your plan is active.');
    await expect(page.getByRole('region', { name: 'Order awaiting payment' })).toHaveCount(0);
    await card.scrollIntoViewIfNeeded();
    await snap(page, '95-card-bill-paid');
    await expectAccessible(page, '/my-account (bill paid)');

    const paid = await subscription(request, payg.accessToken);
    expect(paid).toMatchObject({ status: 'ACTIVE', plan: { name: PAYG } });
    expect(paid.statusReason).not.toBe('RENEWAL_DUE');
    expect([paid.pendingOrder, ...paid.openOrders].filter((order) => order?.kind === 'USAGE')).toEqual([]);
    await mailWithSubject(request, payg.email, `Order ${payg.billReference}: your monthly bill is paid`);

    await page.goto('/dashboard');
    await expect(page.getByRole('banner').getByText(PAYG)).toBeVisible();
    const planCard = page.getByRole('region', { name: /your plan/i });
    await expect(planCard.getByText(PAYG)).toBeVisible();
    await expect(planCard.getByText('Active', { exact: true })).toBeVisible();
    await snap(page, '96-card-dashboard-paid');
  });
});
