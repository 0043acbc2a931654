import { test as base, type BrowserContext, type ConsoleMessage, type Page } from '@playwright/test';

// Every journey imports `test` and `expect` from here instead of from @playwright/test:
//
//   import { expect, test } from './support/fixtures.ts';
//
// A console error or warning, or an uncaught exception, on any page of the test's browser context
// fails the test when it ends (issue 11 item 8): a clean console is a product property, and the
// journeys are where every page gets opened. What the product does not cause goes on ALLOWED below
// (every entry says why); what a single test provokes on purpose it declares with
// `consoleGuard.allow(pattern, why)`, so the same message elsewhere still fails.

export { expect } from '@playwright/test';

/** Messages the product does not cause, allowed in every test. Keep it short and justify each. */
const ALLOWED: readonly { pattern: RegExp; why: string }[] = [];

type Problem = { page: string; kind: 'error' | 'warning' | 'pageerror'; text: string; at?: string };

export type ConsoleGuard = {
  /** Allows a message this test provokes on purpose (e.g. a wrong password's 400). */
  allow(pattern: RegExp, why: string): void;
  /** Watches another browser context the test opened itself (browser.newContext()). */
  watch(context: BrowserContext): void;
};

export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ context }, use, testInfo) => {
      const problems: Problem[] = [];
      const allowed: { pattern: RegExp; why: string }[] = [...ALLOWED];
      const watched = new WeakSet<BrowserContext>();

      const watchPage = (page: Page) => {
        page.on('console', (message: ConsoleMessage) => {
          const type = message.type();
          if (type !== 'error' && type !== 'warning') return;
          const { url, lineNumber } = message.location();
          problems.push({
            page: page.url(),
            kind: type,
            text: message.text(),
            at: url ? `${url}:${lineNumber}` : undefined,
          });
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

      await use({ allow: (pattern, why) => allowed.push({ pattern, why }), watch });

      const unexpected = problems.filter(({ text }) => !allowed.some(({ pattern }) => pattern.test(text)));
      if (unexpected.length === 0) return;
      const report = unexpected
        .map(({ page, kind, text, at }) => `[${kind}] ${text}\n    on ${page}${at ? `\n    at ${at}` : ''}`)
        .join('\n');
      await testInfo.attach('console problems', { body: report, contentType: 'text/plain' });
      throw new Error(`The browser console reported ${unexpected.length} error(s) or warning(s):\n${report}`);
    },
    { auto: true },
  ],
});
