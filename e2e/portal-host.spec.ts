import { expect as baseExpect, test } from './support/fixtures.ts';
import { signIn } from './support/journey.ts';
import { latestMail } from './support/mailbox.ts';

// Two busy cores: password hashing and the captcha's proof of work take seconds.
const expect = baseExpect.configure({ timeout: 20_000 });

// Issue 11 item 6. The journeys' server runs without PUBLIC_URL (playwright.config.ts), so it
// names itself http://localhost:<port>, while every page is opened at http://127.0.0.1:<port>: the
// address a LAN user or a proxy without PUBLIC_URL would see. Sign-up and sign-in must still reach
// the identity pool, on the origin the page was opened at.
test('the portal opened at another host than the server names itself signs up and signs in', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const email = `host-${Date.now()}@example.com`;
  const password = 'Host-Passw0rd!';

  const runtime = (await (await request.get('/runtime-config.json')).json()) as {
    identity: { userPoolEndpoint?: string };
  };
  expect(runtime.identity.userPoolEndpoint).toBe('/idp');

  await page.goto('/register');
  expect(new URL(page.url()).hostname).toBe('127.0.0.1');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByText("I'm not a robot").click();
  await expect(page.getByText('Verified')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('checkbox', { name: /I accept the/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/register\/confirmation/);

  const { code } = await latestMail(request, email, 'SIGN_UP_CODE');
  await page.getByLabel('Verification code').fill(code!);
  await page.getByRole('button', { name: 'Confirm email' }).click();
  await expect(page).toHaveURL(/\/register\/confirmed/);

  await signIn(page, {
    email,
    password,
    profile: { firstName: 'Grace', lastName: 'Hopper', company: 'Host Checks Ltd', location: 'United States' },
  });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // The tokens name the server's own address (PUBLIC_URL's default), not the one the page was
  // opened at: the two really differ in this test.
  const accessToken = await page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: Record<string, string> }).localStorage;
    return Object.entries(storage).find(([name]) => name.endsWith('.accessToken'))![1];
  });
  const { iss: issuer } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as {
    iss: string;
  };
  expect(new URL(issuer).hostname).toBe('localhost');
});
