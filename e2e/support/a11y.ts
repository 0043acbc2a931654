import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No serious or critical accessibility violations on the page as it is now (issue 3 §7). */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await transitionsEnded(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(blocking, `accessibility of ${label}`).toEqual([]);
}

/**
 * Waits for the page's finite animations and transitions to end: text fading in or out (a
 * snackbar growing, an alert collapsing) has its contrast measured at part opacity, which once
 * failed a check of a page that was fine a moment later. Endless ones (spinners) are not waited for.
 */
export async function transitionsEnded(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ),
    undefined,
    { timeout: 10_000 },
  );
}

/**
 * Saves a full-page screenshot under e2e/screenshots/ (git-ignored) for people to look at. They check
 * nothing, so CI (E2E_SCREENSHOTS=off) takes none: 158 full-page screenshots a run.
 */
export async function snap(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS === 'off') return;
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}
