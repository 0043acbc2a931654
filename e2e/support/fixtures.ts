import { test as base, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';

// Every journey imports `test` and `expect` from here instead of from @playwright/test:
//
//   import { expect, test } from './support/fixtures.ts';
//
// A console error or warning, or an uncaught exception, on any page of the test's browser context
// fails the test when it ends (issue 11 item 8): a clean console is a product property, and the
// journeys are where every page gets opened. What the product does not cause goes on ALLOWED below
// (every entry says why). A refused request a test provokes on purpose (a wrong password, a
// guard's 409) makes Chromium log "Failed to load resource"; the test declares exactly that one
// with `consoleGuard.allowFailedRequest(status, path, why)`, so the same failure elsewhere, or
// another status or address, still fails.

export { expect } from '@playwright/test';

/** A console error or warning, or an uncaught exception; `source` is where the console says it came from. */
type Problem = { page: string; kind: 'error' | 'warning' | 'pageerror'; text: string; source?: string };
type Allowance = { matches: (problem: Problem) => boolean; why: string };

/** Messages the product does not cause, allowed in every test. Keep it short and justify each. */
const ALLOWED: readonly Allowance[] = [];

export type ConsoleGuard = {
  /**
   * Allows Chromium's "Failed to load resource" report of a request this test makes fail on
   * purpose: the answer's status and the request's path (exact, or a pattern).
   */
  allowFailedRequest(status: number, path: string | RegExp, why: string): void;
  /** Watches another browser context the test opened itself (browser.newContext()). */
  watch(context: BrowserContext): void;
};

function failedRequest(status: number, path: string | RegExp, why: string): Allowance {
  const prefix = `Failed to load resource: the server responded with a status of ${status} `;
  return {
    why,
    matches: ({ kind, text, source }) => {
      if (kind !== 'error' || !text.startsWith(prefix) || !source) return false;
      // For a failed request the source is the request's URL.
      const { pathname } = new URL(source);
      return typeof path === 'string' ? pathname === path : path.test(pathname);
    },
  };
}

export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ context }, use, testInfo) => {
      const problems: Problem[] = [];
      const allowed: Allowance[] = [...ALLOWED];
      const watched = new WeakSet<BrowserContext>();

      const watchPage = (page: Page) => {
        page.on('console', (message: ConsoleMessage) => {
          const type = message.type();
          if (type !== 'error' && type !== 'warning') return;
          const { url } = message.location();
          problems.push({ page: page.url(), kind: type, text: message.text(), ...(url ? { source: url } : {}) });
        });
        page.on('pageerror', (error) => {
          problems.push({ page: page.url(), kind: 'pageerror', text: `${error.name}: ${error.message}` });
        });
      };
      const watch = (ctx: BrowserContext) => {
        if (watched.has(ctx)) return;
        watched.add(ctx);
        ctx.pages().forEach(watchPage);
        ctx.on('page', watchPage);
      };
      watch(context);

      await use({
        allowFailedRequest: (status, path, why) => void allowed.push(failedRequest(status, path, why)),
        watch,
      });

      const unexpected = problems.filter((problem) => !allowed.some(({ matches }) => matches(problem)));
      if (unexpected.length === 0) return;
      const report = unexpected
        .map(
          ({ page, kind, text, source }) => `[${kind}] ${text}\n    on ${page}${source ? `\n    from ${source}` : ''}`,
        )
        .join('\n');
      await testInfo.attach('console problems', { body: report, contentType: 'text/plain' });
      throw new Error(`The browser console reported ${unexpected.length} error(s) or warning(s):\n${report}`);
    },
    { auto: true },
  ],
});
