import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ACCOUNT_TESTNETS, CREATED, POLYGON, ROLES } from '../test/application-fixtures.ts';
import { createFetchMock, CUSTOMER, json, usersAnswer } from '../test/fixtures.ts';
import { CreateApplicationDialog } from './create-application-dialog.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const CREATE = 'POST /api/application-manager/management/applications';
const NETWORKS = `GET /api/application-manager/management/networks/${CUSTOMER.accountId}/testnet`;
const mock = createFetchMock(() => ({
  'GET /api/application-manager/management/application-roles/': () => json(ROLES),
  // The users list searched by the typed term: Ada for any start of her address.
  'GET /api/connect/management/users': (_body, url) =>
    json(usersAnswer(CUSTOMER.email.startsWith(url.searchParams.get('searchTerm') ?? '-') ? [CUSTOMER] : [])),
  [NETWORKS]: () => json(ACCOUNT_TESTNETS),
  [CREATE]: () => json(CREATED, 201),
}));

function renderDialog() {
  const onClose = vi.fn();
  renderWithProviders(<CreateApplicationDialog onClose={onClose} />, { queryClient });
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Create an application for a user' }) };
}

const textbox = (dialog: HTMLElement, name: RegExp) => within(dialog).getByRole('textbox', { name });
const type = (dialog: HTMLElement, name: RegExp, value: string) =>
  fireEvent.change(textbox(dialog, name), { target: { value } });
const submit = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: 'Create application' }));

async function chooseRole(dialog: HTMLElement, role: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Role/ }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: role }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

/** Types part of Ada's address and picks her from the suggestions. */
async function chooseAda(dialog: HTMLElement) {
  const email = within(dialog).getByRole('combobox', { name: /User's email/ });
  fireEvent.change(email, { target: { value: 'ada' } });
  fireEvent.click(await screen.findByRole('option', { name: /ada@example\.com/ }));
  await waitFor(() => expect(email).toHaveValue(CUSTOMER.email));
}

async function fillIn(dialog: HTMLElement) {
  await chooseAda(dialog);
  await chooseRole(dialog, 'Integration');
  type(dialog, /Application name/, 'Onboarding bot');
  type(dialog, /Callback URL/, 'https://example.com/callback');
  fireEvent.click(await within(dialog).findByRole('checkbox', { name: POLYGON.name }));
}

describe('CreateApplicationDialog', { timeout: 60_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({});
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('checks every field with the request’s own rules before sending anything', async () => {
    const { dialog } = renderDialog();
    expect(within(dialog).getByText("Choose the user first: their account's networks are offered here.")).toBeVisible();
    submit(dialog);
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Please choose a role.')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter an application name')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter a callback URL')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select at least one of the available networks!')).toBeInTheDocument();
    expect(mock.bodies(CREATE)).toEqual([]);
  });

  it('offers the chosen user’s account’s networks of the type and sends the application for them', async () => {
    const { dialog, onClose } = renderDialog();
    await fillIn(dialog);
    // The role's meaning under the select.
    expect(within(dialog).getByText(ROLES.roles[1]!.description)).toBeVisible();
    expect(within(dialog).getByRole('checkbox', { name: 'Ethereum testnet' })).not.toBeChecked();
    submit(dialog);

    // The secret, once, with the warning first and a copy button for each value.
    const created = await screen.findByRole('dialog', { name: 'Application created' });
    expect(mock.bodies(CREATE)).toEqual([
      {
        email: CUSTOMER.email,
        roleName: 'INTEGRATION',
        name: 'Onboarding bot',
        callbackUrl: 'https://example.com/callback',
        applicationType: 'testnet',
        networkIds: [POLYGON.id],
        testnetSigning: false,
      },
    ]);
    expect(within(created).getByText('Copy the client secret now')).toBeVisible();
    expect(within(created).getByText(CREATED.clientSecret)).toBeVisible();
    expect(within(created).getByText(CREATED.clientId)).toBeVisible();
    expect(within(created).getByRole('button', { name: 'Copy the client secret' })).toBeVisible();
    expect(within(created).getByRole('button', { name: 'Copy the client id' })).toBeVisible();
    expect(within(created).getByText(/has been emailed/)).toBeVisible();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(within(created).getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('puts the server’s field refusals under their fields and the others above the buttons', async () => {
    const { dialog } = renderDialog();
    await fillIn(dialog);
    mock.route({
      [CREATE]: () =>
        json(
          {
            status: 404,
            code: 'USER_NOT_FOUND',
            detail: 'No user of the portal has this email address.',
            invalidParams: [{ name: 'email', reason: 'No user of the portal has this email address.' }],
          },
          404,
        ),
    });
    submit(dialog);
    expect(await within(dialog).findByText('No user of the portal has this email address.')).toBeInTheDocument();

    mock.route({
      [CREATE]: () =>
        json(
          {
            status: 409,
            code: 'APPLICATION_QUOTA_REACHED',
            detail: 'You have registered all the applications your plan allows. Delete one or upgrade your plan.',
          },
          409,
        ),
    });
    submit(dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/all the applications your plan allows/);
    expect(screen.queryByRole('dialog', { name: 'Application created' })).toBeNull();
  });

  it('starts the network choice again when the environment changes', async () => {
    const { dialog } = renderDialog();
    await fillIn(dialog);
    expect(within(dialog).getByRole('checkbox', { name: POLYGON.name })).toBeChecked();
    mock.route({
      [`GET /api/application-manager/management/networks/${CUSTOMER.accountId}/mainnet`]: () => json({ networks: [] }),
    });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Environment/ }));
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Mainnet' }));
    expect(await within(dialog).findByText(/This account has not activated a mainnet network yet/)).toBeInTheDocument();
    submit(dialog);
    expect(await within(dialog).findByText('Please select at least one of the available networks!')).toBeVisible();
    expect(mock.bodies(CREATE)).toEqual([]);
  });
});
