import { expect, test } from './support/fixtures.ts';
import { expectAccessible, snap } from './support/a11y.ts';
import { createConfirmedUser } from './support/identity.ts';
import { chooseOption, signIn, verifyIdentityForNetworks } from './support/journey.ts';

// One user goes from no networks to a testnet, an environment, and a private network: the steps depend on each other.
// The CPU is shared with other work: signing in and page loads get more time than the default.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const email = `networks-${Date.now()}@example.com`;
const password = 'Networks-Journey-Passw0rd!';
const user = { email, password };
// The server's second local chain (the Polygon testnet stand-in, chain id 31338): our "private" network.
const secondChainPort = process.env.E2E_DEVCHAIN_PORTS?.split(',')[1];
const secondChainUrl = `http://127.0.0.1:${secondChainPort}`;

test('My networks starts empty; selecting networks first asks for a verified identity', async ({ page, request }) => {
  expect(secondChainPort, 'E2E_DEVCHAIN_PORTS is set by playwright.config.ts').toBeTruthy();
  await createConfirmedUser(request, email, password);
  await signIn(page, {
    ...user,
    profile: { firstName: 'Grace', lastName: 'Hopper', company: 'Compilers Ltd', location: 'United States' },
  });

  await page.goto('/my-networks?configureNetworks=true');
  await expect(page).toHaveTitle('My networks | Quant Connect');
  await expect(page.getByRole('heading', { level: 1, name: 'My networks' })).toBeVisible();
  await expect(page.getByText('Please configure your networks before you can deploy tokens')).toBeVisible();
  const testnets = page.getByRole('region', { name: 'Testnets' });
  await expect(testnets.getByText(/You have no testnets yet/)).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Mainnets' }).getByText('Mainnets need an upgraded plan.'),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Private networks' }).getByText(/You have not connected/),
  ).toBeVisible();
  await snap(page, 'networks-01-empty');
  await expectAccessible(page, '/my-networks (empty)');

  // Spec §5: no verified identity → the verification page with selectNetworks=true.
  await page.getByRole('link', { name: 'Select new networks' }).first().click();
  await expect(page).toHaveURL(/\/quant-flows\/kyc\?selectNetworks=true$/);
  await snap(page, 'networks-02-guard-kyc');

  // Verify in the embedded sandbox (labelled as such), with the profile's names.
  await verifyIdentityForNetworks(page);
});

test('selects a local testnet through the stepper and sees it live in My networks', async ({ page }) => {
  await signIn(page, user);
  await page.goto('/my-networks/select-new-networks');
  await expect(page).toHaveTitle('Select new networks | Quant Connect');
  await expect(page.getByRole('heading', { name: 'Before you choose' })).toBeVisible();
  await expect(page.getByText('Your plan allows networks of every blockchain.')).toBeVisible();
  await snap(page, 'networks-03-select-info');
  await expectAccessible(page, 'select networks: important info');
  await page.getByRole('button', { name: 'Continue' }).click();

  const ethereum = page.getByRole('checkbox', { name: /Ethereum Testnet \(local\)/ });
  await expect(ethereum).toBeEnabled();
  await ethereum.check();
  await snap(page, 'networks-04-select-testnets');
  await expectAccessible(page, 'select networks: testnets');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Mainnets have no RPC URL here and the trial plan does not include them: listed, not selectable.
  await expect(page.getByText('Mainnets need an upgraded plan.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /Ethereum Mainnet/ })).toBeDisabled();
  await expect(page.getByText(/No RPC URL is configured for this network yet/).first()).toBeVisible();
  await snap(page, 'networks-05-select-mainnets');
  await expectAccessible(page, 'select networks: mainnets');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { name: 'Your selection' })).toBeVisible();
  await expect(page.getByText('Ethereum Testnet (local) (Ethereum)')).toBeVisible();
  await snap(page, 'networks-06-select-summary');
  await expectAccessible(page, 'select networks: summary');
  await page.getByRole('button', { name: 'Activate networks' }).click();
  await expect(page.getByRole('heading', { name: 'Your networks are active' })).toBeVisible();
  await snap(page, 'networks-07-select-confirmation');
  await page.getByRole('link', { name: 'Go to My networks' }).click();

  await expect(page).toHaveURL(/\/my-networks$/);
  const table = page.getByRole('table', { name: 'Testnets' });
  const row = table.getByRole('row', { name: /Ethereum Testnet \(local\)/ });
  await expect(row).toBeVisible();
  await expect(row.getByText('Sandbox')).toBeVisible();
  await expect(row.getByText('Testnet', { exact: true })).toBeVisible();
  await expect(row.getByText('25 req/s')).toBeVisible();
  await expect(row.getByText(/^\d{2}\.\d{2}\.\d{4}$/)).toBeVisible();
  // The status is the monitor's live check of the local chain (every 15 s by default).
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('table', { name: 'Testnets' }).getByText('Online')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 40_000 });
  await snap(page, 'networks-08-my-networks-testnet');
  await expectAccessible(page, '/my-networks (testnet)');

  await page.getByRole('button', { name: 'Actions for Ethereum Testnet (local)' }).click();
  await page.getByRole('menuitem', { name: 'View details' }).click();
  const details = page.getByRole('dialog', { name: /Ethereum Testnet \(local\)/ });
  await expect(details.getByText('31337')).toBeVisible();
  await snap(page, 'networks-09-details');
  await expectAccessible(page, 'network details dialog');
  await details.getByRole('button', { name: 'Close' }).click();
});

