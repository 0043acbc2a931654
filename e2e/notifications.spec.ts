import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';
import { latestMail } from './support/mailbox.ts';
import { signIn } from './support/journey.ts';

// One user: no notifications, opts in to email, gets verified, sees the bell count, follows the
// notification. The steps depend on each other; signing in and page loads are slow on two busy cores.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const email = `bell-${Date.now()}@example.com`;
const password = 'Bell-Journey-Passw0rd!';
const user = { email, password };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
// The bell asks every NOTIFICATION_POLL_MS (30 s); an event is delivered within seconds of it.
const POLL_WAIT = 45_000;

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const badge = (page: Page) => bell(page).locator('.MuiBadge-badge');
const list = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });
const emailSwitch = (page: Page) => list(page).getByRole('switch', { name: 'Email me my notifications' });

/** The answer to the page's next request of this method and path. */
const answered = (page: Page, method: string, path: string) =>
  page.waitForResponse(
    (response) => new URL(response.url()).pathname === path && response.request().method() === method,
  );

/** A screenshot of the viewport (the popover floats over the top of the page), once it has faded in or out. */
async function shot(page: Page, name: string) {
  if (await list(page).isVisible()) await expect(list(page)).toHaveCSS('opacity', '1');
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

test('a new user has no notifications; the email switch is saved and still on after a reload', async ({
  page,
  request,
}) => {
  await createConfirmedUser(request, email, password);
  await signIn(page, {
    ...user,
    profile: { firstName: 'Nora', lastName: 'Bell', company: 'Bell Labs', location: 'United Kingdom' },
  });

  // Keyboard: Tab from the plan reaches the bell, Enter opens the list, Escape closes it and gives
  // focus back to the bell.
  await expect(bell(page)).toHaveAccessibleName('Notifications, 0 unread');
  await page.getByRole('banner').getByRole('link', { name: 'Upgrade plan' }).focus();
  await page.keyboard.press('Tab');
  await expect(bell(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(list(page)).toBeVisible();
  await expect(list(page).getByText("You're all caught up")).toBeVisible();
  await expect(list(page).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await expect(emailSwitch(page)).not.toBeChecked();
  await shot(page, 'notifications-01-empty-1366');
  await expectAccessible(page, 'notifications (empty)');
  await page.keyboard.press('Escape');
  await expect(list(page)).toBeHidden();
  await expect(bell(page)).toBeFocused();
  await expect(bell(page)).toHaveAttribute('aria-expanded', 'false');

  await page.setViewportSize(PHONE);
  await bell(page).click();
  await expect(list(page).getByText("You're all caught up")).toBeVisible();
  await shot(page, 'notifications-02-empty-phone');

  const saved = answered(page, 'PUT', '/api/connect/notifications/settings');
  await emailSwitch(page).click();
  await expect(emailSwitch(page)).toBeChecked();
  expect((await saved).ok()).toBe(true);
  await page.setViewportSize(DESKTOP);
  await page.reload();
  await bell(page).click();
  await expect(emailSwitch(page)).toBeChecked();
  await page.keyboard.press('Escape');
});

test('a verified identity shows on the bell; opening the notification follows its link and the count drops', async ({
  page,
  request,
}) => {
  await signIn(page, user);

  // Something that notifies: the identity check in the sandbox comes back clear.
  await page.goto('/quant-flows/kyc');
  const verify = page.getByRole('region', { name: 'Verify your identity' });
  await verify.getByRole('button', { name: 'Start verification' }).click();
  const status = page.getByRole('region', { name: 'Your status' });
  await expect(status.getByText('Verified', { exact: true })).toBeVisible({ timeout: 20_000 });

  // The bell's poll picks it up while the user stays on the page.
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread', { timeout: POLL_WAIT });
  await expect(badge(page)).toHaveText('1');
  await shot(page, 'notifications-03-bell-count-1366');
  await page.setViewportSize(PHONE);
  await shot(page, 'notifications-04-bell-count-phone');

  await bell(page).click();
  const item = list(page).getByRole('listitem').first();
  await expect(item).toContainText('Unread');
  await shot(page, 'notifications-05-list-phone');
  await page.keyboard.press('Escape');
  await page.setViewportSize(DESKTOP);

  await bell(page).focus();
  await page.keyboard.press('Enter');
  await expect(list(page).getByRole('listitem')).toHaveCount(1);
  await shot(page, 'notifications-06-list-1366');
  await expectAccessible(page, 'notifications (one unread)');

  // Arrow down to the notification, Enter follows its link; it is read, the badge goes.
  const link = list(page).getByRole('link');
  const href = await link.getAttribute('href');
  expect(href, 'the identity notification links into the portal').toMatch(/^\//);
  await page.keyboard.press('ArrowDown');
  await expect(link).toBeFocused();
  const marked = answered(page, 'POST', '/api/connect/notifications/read');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await expect(list(page)).toBeHidden();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 0 unread');
  await expect(badge(page)).toHaveClass(/MuiBadge-invisible/);
  expect((await marked).ok()).toBe(true);

  // Still read after a reload (the server has it), and the opted-in user got it by email too.
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 0 unread');
  await bell(page).click();
  await expect(list(page).getByRole('listitem').first()).not.toContainText('Unread');
  await snap(page, 'notifications-07-read');
  await latestMail(request, email, 'NOTIFICATION');
});
