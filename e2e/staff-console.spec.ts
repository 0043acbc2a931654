import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { newCustomer } from './support/customer.ts';

import { chooseOption, dismissCookies } from './support/journey.ts';
import { latestMail } from './support/mailbox.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminAccessToken, freshAdminCode, readAdminState } from './support/staff.ts';
import { totpCode, waitForFreshTotpWindow } from './support/totp.ts';

// The machine is shared with other work: give each step room, the behaviour asserted is the same.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 300_000 });

const INVITEE = 'nora.staff@e2e.test';
const INVITEE_PASSWORD = 'Nora-Chosen-Passw0rd!';

/** The seeded administrator signs in through the UI: password, then the authenticator's code. */
async function signInAsAdministrator(page: Page) {
  await waitForFreshTotpWindow(10);
  await page.goto('/login');
  await page.getByLabel('Email address').fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/mfa-submit$/);
  await page.getByLabel('Authentication code').fill(await freshAdminCode(readAdminState().totpSecret!));
  await page.getByRole('button', { name: 'Verify' }).click();
  // Run alone, this spec meets an administrator who has not accepted the terms yet.
  await expect(page).toHaveURL(/\/(dashboard|terms-conditions)$/);
  if (page.url().endsWith('/terms-conditions')) {
    await page.getByRole('checkbox', { name: /I have read and accept/ }).check();
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  }
  await dismissCookies(page);
}

