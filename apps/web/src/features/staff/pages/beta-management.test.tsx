import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BETA_MESSAGES } from '@connect/shared';
import { describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '../test/fixtures.ts';
import { BETA_URL, INVITED, MANAGED_BRIDGES, MANAGED_PRIVATE, OPTED_IN } from '../test/beta-fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { BetaManagementPage } from './beta-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const NEW_ID = '3c000000-0000-4000-8000-000000000003';
const mock = createFetchMock(() => ({
  [`GET ${BETA_URL}`]: () => json({ features: [MANAGED_BRIDGES, MANAGED_PRIVATE] }),
  [`POST ${BETA_URL}`]: (body) =>
    json({ ...MANAGED_BRIDGES, ...(body as object), id: NEW_ID, optIns: 0, invitations: 0 }, 201),
  [`DELETE ${BETA_URL}/${MANAGED_BRIDGES.id}`]: () => new Response(null, { status: 204 }),
  [`GET ${BETA_URL}/${MANAGED_PRIVATE.id}/participants`]: () => json({ participants: [OPTED_IN, INVITED] }),
  [`POST ${BETA_URL}/${MANAGED_PRIVATE.id}/invitations`]: (body) =>
    json({ ...INVITED, accountId: (body as { accountId: string }).accountId }, 201),
  [`DELETE ${BETA_URL}/${MANAGED_PRIVATE.id}/invitations/${INVITED.accountId}`]: () =>
    new Response(null, { status: 204 }),
}));

function renderPage() {
  return renderStaffPage(<BetaManagementPage />, { route: '/beta-management', path: '/beta-management' });
}

/** The catalogue's row whose name cell says `name` (the key cell may say it too: Bridges for bridge). */
async function rowOf(name: string) {
  const table = await screen.findByRole('table', { name: 'Beta features' });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => candidate.querySelector('td span')?.textContent === name);
  if (!row) throw new Error(`No row named ${name}`);
  return row;
}

async function choose(dialog: HTMLElement, label: RegExp, option: RegExp) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: label }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}

