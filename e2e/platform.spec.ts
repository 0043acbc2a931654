import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test('the platform status page shows a healthy deployment with its services', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Quant Connect' })).toBeVisible();
  await expect(page).toHaveTitle('Platform status | Quant Connect');
  await expect(page.getByText('Operational')).toBeVisible();
  await expect(page.getByText('Up (embedded PGlite)')).toBeVisible();
  for (const service of [
    'connect',
    'integrate',
    'account-plan',
    'application-manager',
    'tokenise',
    'bridge',
    'payment',
    'campaign',
  ]) {
    await expect(page.getByText(`/api/${service}`, { exact: true })).toBeVisible();
  }
  await page.screenshot({ path: 'e2e/screenshots/platform-status.png', fullPage: true });
  const accessibility = await new AxeBuilder({ page }).analyze();
  expect(accessibility.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('a deep link is served by the SPA (history-mode fallback) and the API docs open', async ({ page, request }) => {
  const deep = await request.get('/my-applications/register-new-application');
  expect(deep.status()).toBe(200);
  expect(await deep.text()).toContain('<div id="root">');
  await page.goto('/api/docs');
  await expect(page.getByText('Quant Connect API')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/api-docs.png' });
});

test('the strict CSP lets the SPA run without violations', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(violations).toEqual([]);
});