const usersGrid = (page: Page) => page.getByRole('grid', { name: 'Users' });
const rowOf = (page: Page, email: string) => usersGrid(page).getByRole('row').filter({ hasText: email });
async function rowAction(page: Page, email: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('an administrator invites, finds, sorts, edits, resets the MFA of and removes a user, and finds each action in the audit log', async ({
  page,
  request,
  browser,
  consoleGuard,
}) => {
  // The administrator has a password and an authenticator, whichever spec came first.
  await adminAccessToken(request);
  await signInAsAdministrator(page);

  // ── User management: the active tab, with its count, newest status change first ──
  await page.getByRole('navigation', { name: /menu/i }).getByText('User management').click();
  await expect(page).toHaveURL(/\/user-management/);
  await expect(page.getByRole('heading', { level: 1, name: 'User management' })).toBeVisible();
  // The newest status changes first: the journeys before this one may fill the first page.
  await expect(usersGrid(page).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText(/Deposit addresses: \d+/)).toBeVisible();
  await snap(page, '40-user-management');
  await expectAccessible(page, '/user-management');

  // ── Invite a staff member ──
  await page.getByRole('button', { name: 'Invite user' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite user' });
  await invite.getByLabel('Email').fill(INVITEE);
  await invite.getByLabel('First name').fill('Nora');
  await invite.getByLabel('Last name').fill('Staff');
  await chooseOption(page, 'Role', 'Administrator');
  await snap(page, '41-invite-user');
  await expectAccessible(page, '/user-management, invite dialog');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${INVITEE}`)).toBeVisible();
  await page.getByRole('tab', { name: /Pending/ }).click();
  await expect(page).toHaveURL(/tab=pending/);
  await expect(rowOf(page, INVITEE)).toBeVisible();
  await snap(page, '42-user-management-pending');

  // ── The invited user signs in from the mailbox with the temporary password, chooses a new one and sets up MFA ──
  const invitation = await latestMail(request, INVITEE, 'INVITATION');
  const invitee = await browser.newContext();
  consoleGuard.watch(invitee);
  const inviteePage = await invitee.newPage();
  await inviteePage.goto('/login');
  await inviteePage.getByLabel('Email address').fill(INVITEE);
  await inviteePage.getByLabel('Password', { exact: true }).fill(invitation.code!);
  await inviteePage.getByRole('button', { name: 'Log in' }).click();
  await expect(inviteePage).toHaveURL(/\/new-password$/);
  await inviteePage.getByLabel('New password', { exact: true }).fill(INVITEE_PASSWORD);
  await inviteePage.getByLabel('Confirm new password').fill(INVITEE_PASSWORD);
  await inviteePage.getByRole('button', { name: 'Save and continue' }).click();
  await expect(inviteePage).toHaveURL(/\/terms-conditions$/);
  await inviteePage.getByRole('checkbox', { name: /I have read and accept/ }).check();
  await inviteePage.getByRole('button', { name: 'Accept and continue' }).click();
  // Staff must set up an authenticator app, and cannot skip it.
  await expect(inviteePage).toHaveURL(/\/mfa-setup$/);
  await expect(inviteePage.getByText('Staff accounts must use an authenticator app')).toBeVisible();
  await expect(inviteePage.getByRole('button', { name: 'Skip for now' })).toHaveCount(0);
  await snap(inviteePage, '43-staff-mfa-setup');
  await expectAccessible(inviteePage, '/mfa-setup (staff)');
  const secret = (await inviteePage.locator('code[aria-labelledby="mfa-secret-label"]').textContent())!.replace(
    /\s+/g,
    '',
  );
  await waitForFreshTotpWindow();
  await inviteePage.getByLabel('6-digit code').fill(totpCode(secret));
  await inviteePage.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(inviteePage).toHaveURL(/\/dashboard$/);
  await invitee.close();

  // ── Find them by search (now active), and sort a column through its whole cycle ──
  await page.getByRole('tab', { name: /Active/ }).click();
  await page.getByLabel('Search by name, email or organisation').fill('  nora.st ');
  await expect(page).toHaveURL(/search=nora\.st/);
  await expect(usersGrid(page).getByRole('row')).toHaveCount(2); // the header and Nora
  await expect(rowOf(page, INVITEE)).toBeVisible();
  await page.getByLabel('Search by name, email or organisation').fill('');
  await expect(page).not.toHaveURL(/search=/);
  const header = usersGrid(page).getByRole('columnheader', { name: 'Email' });
  await header.click();
  await expect(page).toHaveURL(/sort=email(%3A|:)asc/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.click();
  await expect(page).toHaveURL(/sort=email(%3A|:)desc/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await snap(page, '44-user-management-sorted');
  await header.click();
  await expect(page).not.toHaveURL(/sort=email/);
  await expect(header).not.toHaveAttribute('aria-sort', /ascending|descending/);

  // ── Edit them ──
  await rowAction(page, INVITEE, 'Edit');
  const edit = page.getByRole('dialog', { name: `Edit ${INVITEE}` });
  await edit.getByLabel('First name').fill('Norah');
  await snap(page, '45-edit-user');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${INVITEE} updated`)).toBeVisible();
  await expect(rowOf(page, INVITEE)).toContainText('Norah');

  // ── Their details, then reset their MFA ──
  await rowAction(page, INVITEE, 'Details');
  const details = page.getByRole('dialog').filter({ hasText: INVITEE });
  await expect(details.getByText('MFA is active')).toBeVisible();
  await snap(page, '46-user-details');
  await expectAccessible(page, '/user-management, user details');
  await page.keyboard.press('Escape');
  await rowAction(page, INVITEE, 'Reset MFA');
  await page.getByRole('dialog').getByRole('button', { name: 'Reset MFA' }).click();
  await expect(page.getByText('MFA reset for Norah Staff')).toBeVisible();

  // ── Remove them, and find them on the removed tab with who removed them ──
  await rowAction(page, INVITEE, 'Remove');
  const remove = page.getByRole('dialog', { name: 'Remove Norah Staff?' });
  await snap(page, '47-remove-user');
  await remove.getByRole('button', { name: 'Remove user' }).click();
  await expect(page.getByText('Norah Staff removed')).toBeVisible();
  await page.getByRole('tab', { name: /Removed/ }).click();
  await expect(usersGrid(page).getByRole('columnheader', { name: 'Removed by' })).toBeVisible();
  await expect(rowOf(page, INVITEE)).toContainText(ADMIN_EMAIL);
  await snap(page, '48-user-management-removed');
  await expectAccessible(page, '/user-management, removed tab');

  // ── Each action in the audit log, filtered, then exported ──
  await page.getByRole('navigation', { name: /menu/i }).getByText('Audit log').click();
  await expect(page).toHaveURL(/\/audit-log/);
  const entries = page.getByRole('grid', { name: 'Audit log entries' });
  for (const action of ['User invited', 'User updated', 'User MFA reset', 'User removed']) {
    await expect(entries.getByText(action).first()).toBeVisible();
  }
  await snap(page, '49-audit-log');
  await expectAccessible(page, '/audit-log');
  await chooseOption(page, 'Action', 'User removed');
  await expect(page).toHaveURL(/action=USER_REMOVED/);
  await expect(entries.getByText('User invited')).toHaveCount(0);
  await expect(entries.getByText('User removed').first()).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const csv = readFileSync(file, 'utf8');
  expect(csv).toContain('USER_REMOVED');
  expect(csv).toContain(ADMIN_EMAIL);
  expect(csv).not.toContain('USER_INVITED');
});

test('a staff member finds an account, extends its trial and switches a feature off and back for its menu', async ({
  page,
  request,
  browser,
  consoleGuard,
}) => {
  // A customer with a profile, as a sign-up makes one; their page stays open to see their menu.
  const {
    email,
    context: customer,
    page: customerPage,
  } = await newCustomer({ request, browser, consoleGuard }, 'orchard', {
    firstName: 'Olive',
    lastName: 'Orchard',
    company: 'Orchard Analytics Ltd',
    location: 'United Kingdom',
  });
  const customerMenu = customerPage.getByRole('navigation', { name: 'Main menu' });
  const bridgeEntry = async () => {
    await customerPage.reload();
    await customerMenu.getByRole('button', { name: /Flows$/ }).click();
    return customerMenu.getByRole('link', { name: 'Bridge Flow', exact: true });
  };
  // Bridges are a Connect Beta feature (issue 35 §1): the customer opts in, and the menu has them.
  await expect(await bridgeEntry()).toHaveCount(0);
  await customerPage.goto('/beta/features');
  await customerPage.getByRole('switch', { name: 'Opt in to Bridges' }).click();
  await expect(customerPage.getByText('Bridges is on for your account')).toBeVisible();
  await expect(await bridgeEntry()).toBeVisible();

  await adminAccessToken(request);
  await signInAsAdministrator(page);
  await page.getByRole('navigation', { name: /menu/i }).getByText('Account management').click();
  await expect(page).toHaveURL(/\/account-management/);
  await expect(page.getByRole('heading', { level: 1, name: 'Account management' })).toBeVisible();
  await snap(page, '50-account-management');
  await expectAccessible(page, '/account-management');
  await page.getByLabel('Search by organisation, owner or plan').fill('orchard ana');
  const row = page.getByRole('grid').getByRole('row').filter({ hasText: 'Orchard Analytics Ltd' });
  await expect(row).toBeVisible();
  await expect(row).toContainText(email);
  await row.getByRole('gridcell').first().click();
  const panel = page.getByRole('dialog').filter({ hasText: 'Orchard Analytics Ltd' });
  // An administrator sees the account's deposit address (sales never ask for it).
  await expect(panel.getByText(/0x[0-9a-fA-F]{6}/).first()).toBeVisible();
  await snap(page, '51-account-details');
  await expectAccessible(page, '/account-management, account details');

  // ── Extend the trial by 14 days, with a reason ──
  await panel.getByRole('button', { name: 'Extend trial' }).click();
  const extend = page.getByRole('dialog', { name: 'Extend the trial of Orchard Analytics Ltd' });
  await extend.getByLabel('Reason').fill('Evaluating the mainnet tier');
  await expect(extend.getByText(/New end: /)).toBeVisible();
  await snap(page, '52-extend-trial');
  await extend.getByRole('button', { name: 'Extend trial' }).click();
  await expect(page.getByText(/Trial extended to /).first()).toBeVisible();

  // ── Switch the bridge feature off: the override wins over the opt-in, and the customer's menu
  // loses Bridge Flow; back to the plan (and the opt-in), it returns ──
  const bridges = panel.getByRole('group', { name: 'Bridges override' });
  await bridges.getByRole('button', { name: 'Off' }).click();
  await expect(page.getByText('Bridges switched off for Orchard Analytics Ltd')).toBeVisible();
  await expect(panel.getByText('Overridden').first()).toBeVisible();
  await snap(page, '53-account-overrides');
  await expect(await bridgeEntry()).toHaveCount(0);
  await bridges.getByRole('button', { name: 'Plan default' }).click();
  await expect(page.getByText('Override cleared').first()).toBeVisible();
  await expect(await bridgeEntry()).toBeVisible();
  await customer.close();

  // Both changes are in the audit log.
  await page.keyboard.press('Escape');
  await page.getByRole('navigation', { name: /menu/i }).getByText('Audit log').click();
  const entries = page.getByRole('grid', { name: 'Audit log entries' });
  for (const action of ['Trial extended', 'Feature override set', 'Feature override cleared']) {
    await expect(entries.getByText(action).first()).toBeVisible();
  }
});