describe('BetaManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);

  it('lists the beta features with the key each switches on, access, opt-ins and invitations', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Beta management' })).toBeInTheDocument();
    const bridges = await rowOf('Bridges');
    expect(bridges).toHaveTextContent(MANAGED_BRIDGES.description);
    expect(within(bridges).getByText('bridge')).toBeInTheDocument();
    expect(within(bridges).getByText('Open to all')).toBeInTheDocument();
    expect(bridges).toHaveTextContent('1,234');
    const invited = await rowOf('Private networks');
    expect(within(invited).getByText('By invitation')).toBeInTheDocument();
    expect(within(invited).getByText('privateNetwork')).toBeInTheDocument();
  });

  it('refuses an empty new feature in the spec words under each field, then creates a valid one', async () => {
    renderPage();
    await rowOf('Bridges');
    fireEvent.click(screen.getByRole('button', { name: 'New beta feature' }));
    const dialog = screen.getByRole('dialog', { name: 'New beta feature' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create beta feature' }));
    expect(await within(dialog).findByText(BETA_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(BETA_MESSAGES.descriptionRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(BETA_MESSAGES.featureKey)).toBeInTheDocument();
    expect(mock.bodies(`POST ${BETA_URL}`)).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: '  Rewards early ' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Description/ }), {
      target: { value: 'Earn QNT for what you build.' },
    });
    await choose(dialog, /^Switches on/, /^Rewards/);
    await choose(dialog, /^Access/, /^By invitation/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create beta feature' }));
    expect(await screen.findByText('Rewards early created')).toBeInTheDocument();
    expect(mock.bodies(`POST ${BETA_URL}`)).toEqual([
      {
        name: 'Rewards early',
        description: 'Earn QNT for what you build.',
        featureKey: 'reward',
        access: 'INVITATION',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses a name longer than the limit', async () => {
    renderPage();
    await rowOf('Bridges');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Bridges' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Bridges' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Bridges');
    // The field's maxLength stops typing; a pasted value past it is still refused by the schema.
    fireEvent.change(name, { target: { value: 'x'.repeat(61) } });
    fireEvent.blur(name);
    expect(await within(dialog).findByText(BETA_MESSAGES.nameTooLong)).toBeInTheDocument();
  });

  it('deletes a feature after a confirmation naming it', async () => {
    renderPage();
    await rowOf('Bridges');
    fireEvent.click(screen.getByRole('button', { name: 'Delete Bridges' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Bridges?' });
    expect(dialog).toHaveTextContent('Its opt-ins and invitations are deleted with it');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Bridges deleted')).toBeInTheDocument();
    expect(mock.bodies(`DELETE ${BETA_URL}/${MANAGED_BRIDGES.id}`)).toHaveLength(1);
  });

  it('shows who opted in or is invited; invites an account by id and removes an invitation', async () => {
    renderPage();
    await rowOf('Private networks');
    fireEvent.click(screen.getByRole('button', { name: 'Participants of Private networks' }));
    const dialog = screen.getByRole('dialog', { name: 'Participants of Private networks' });
    const table = await within(dialog).findByRole('table', { name: 'Participants' });
    const opted = within(table).getByText('Analytical Engines Ltd').closest('tr')!;
    expect(within(opted).getByText('Opted in')).toBeInTheDocument();
    expect(opted).toHaveTextContent('21.11.2026');
    expect(opted).toHaveTextContent('ada@example.com');
    const invited = within(table).getByText(INVITED.accountId).closest('tr')!;
    expect(invited).toHaveTextContent('Not yet');

    const accountId = within(dialog).getByRole('textbox', { name: 'Account id' });
    fireEvent.change(accountId, { target: { value: 'not-an-id' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText('Enter an account id (a UUID).')).toBeInTheDocument();
    const newAccount = '7b000000-0000-4000-8000-0000000000cc';
    fireEvent.change(accountId, { target: { value: ` ${newAccount} ` } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Account invited')).toBeInTheDocument();
    expect(mock.bodies(`POST ${BETA_URL}/${MANAGED_PRIVATE.id}/invitations`)).toEqual([{ accountId: newAccount }]);

    fireEvent.click(within(invited).getByRole('button', { name: `Remove the invitation of ${INVITED.accountId}` }));
    const confirm = screen.getByRole('dialog', { name: `Remove the invitation of ${INVITED.accountId}?` });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Invitation removed')).toBeInTheDocument();
    expect(mock.bodies(`DELETE ${BETA_URL}/${MANAGED_PRIVATE.id}/invitations/${INVITED.accountId}`)).toHaveLength(1);
  });

  it('says an open feature needs no invitation', async () => {
    mock.route({ [`GET ${BETA_URL}/${MANAGED_BRIDGES.id}/participants`]: () => json({ participants: [] }) });
    renderPage();
    await rowOf('Bridges');
    fireEvent.click(screen.getByRole('button', { name: 'Participants of Bridges' }));
    const dialog = screen.getByRole('dialog', { name: 'Participants of Bridges' });
    expect(await within(dialog).findByText('No account has opted in or been invited yet.')).toBeInTheDocument();
    expect(within(dialog).getByText(/Open features need no invitation/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'Account id' })).toBeNull();
  });

  it('shows the empty catalogue with the action that fills it', async () => {
    mock.route({ [`GET ${BETA_URL}`]: () => json({ features: [] }) });
    renderPage();
    expect(await screen.findByText(/No beta feature yet/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New beta feature' })).toHaveLength(2);
  });

  it('shows a failed load with a retry', async () => {
    mock.route({ [`GET ${BETA_URL}`]: () => json({ status: 503, title: 'Unavailable', detail: 'Try later.' }, 503) });
    renderPage();
    expect(await screen.findByText(/The beta features could not be loaded/)).toBeInTheDocument();
    mock.route({});
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await rowOf('Bridges')).toBeInTheDocument();
  });
});
