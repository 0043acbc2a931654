import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { createFetchMock, json, STAFF } from '../test/fixtures.ts';
import { InviteUserDialog } from './invite-user-dialog.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const INVITE = 'POST /api/connect/management/user/invite';
const mock = createFetchMock();

function renderDialog() {
  const onClose = vi.fn();
  renderWithProviders(<InviteUserDialog onClose={onClose} />, { queryClient });
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Invite user' }) };
}

const field = (dialog: HTMLElement, name: RegExp) => within(dialog).getByRole('textbox', { name });
const type = (dialog: HTMLElement, name: RegExp, value: string) =>
  fireEvent.change(field(dialog, name), { target: { value } });

async function chooseRole(dialog: HTMLElement, role: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Role/ }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: role }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

const submit = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

describe('InviteUserDialog', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({ [INVITE]: (body) => json({ ...STAFF, ...(body as object), status: 'PENDING' }, 201) });
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('checks every field with the request’s own rules before sending anything', async () => {
    const { dialog } = renderDialog();
    submit(dialog);
    expect(await within(dialog).findByText('Please enter a valid email address.')).toBeInTheDocument();
    // First name, last name and role (the organisation is asked for once a customer role is chosen).
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(3);
    expect(field(dialog, /First name/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(dialog, /Last name/)).toHaveAttribute('aria-invalid', 'true');
    expect(mock.bodies(INVITE)).toEqual([]);
  });

  it('asks a customer role for its organisation and hides the field for a staff role', async () => {
    const { dialog } = renderDialog();
    type(dialog, /Email/, 'new@example.com');
    type(dialog, /First name/, 'Mary');
    type(dialog, /Last name/, 'Somerville');
    await chooseRole(dialog, 'Small or medium-sized enterprise');
    submit(dialog);
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(field(dialog, /Organisation/)).toHaveAttribute('aria-invalid', 'true');
    expect(mock.bodies(INVITE)).toEqual([]);

    await chooseRole(dialog, 'Sales');
    expect(within(dialog).queryByRole('textbox', { name: /Organisation/ })).toBeNull();
  });

  it('sends the invitation as the schema reads it and says so', async () => {
    const { dialog, onClose } = renderDialog();
    type(dialog, /Email/, 'Mary.Somerville@Example.com');
    type(dialog, /First name/, ' Mary ');
    type(dialog, /Last name/, 'Somerville');
    await chooseRole(dialog, 'Institution');
    type(dialog, /Organisation/, 'Royal Society');
    submit(dialog);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(mock.bodies(INVITE)).toEqual([
      {
        email: 'mary.somerville@example.com',
        firstName: 'Mary',
        lastName: 'Somerville',
        role: 'INSTITUTION',
        organisationName: 'Royal Society',
      },
    ]);
    expect(await screen.findByText('Invitation sent to mary.somerville@example.com')).toBeInTheDocument();
  });

  it('says "Invite user failed" with the server’s message, under the email when the address is taken', async () => {
    mock.route({
      [INVITE]: () =>
        json(
          {
            status: 409,
            code: 'USER_EXISTS',
            title: 'Conflict',
            detail: 'A user with this email address already exists.',
          },
          409,
        ),
    });
    const { dialog, onClose } = renderDialog();
    type(dialog, /Email/, 'ada@example.com');
    type(dialog, /First name/, 'Ada');
    type(dialog, /Last name/, 'Lovelace');
    await chooseRole(dialog, 'Administrator');
    submit(dialog);
    // The notification (behind the dialog for screen readers, hence `hidden`), and the dialog's own alert.
    const notification = (await screen.findAllByRole('alert', { hidden: true })).find(
      (alert) => !dialog.contains(alert),
    )!;
    expect(within(notification).getByText('Invite user failed')).toBeInTheDocument();
    expect(within(notification).getByText('A user with this email address already exists.')).toBeInTheDocument();
    const inDialog = within(dialog).getByRole('alert');
    expect(inDialog).toHaveTextContent('Invite user failedA user with this email address already exists.');
    // And under the email field.
    expect(field(dialog, /Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getAllByText('A user with this email address already exists.')).toHaveLength(2);
    // A staff role sends no organisation.
    expect(mock.bodies(INVITE)).toEqual([
      { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', role: 'QUANT_ADMIN' },
    ]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('puts the server’s field errors under the field they name', async () => {
    mock.route({
      [INVITE]: () =>
        json(
          {
            status: 400,
            code: 'INVALID_REQUEST',
            detail: 'Must be at most 100 characters.',
            invalidParams: [{ name: 'lastName', reason: 'Must be at most 100 characters.' }],
          },
          400,
        ),
    });
    const { dialog } = renderDialog();
    type(dialog, /Email/, 'new@example.com');
    type(dialog, /First name/, 'Mary');
    type(dialog, /Last name/, 'Somerville');
    await chooseRole(dialog, 'Sales');
    submit(dialog);
    await waitFor(() => expect(field(dialog, /Last name/)).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getAllByText('Must be at most 100 characters.')).toHaveLength(2);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Invite user failed');
  });
});
