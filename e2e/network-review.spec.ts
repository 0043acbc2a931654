import type { APIRequestContext } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { newCustomer } from './support/customer.ts';
import { idp } from './support/identity.ts';

import { adminAccessToken, signInAsAdministrator } from './support/staff.ts';

// The machine is shared with other work: give each step room, the behaviour asserted is the same.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 300_000 });

// The server's second local chain (the Polygon testnet stand-in, chain id 31338) is the customer's "private" node.
const secondChainUrl = `http://127.0.0.1:${process.env.E2E_DEVCHAIN_PORTS?.split(',')[1]}`;
const REASON = 'The node must be an archive node: submit it again once it keeps the full history.';

/** A private network submitted by the customer through the API (the submission's screens have their own journey). */
async function submitNetwork(request: APIRequestContext, accessToken: string, name: string) {
  const response = await request.post('/api/integrate/private-networks', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: {
      name,
      networkType: 'production',
      chainId: 31338,
      eip1559: true,
      numberOfBlocks: 6,
      url: secondChainUrl,
      tokenSymbol: 'WRK',
      tokenDecimals: 18,
      nodeType: 'archive',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test('an administrator checks a submitted private network, approves one and rejects another with a reason; the customer sees both on My networks', async ({
  page,
  request,
  browser,
  consoleGuard,
}) => {
  // ── The customer submits two networks ──
  const {
    email,
    password,
    context: customer,
    page: customerPage,
  } = await newCustomer({ request, browser, consoleGuard }, 'ledger-works', {
    firstName: 'Lena',
    lastName: 'Works',
    company: 'Ledger Works Ltd',
    location: 'United Kingdom',
  });
  const auth = await idp(request, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  const customerToken = ((await auth.json()) as { AuthenticationResult: { AccessToken: string } }).AuthenticationResult
    .AccessToken;
  await submitNetwork(request, customerToken, 'Works Ledger');
  await submitNetwork(request, customerToken, 'Works Sidechain');

  // ── The administrator finds them under review ──
  // The portal's copy of the administrator's MFA state is read from the pool (run alone, this spec
  // meets an administrator whose authenticator adminAccessToken has just set up).
  const adminToken = await adminAccessToken(request);
  await request.get('/api/connect/user/mfa-status', { headers: { authorization: `Bearer ${adminToken}` } });
  await signInAsAdministrator(page);
  await page.getByRole('navigation', { name: /menu/i }).getByText('Network review', { exact: true }).click();
  await expect(page).toHaveURL(/\/network-review/);
  await expect(page.getByRole('heading', { level: 1, name: 'Network review' })).toBeVisible();
  await expect(page.getByRole('tab', { name: /Under review/ })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Search by network, chain id, organisation or email').fill('ledger works');
  const grid = page.getByRole('grid', { name: 'Private networks' });
  const rowOf = (name: string) => grid.getByRole('row').filter({ hasText: name });
  await expect(rowOf('Works Ledger')).toContainText('Ledger Works Ltd');
  await expect(rowOf('Works Sidechain')).toContainText(email);
  await snap(page, 'network-review-01-queue');
  await expectAccessible(page, '/network-review');

  // ── Its details, and the live RPC check run again ──
  await rowOf('Works Ledger').getByRole('gridcell').nth(1).click();
  const panel = page.getByRole('dialog', { name: 'Works Ledger' });
  await expect(panel.getByText(secondChainUrl)).toBeVisible();
  await panel.getByRole('button', { name: 'Run RPC check' }).click();
  await expect(panel.getByText('The node answers as submitted')).toBeVisible();
  await expect(panel.getByText(/Chain id 31338 \(submitted 31338\)/)).toBeVisible();
  await snap(page, 'network-review-02-details-rpc-check');
  await expectAccessible(page, '/network-review, details');

  // ── Approve, after a confirmation ──
  await panel.getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: 'Approve Works Ledger?' });
  await expect(approve).toContainText(email);
  await snap(page, 'network-review-03-approve');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Works Ledger approved')).toBeVisible();
  // The panel shows the network as it stands now: decided, by whom.
  await expect(panel.getByText('Decided by')).toBeVisible();
  await panel.getByRole('button', { name: 'Close' }).click();

  // ── Reject the other, only with a reason ──
  await page.getByRole('button', { name: 'Actions for Works Sidechain' }).click();
  await page.getByRole('menuitem', { name: 'Reject' }).click();
  const reject = page.getByRole('dialog', { name: 'Reject Works Sidechain' });
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(reject.getByText('Please say why the network is rejected.')).toBeVisible();
  await reject.getByLabel(/^Reason/).fill(REASON);
  await snap(page, 'network-review-04-reject');
  await expectAccessible(page, '/network-review, reject');
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('Works Sidechain rejected')).toBeVisible();
  // The list is empty now: its sentence alone, no grid without rows.
  await expect(page.getByRole('status', { name: 'Private networks' })).toHaveText(/No network matches this search\./);
  await page.getByRole('tab', { name: /Rejected/ }).click();
  await expect(rowOf('Works Sidechain')).toBeVisible();
  await snap(page, 'network-review-05-rejected-tab');

  // ── The customer sees both on My networks, with the reason, and is told in the bell ──
  await customerPage.goto('/my-networks');
  const privateTable = customerPage.getByRole('table', { name: 'Private networks' });
  await expect(privateTable.getByRole('row', { name: /Works Ledger/ }).getByText('Active')).toBeVisible();
  const rejectedRow = privateTable.getByRole('row', { name: /Works Sidechain/ });
  await expect(rejectedRow.getByText('Rejected')).toBeVisible();
  await expect(rejectedRow.getByText(`Reason: ${REASON}`)).toBeVisible();
  await customerPage.getByRole('button', { name: /notifications/i }).click();
  await expect(customerPage.getByText('Private network approved')).toBeVisible();
  await expect(customerPage.getByText('Private network rejected')).toBeVisible();
  await customerPage.keyboard.press('Escape');
  await snap(customerPage, 'network-review-06-customer-my-networks');
  await expectAccessible(customerPage, '/my-networks (reviewed)');
  await customer.close();

  // ── Both decisions are in the audit log ──
  await page.getByRole('navigation', { name: /menu/i }).getByText('Audit log').click();
  const entries = page.getByRole('grid', { name: 'Audit log entries' });
  for (const action of ['Private network approved', 'Private network rejected']) {
    await expect(entries.getByText(action).first()).toBeVisible();
  }
});
