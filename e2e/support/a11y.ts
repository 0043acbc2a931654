import axe from 'axe-core';
import { expect, type Page } from '@playwright/test';

/** No serious or critical accessibility violations on the page as it is now (issue 3 §7). */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await transitionsEnded(page);
  const { violations } = await runAxe(page);
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

/**
 * axe-core's every rule on the page as it is now, reporting violations only. The page gets axe's
 * source once (it stays until the next navigation), and the rules run in the page itself:
 * @axe-core/playwright injected the 550 kB source into every frame on each call and opened a blank
 * page to assemble the results, 1.9 s a check against 0.25–0.9 s here, for 127 checks a run. Our
 * pages have no frames of their own, which that approach exists for.
 */
async function runAxe(page: Page): Promise<axe.AxeResults> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  return page.evaluate<axe.AxeResults>(`window.axe.run(document, { resultTypes: ['violations'] })`);
}
