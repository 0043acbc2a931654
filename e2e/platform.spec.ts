import { expect as baseExpect, test } from './support/fixtures.ts';

// The machine is shared with other work: give each step room, the behaviour asserted is the same.
const expect = baseExpect.configure({ timeout: 20_000 });

test('deep links are served by the SPA (history-mode fallback) and unknown paths go to /404', async ({
  page,
  request,
}) => {
  const deep = await request.get('/my-applications/register-new-application');
  expect(deep.status()).toBe(200);
  expect(await deep.text()).toContain('<div id="root">');
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: '404 Page Not Found!' })).toBeVisible();
  await page.goto('/not-found');
  await expect(page.getByRole('heading', { name: '404 Page Not Found!' })).toBeVisible();
});

test('the root and /upgrade redirect as the spec says', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  // /upgrade → /account-plan/upgrade, which needs a session: a visitor lands on /login.
  await page.goto('/upgrade');
  await expect(page).toHaveURL(/\/login$/);
});

test('the API reference opens', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.getByText('Quant Connect API')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/30-api-docs.png' });
});

test('the strict CSP lets the SPA run without violations', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByText("I'm not a robot").click();
  await expect(page.getByText('Verified')).toBeVisible({ timeout: 60_000 });
  expect(violations).toEqual([]);
});
