import type { Page } from '@playwright/test';
import { expectAccessible, snap } from './support/a11y.ts';
import { newCustomer } from './support/customer.ts';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { chooseOption } from './support/journey.ts';
import { adminAccessToken, signInAsAdministrator } from './support/staff.ts';

// Connect Beta end to end (issue 35 §1): a new customer opens Connect Beta, opts in to Bridges and
// the side menu gains the area at once; opting out takes it away; opted in again, the administrator
// finds the account among Bridges' participants, then creates a feature by invitation, invites the
// account by its id (the customer sees the feature), and deletes it again. The steps depend on each other.
test.describe.configure({ mode: 'serial', timeout: 240_000 });
// Two busy cores: pages and the server answer within seconds, not instantly.
const expect = baseExpect.configure({ timeout: 20_000 });

const COMPANY = `Beta Testers ${Date.now() % 100_000} Ltd`;
const INVITE_ONLY = `Early rewards ${Date.now() % 100_000}`;

let customer: Page;
let customerEmail = '';
test.afterAll(async () => {
  await customer?.context().close();
});

const menuOf = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
/** The Flows sub-menu opened, and its Bridge Flow entry (absent without the bridge feature). */
async function bridgeEntry(page: Page) {
  const flows = menuOf(page).getByRole('button', { name: /Flows$/ });
  if ((await flows.getAttribute('aria-expanded')) !== 'true') await flows.click();
  return menuOf(page).getByRole('link', { name: 'Bridge Flow', exact: true });
}

