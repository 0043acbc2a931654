import type { Locator, Page } from '@playwright/test';
import { expectAccessible, snap } from './support/a11y.ts';
import { expect, test } from './support/fixtures.ts';
import { createConfirmedUser } from './support/identity.ts';
import { signIn, verifyAndActivateTestnet } from './support/journey.ts';

// What a newcomer sees first (issue 11 item 7): the trial credits before Token Flow was ever
// opened, a getting-started checklist ticked from what the account has really done, news that
// does not repeat the carousel, and a cookie banner that does not cover the dashboard.
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const email = `dashboard-${Date.now()}@example.com`;
const password = 'Dashboard-Journey-Passw0rd!';

const checklist = (page: Page) => page.getByRole('region', { name: 'Get started' });
const step = (region: Locator, title: string) =>
  region.getByRole('heading', { level: 3, name: new RegExp(`^${title}`) });

/** Full-page and viewport screenshots at the two widths people look at: a laptop and a phone. */
async function snapWidths(page: Page, name: string) {
  for (const width of [1366, 420]) {
    await page.setViewportSize({ width, height: width === 1366 ? 768 : 860 });
    // The layout settles (menu drawer, grid) before the picture.
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.evaluate('window.scrollTo(0, 0)');
    await snap(page, `${name}-${width}`);
    await page.screenshot({ path: `e2e/screenshots/${name}-${width}-viewport.png` });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('a new user sees the trial credits and an unticked checklist; an application ticks its step', async ({
  page,
  request,
}) => {
  await createConfirmedUser(request, email, password);
  await signIn(page, {
    email,
    password,
    profile: { firstName: 'Grace', lastName: 'Hopper', company: 'Compilers Ltd', location: 'United States' },
  });

  // The trial credits are there on the first visit: Token Flow has never been opened.
  const credits = page.getByRole('region', { name: 'Credits' });
  await expect(credits.getByText('100', { exact: true })).toBeVisible();

  const region = checklist(page);
  await expect(region.getByText('0 of 5 steps done')).toBeVisible();
  for (const title of ['Verify your identity', 'Select networks', 'Register an application']) {
    await expect(step(region, title)).toHaveText(`${title} (not done yet)`);
  }
  await expect(region.getByRole('link', { name: 'Verify identity' })).toHaveAttribute('href', '/quant-flows/kyc');

  // The news card lists what the carousel does not: the seeded fourth update, not the latest three.
  const carousel = page.getByRole('region', { name: 'Latest updates' });
  await expect(carousel.getByRole('group', { name: '1 of 3' })).toBeVisible();
  const news = page.getByRole('region', { name: 'Earlier news' });
  await expect(news.getByRole('heading', { level: 3 })).toHaveText(['Monthly reward campaigns']);
  await expect(carousel.getByText('Monthly reward campaigns')).toHaveCount(0);

  await snapWidths(page, 'dashboard-01-new-user');
  await expectAccessible(page, '/dashboard (new user)');

  await verifyAndActivateTestnet(page);
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(region.getByText('2 of 5 steps done')).toBeVisible();
  await expect(step(region, 'Verify your identity')).toHaveText('Verify your identity (done)');
  await expect(step(region, 'Select networks')).toHaveText('Select networks (done)');

  // The next step is the checklist's primary action, and it leads to the registration.
  await region.getByRole('link', { name: 'Register application' }).click();
  await expect(page).toHaveURL(/\/my-applications\/register-new-application$/);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.getByLabel(/^Application name/).fill('First Steps');
  await page.getByLabel(/^Callback URL/).fill('https://first-steps.example.com/callback');
  await page.getByRole('radio', { name: /^Testnet/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await page.getByRole('button', { name: 'Register application' }).click();
  await expect(page.getByRole('heading', { name: 'First Steps is registered' })).toBeVisible();

  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(region.getByText('3 of 5 steps done')).toBeVisible();
  await expect(step(region, 'Register an application')).toHaveText('Register an application (done)');
  await expect(step(region, 'Make your first gateway call')).toHaveText('Make your first gateway call (not done yet)');
  await snapWidths(page, 'dashboard-02-application-registered');
  await expectAccessible(page, '/dashboard (three steps done)');
});

test('the cookie banner is a bar at the bottom edge that leaves the whole dashboard reachable', async ({
  browser,
  consoleGuard,
}) => {
  // A fresh browser: no consent cookie yet, so the banner shows.
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  consoleGuard.watch(context);
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  const banner = page.getByRole('region', { name: 'Cookies on this portal' });
  await expect(banner).toBeVisible();
  await expect(checklist(page).getByText('3 of 5 steps done')).toBeVisible();

  for (const [width, height] of [
    [1366, 768],
    [420, 860],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate('window.scrollTo(0, 0)');
    const bar = (await banner.boundingBox())!;
    // Along the bottom edge, and a bar rather than a panel over the page.
    expect(Math.round(bar.y + bar.height)).toBe(height);
    expect(bar.height).toBeLessThan(height * (width > 600 ? 0.15 : 0.3));
    await page.screenshot({ path: `e2e/screenshots/dashboard-03-cookie-banner-${width}-viewport.png` });
    await snap(page, `dashboard-03-cookie-banner-${width}`);

    // Scrolled to the end, the footer ends above the banner: nothing is left under it. The platform
    // areas load as they come into view, and the page grows by the rows they bring, so the end is
    // measured once they are there.
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await expect(page.getByRole('group', { name: 'Loading the platform areas' })).toHaveCount(0);
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    const footer = (await page.getByRole('contentinfo').boundingBox())!;
    const barAtEnd = (await banner.boundingBox())!;
    expect(footer.y + footer.height).toBeLessThanOrEqual(barAtEnd.y + 1);
    await page.screenshot({ path: `e2e/screenshots/dashboard-04-cookie-banner-end-${width}-viewport.png` });
  }
  await page.setViewportSize({ width: 1366, height: 768 });
  await expectAccessible(page, '/dashboard (cookie banner)');
  await banner.getByRole('button', { name: 'Necessary only' }).click();
  await expect(banner).toHaveCount(0);
  await context.close();
});

test("the side menu's background runs to the bottom of a long page, with the menu in view", async ({
  page,
  request,
}) => {
  const menuEmail = `dashboard-menu-${Date.now()}@example.com`;
  await createConfirmedUser(request, menuEmail, password);
  await signIn(page, {
    email: menuEmail,
    password,
    profile: { firstName: 'Edsger', lastName: 'Dijkstra', company: 'Structured Ltd', location: 'Netherlands' },
  });
  await page.setViewportSize({ width: 1366, height: 768 });
  await expect(checklist(page).getByText('0 of 5 steps done')).toBeVisible();

  /**
   * What paints the menu's background (the nearest box around the menu with a colour of its own),
   * in page coordinates, and the document's height. A menu fixed to the viewport paints one
   * viewport's height only: a full-page view showed it stopping short.
   */
  const measure = () =>
    page.evaluate(() => {
      let box = document.querySelector('nav[aria-label="Main menu"]');
      while (box && getComputedStyle(box).backgroundColor === 'rgba(0, 0, 0, 0)') box = box.parentElement;
      const painted = box!.getBoundingClientRect();
      return {
        top: Math.round(painted.top + window.scrollY),
        bottom: Math.round(painted.bottom + window.scrollY),
        documentHeight: document.documentElement.scrollHeight,
      };
    });
  const menuLink = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' });

  // The dashboard as it is, then a page made far longer: the background always reaches the bottom.
  for (const extra of [0, 4000]) {
    if (extra)
      await page.evaluate((px) => (document.getElementById('main-content')!.style.minHeight = `${px}px`), extra);
    for (const scroll of ['0', 'document.documentElement.scrollHeight']) {
      await page.evaluate(`window.scrollTo(0, ${scroll})`);
      const { top, bottom, documentHeight } = await measure();
      expect(documentHeight).toBeGreaterThan(Math.max(768, extra));
      expect({ top, bottom }).toEqual({ top: 0, bottom: documentHeight });
      // The menu itself stays on screen while the page scrolls under it.
      await expect(menuLink).toBeInViewport();
    }
    await page.screenshot({ path: `e2e/screenshots/dashboard-05-menu-at-the-bottom-${extra}-viewport.png` });
    await snap(page, `dashboard-05-menu-at-the-bottom-${extra}`);
  }
});

test('Contact Us about a plan keeps the plan asked about clear of the first field', async ({ page, request }) => {
  // A profile with a name: the Name field is filled in and its label floats above the field's
  // border, into the space under the plan line.
  const contactEmail = `dashboard-contact-${Date.now()}@example.com`;
  await createConfirmedUser(request, contactEmail, password);
  await signIn(page, {
    email: contactEmail,
    password,
    profile: { firstName: 'Edsger', lastName: 'Dijkstra', company: 'Structured Ltd', location: 'Netherlands' },
  });
  await page.getByRole('link', { name: 'Upgrade plan' }).first().click();
  await page
    .getByRole('button', { name: /^Contact Us / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Contact Us' });
  await expect(dialog.getByRole('textbox', { name: /^Name/ })).toHaveValue('Edsger Dijkstra');
  const about = (await dialog.getByText(/^About /).boundingBox())!;
  const intro = (await dialog.getByText(/^Tell us what you need/).boundingBox())!;
  const label = (await dialog.locator('label', { hasText: /^Name/ }).boundingBox())!;
  // The plan line belongs to the intro above it, and the first field's label keeps its distance.
  expect(about.y - (intro.y + intro.height)).toBeLessThanOrEqual(8);
  expect(label.y - (about.y + about.height)).toBeGreaterThanOrEqual(12);
  await dialog.screenshot({ path: 'e2e/screenshots/dashboard-06-contact-us-plan.png' });
  await expectAccessible(page, 'Contact Us about a plan');
});
