import { test as base, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';

// Every journey imports `test` and `expect` from here instead of from @playwright/test:
//
//   import { expect, test } from './support/fixtures.ts';
//
// A console error or warning, or an uncaught exception, on any page of the test's browser context
// fails the test when it ends (issue 11 item 8): a clean console is a product property, and the
// journeys are where every page gets opened. What the product does not cause goes on ALLOWED below
// (every entry says why). A failure a test provokes on purpose (a wrong password, a guard's 409, a
// server stopped mid-journey) makes Chromium log "Failed to load resource"; the test declares
// exactly that one with `consoleGuard.allowFailedRequest(status, path, why)`, and a message the
// product logs about such a provoked failure (spec §8's internal messages) with
// `consoleGuard.allowMessage(kind, text, why)`. The same message in another test still fails.

export { expect } from '@playwright/test';

/** A console error or warning, or an uncaught exception; `source` is where the console says it came from. */
type Problem = { page: string; kind: 'error' | 'warning' | 'pageerror'; text: string; source?: string };
type Allowance = { matches: (problem: Problem) => boolean; why: string };

/** Messages the product does not cause, allowed in every test. Keep it short and justify each. */
const ALLOWED: readonly Allowance[] = [];

export type ConsoleGuard = {
  /**
   * Allows Chromium's "Failed to load resource" report of a request this test makes fail on
   * purpose: the answer's status (or Chromium's network error, e.g. `net::ERR_CONNECTION_REFUSED`)
   * and the request's path (exact, or a pattern).
   */
  allowFailedRequest(status: number | `net::${string}`, path: string | RegExp, why: string): void;
  /** Allows a message the product logs about a failure this test provokes (exact text, or a pattern). */
  allowMessage(kind: 'error' | 'warning', text: string | RegExp, why: string): void;
  /** Watches another browser context the test opened itself (browser.newContext()). */
  watch(context: BrowserContext): void;
};

const matchesText = (expected: string | RegExp, actual: string) =>
  typeof expected === 'string' ? actual === expected : expected.test(actual);

function failedRequest(status: number | `net::${string}`, path: string | RegExp, why: string): Allowance {
  const prefix =
    typeof status === 'number'
      ? `Failed to load resource: the server responded with a status of ${status} `
      : `Failed to load resource: ${status}`;
  return {
    why,
    matches: ({ kind, text, source }) => {
      if (kind !== 'error' || !text.startsWith(prefix) || !source) return false;
      // For a failed request the source is the request's URL.
      const { pathname } = new URL(source);
      return matchesText(path, pathname);
    },
  };
}

function message(kind: 'error' | 'warning', text: string | RegExp, why: string): Allowance {
  return { why, matches: (problem) => problem.kind === kind && matchesText(text, problem.text) };
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
        allowMessage: (kind, text, why) => void allowed.push(message(kind, text, why)),
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