/** The signed-in user's account id, as the server has it (GET /user/{id}). */
const accountIdOf = (page: Page) =>
  page.evaluate(async () => {
    const { localStorage, sessionStorage } = globalThis as unknown as Record<string, Record<string, string>>;
    const token = Object.entries(localStorage!).find(([key]) => key.endsWith('.accessToken'))![1];
    const userId = sessionStorage!.userUuid!;
    const answer = await fetch(`/api/connect/user/${userId}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await answer.json()) as { accountId: string }).accountId;
  });

test('a customer opts in to Bridges and the menu gains it at once; opting out takes it away', async ({
  request,
  browser,
  consoleGuard,
}) => {
  const signedUp = await newCustomer({ request, browser, consoleGuard }, 'beta', {
    firstName: 'Barbara',
    lastName: 'Liskov',
    company: COMPANY,
    location: 'United Kingdom',
  });
  customer = signedUp.page;
  customerEmail = signedUp.email;

  // A new account has no bridge feature: Bridges is a beta to opt in to.
  await expect(await bridgeEntry(customer)).toHaveCount(0);
  await menuOf(customer).getByRole('link', { name: 'Connect Beta', exact: true }).click();
  await expect(customer).toHaveURL(/\/beta\/features$/);
  await expect(customer.getByRole('heading', { level: 1, name: 'Connect Beta' })).toBeVisible();
  const bridges = customer.getByRole('article', { name: 'Bridges' });
  await expect(bridges).toContainText('Move tokens between two networks');
  await expect(bridges.getByText('Open beta')).toBeVisible();
  const optIn = bridges.getByRole('switch', { name: 'Opt in to Bridges' });
  await expect(optIn).not.toBeChecked();
  await snap(customer, 'beta-01-connect-beta');
  await expectAccessible(customer, '/beta/features');

  await optIn.click();
  await expect(customer.getByText('Bridges is on for your account')).toBeVisible();
  await expect(optIn).toBeChecked();
  // No reload: the route list is read again and the menu shows the area (still coming soon).
  await expect(await bridgeEntry(customer)).toBeVisible();
  await expect(await bridgeEntry(customer)).toHaveAccessibleDescription('Coming soon');
  await snap(customer, 'beta-02-opted-in');

  await optIn.click();
  await expect(customer.getByText('Bridges is off for your account')).toBeVisible();
  await expect(optIn).not.toBeChecked();
  await expect(await bridgeEntry(customer)).toHaveCount(0);
  // Read from the server again: the opt-out held.
  await customer.reload();
  await expect(customer.getByRole('switch', { name: 'Opt in to Bridges' })).not.toBeChecked();
  await expect(await bridgeEntry(customer)).toHaveCount(0);

  // In again, for the administrator to find.
  await customer.getByRole('switch', { name: 'Opt in to Bridges' }).click();
  await expect(await bridgeEntry(customer)).toBeVisible();
});

test('the administrator sees the account among Bridges participants and invites it to a new feature', async ({
  page,
  request,
}) => {
  // The portal's copy of the administrator's MFA state is read from the pool (run alone, this spec
  // meets an administrator whose authenticator adminAccessToken has just set up).
  const adminToken = await adminAccessToken(request);
  await request.get('/api/connect/user/mfa-status', { headers: { authorization: `Bearer ${adminToken}` } });
  await signInAsAdministrator(page);
  await menuOf(page).getByRole('link', { name: 'Beta management' }).click();
  await expect(page).toHaveURL(/\/beta-management$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Beta management' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Beta features' });
  const bridgesRow = table.getByRole('row').filter({ hasText: 'Move tokens between two networks' });
  await expect(bridgesRow).toContainText('Open to all');
  await snap(page, 'beta-03-beta-management');
  await expectAccessible(page, '/beta-management');

  await page.getByRole('button', { name: 'Participants of Bridges' }).click();
  const participants = page.getByRole('dialog', { name: 'Participants of Bridges' });
  const row = participants.getByRole('row').filter({ hasText: COMPANY });
  await expect(row).toContainText('Opted in');
  await expect(row).toContainText(customerEmail);
  await snap(page, 'beta-04-participants');
  await expectAccessible(page, '/beta-management, participants');
  await participants.getByRole('button', { name: 'Close' }).click();

  // A feature by invitation: refused empty, then created; nobody takes part yet.
  await page.getByRole('button', { name: 'New beta feature' }).click();
  const create = page.getByRole('dialog', { name: 'New beta feature' });
  await create.getByRole('button', { name: 'Create beta feature' }).click();
  await expect(create.getByText('Please enter a name.')).toBeVisible();
  await create.getByLabel(/^Name/).fill(INVITE_ONLY);
  await create.getByLabel(/^Description/).fill('Earn QNT for what you build, before everyone else.');
  await chooseOption(page, /^Switches on/, 'Rewards (reward)');
  await chooseOption(page, /^Access/, 'By invitation');
  await snap(page, 'beta-05-new-feature');
  await create.getByRole('button', { name: 'Create beta feature' }).click();
  await expect(page.getByText(`${INVITE_ONLY} created`)).toBeVisible();

  await page.getByRole('button', { name: `Participants of ${INVITE_ONLY}` }).click();
  const invited = page.getByRole('dialog', { name: `Participants of ${INVITE_ONLY}` });
  await expect(invited.getByText('No account has opted in or been invited yet.')).toBeVisible();
  await snap(page, 'beta-06-participants-empty');
  await invited.getByLabel('Account id').fill(await accountIdOf(customer));
  await invited.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText('Account invited')).toBeVisible();
  await expect(invited.getByRole('row').filter({ hasText: COMPANY })).toContainText('Invited');
  await invited.getByRole('button', { name: 'Close' }).click();

  // The customer now sees it, by invitation.
  await customer.reload();
  const early = customer.getByRole('article', { name: INVITE_ONLY });
  await expect(early.getByText('By invitation')).toBeVisible();
  await expect(early.getByText('You were invited to try this feature.')).toBeVisible();
  await snap(customer, 'beta-07-invited');

  // Deleted after a confirmation naming it: the customer no longer sees it.
  await page.getByRole('button', { name: `Delete ${INVITE_ONLY}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${INVITE_ONLY}?` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${INVITE_ONLY} deleted`)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: INVITE_ONLY })).toHaveCount(0);
  await customer.reload();
  await expect(customer.getByRole('article', { name: 'Bridges' })).toBeVisible();
  await expect(customer.getByRole('article', { name: INVITE_ONLY })).toHaveCount(0);

  // For the eye only: the page when there is nothing to try (every deployment lists Bridges).
  await customer.route('**/api/connect/beta/features', (route) => route.fulfill({ json: { features: [] } }));
  await customer.reload();
  await expect(customer.getByRole('heading', { name: 'No beta features right now' })).toBeVisible();
  await snap(customer, 'beta-08-empty');
  await expectAccessible(customer, '/beta/features, empty');
  await customer.unroute('**/api/connect/beta/features');
});