test('the environment manager adds the other blockchain’s testnet', async ({ page }) => {
  await signIn(page, user);
  await page.goto('/my-networks');
  await page.getByRole('button', { name: 'Environment manager' }).click();
  const dialog = page.getByRole('dialog', { name: 'Environment manager' });
  await expect(dialog.getByRole('radio', { name: 'Test environment (testnets)' })).toBeChecked();
  await snap(page, 'networks-10-environment-intro');
  await expectAccessible(page, 'environment manager: intro');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('checkbox', { name: /Polygon/ }).check();
  await snap(page, 'networks-11-environment-blockchains');
  await expectAccessible(page, 'environment manager: blockchains');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Polygon Testnet (local)')).toBeVisible();
  await snap(page, 'networks-12-environment-summary');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Saved: 1 network activated.')).toBeVisible();
  await snap(page, 'networks-13-environment-saved');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('table', { name: 'Testnets' }).getByText('Polygon Testnet (local)')).toBeVisible();
});

test('connects a private network: a wrong chain id is a field error, the right one goes under review', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allowFailedRequest(
    400,
    '/api/integrate/private-networks/validate',
    'the server refuses the wrong chain id as a field error',
  );
  await signIn(page, user);
  await page.goto('/my-networks');
  await page
    .getByRole('region', { name: 'Private networks' })
    .getByRole('link', { name: 'Connect private network' })
    .click();
  await expect(page).toHaveURL(/\/my-networks\/connect-private-network$/);
  await expect(page).toHaveTitle('Connect private network | Quant Connect');
  await snap(page, 'networks-14-private-intro');
  await expectAccessible(page, 'private network: intro');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Leaving the empty form is fine; the field rules show as soon as a field is left.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel(/^Network name/)).toHaveAccessibleDescription('Please enter a network name');
  await snap(page, 'networks-15-private-required');

  await page.getByLabel(/^Network name/).fill('Grace Ledger');
  await page.getByRole('radio', { name: 'Sandbox' }).check();
  await page.getByLabel(/^RPC URL/).fill(secondChainUrl);
  await page.getByLabel(/^Chain id/).fill('999');
  await page.getByLabel(/^Token symbol/).fill('GRC');
  await page.getByLabel(/^Token decimals/).fill('18');
  await page.getByLabel(/^Blocks for a successful transaction/).fill('6');
  await chooseOption(page, /Node type/, 'Archive');
  await page.getByRole('checkbox', { name: 'The network uses EIP-1559 fees' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  // The server reads the node for real: its chain id is 31338, not 999.
  const chainId = page.getByLabel(/^Chain id/);
  await expect(chainId).toHaveAccessibleDescription('The node at this URL reports chain id 31338, not 999');
  await expect(chainId).toHaveAttribute('aria-invalid', 'true');
  await snap(page, 'networks-16-private-wrong-chain-id');
  await expectAccessible(page, 'private network: chain id error');

  await chainId.fill('31338');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Check your network' })).toBeVisible();
  await expect(page.getByText(/The node answered: chain id 31338/)).toBeVisible();
  await snap(page, 'networks-17-private-summary');
  await expectAccessible(page, 'private network: summary');

  // Leaving mid-flow asks first.
  await page.getByRole('link', { name: 'My networks' }).first().click();
  const leave = page.getByRole('dialog', { name: 'Leave this page?' });
  await expect(leave).toBeVisible();
  await snap(page, 'networks-18-private-leave');
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/my-networks\/connect-private-network$/);

  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByRole('heading', { name: 'Grace Ledger is under review' })).toBeVisible();
  await snap(page, 'networks-19-private-confirmation');
  await expectAccessible(page, 'private network: confirmation');
  await page.getByRole('link', { name: 'Go to My networks' }).click();

  const privateTable = page.getByRole('table', { name: 'Private networks' });
  const row = privateTable.getByRole('row', { name: /Grace Ledger/ });
  await expect(row.getByText('Under review')).toBeVisible();
  await expect(row.getByText('Answer within 5 working days')).toBeVisible();
  await snap(page, 'networks-20-my-networks-private');
  await expectAccessible(page, '/my-networks (private under review)');
});

test('requests the removal of the private network through the delete dialog', async ({ page }) => {
  await signIn(page, user);
  await page.goto('/my-networks');
  await page.getByRole('button', { name: 'Actions for Grace Ledger' }).click();
  await page.getByRole('menuitem', { name: 'Request removal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Grace Ledger?' });
  await expect(dialog.getByText(/Removal takes 2–5 working days/)).toBeVisible();
  await snap(page, 'networks-21-delete-dialog');
  await expectAccessible(page, 'delete private network dialog');
  await dialog.getByRole('button', { name: 'Request removal' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('table', { name: 'Private networks' }).getByRole('row', { name: /Grace Ledger/ });
  await expect(row.getByText('Removal requested')).toBeVisible();
  await expect(row.getByText('Completes in 2–5 working days')).toBeVisible();
  await snap(page, 'networks-22-removal-requested');
});
