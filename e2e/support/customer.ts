import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import type { ConsoleGuard } from './fixtures.ts';
import { createConfirmedUser } from './identity.ts';
import { signIn, type Profile } from './journey.ts';

/**
 * A customer signed up (`<name>-<time>@example.com`) and signed in for the first time with
 * `profile`, in a browser context of their own that the console guard watches, so a staff
 * journey can keep their page open to see what staff change.
 */
export async function newCustomer(
  { request, browser, consoleGuard }: { request: APIRequestContext; browser: Browser; consoleGuard: ConsoleGuard },
  name: string,
  profile: Profile,
): Promise<{ email: string; password: string; context: BrowserContext; page: Page }> {
  const email = `${name}-${Date.now()}@example.com`;
  const password = 'Customer-Journey-Passw0rd!';
  await createConfirmedUser(request, email, password);
  const context = await browser.newContext();
  consoleGuard.watch(context);
  const page = await context.newPage();
  await signIn(page, { email, password, profile });
  return { email, password, context, page };
}
