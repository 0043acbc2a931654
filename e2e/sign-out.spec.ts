import { randomUUID } from 'node:crypto';
import { expect, test } from './support/fixtures.ts';
import { createConfirmedUser } from './support/identity.ts';
import { signIn } from './support/journey.ts';

// Issue 11 item 1: logging out in the portal ends the session at the API too, not only at the
// identity pool. The portal's access token, taken from its own requests, is refused after it.

const PASSWORD = 'Correct-Horse-1';

test('logging out in the portal makes the API refuse the access token the portal used', async ({ page, request }) => {
  const email = `sign-out-${randomUUID().slice(0, 8)}@example.com`;
  await createConfirmedUser(request, email, PASSWORD);
  // The bearer token the page sends to /api (the latest one).
  let authorization: string | undefined;
  page.on('request', (sent) => {
    const header = sent.headers().authorization;
    if (header?.startsWith('Bearer ') && new URL(sent.url()).pathname.startsWith('/api/')) authorization = header;
  });
  await signIn(page, {
    email,
    password: PASSWORD,
    profile: { firstName: 'Sign', lastName: 'Out', company: 'Leaving Ltd', location: 'London' },
  });
  expect(authorization).toBeDefined();
  const sub = (JSON.parse(Buffer.from(authorization!.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
  const readUser = async () =>
    (await request.get(`/api/connect/user/${sub}`, { headers: { authorization: authorization! } })).status();
  expect(await readUser()).toBe(200);

  const signOutCall = page.waitForRequest(
    (sent) => sent.method() === 'POST' && sent.url().endsWith('/api/connect/sign-out'),
  );
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await (await signOutCall).response())?.status()).toBe(204);
  expect(await readUser()).toBe(401);
});
