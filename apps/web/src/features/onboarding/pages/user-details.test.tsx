import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organisationStaticData, type TUser } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { organisationStaticDataQueryOptions } from '../../../lib/organisations/organisations-api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { preferences, session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { json, NEW_USER } from '../test/fixtures.ts';
import { UserDetailsPage } from './user-details.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const FILLED: TUser = {
  ...NEW_USER,
  acceptedTerms: true,
  acceptedTermsVersion: '2026-10-01',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines Ltd',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '11-50',
  hearAboutUs: 'SEARCH_ENGINE',
  // Left over from an earlier EVENT answer: not to be sent with SEARCH_ENGINE.
  hearAboutUsDescription: 'Devcon',
};

const fetchMock = vi.fn<typeof fetch>();

function renderPage(user: TUser) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  // The form's lists as GET /static-data/organisations answers them (their loading: organisation-fields.test.tsx).
  queryClient.setQueryData(organisationStaticDataQueryOptions().queryKey, organisationStaticData());
  return renderWithProviders(<UserDetailsPage />, {
    route: '/user-details',
    queryClient,
    routes: [
      { path: '/dashboard', element: <p>Dashboard page</p> },
      { path: '/mfa-setup', element: <p>MFA set-up page</p> },
    ],
  });
}

/** The PUT /user answers the saved profile, with whatever MFA flags the test gives the user. */
function answerPutWith(saved: TUser) {
  fetchMock.mockImplementation(async (_input, init) => (init?.method === 'PUT' ? json(saved) : json({}, 404)));
}

function chooseOption(field: RegExp, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: field }));
  fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

const putBodies = () =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT').map(([, init]) => JSON.parse(String(init?.body)));

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('UserDetailsPage', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
    localStorage.clear();
  });

  it('asks for every field of a new user and sends nothing', async () => {
    renderPage(NEW_USER);
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findAllByText('This field is required.')).toHaveLength(7);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the description for EVENT and requires it', async () => {
    renderPage(FILLED);
    expect(screen.queryByRole('textbox', { name: 'Which event?' })).not.toBeInTheDocument();
    chooseOption(/How did you hear about us/, 'Event or conference');
    const description = screen.getByRole('textbox', { name: 'Which event?' });
    fireEvent.change(description, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('Please tell us more.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves the profile and continues to the MFA set-up', async () => {
    answerPutWith(FILLED);
    renderPage(FILLED);
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    // Saving and navigating take several renders; room for a busy machine.
    expect(await screen.findByText('MFA set-up page', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(putBodies()).toEqual([
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        organisationName: 'Analytical Engines Ltd',
        organisationLocation: 'United Kingdom',
        industry: 'Technology',
        companySize: '11-50',
        hearAboutUs: 'SEARCH_ENGINE',
      },
    ]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/connect/user');
    expect(queryClient.getQueryData<TUser>(currentUserQuery(FILLED.id).queryKey)).toEqual(FILLED);
  });

  it('sends the description with OTHER', async () => {
    answerPutWith(FILLED);
    renderPage(FILLED);
    chooseOption(/How did you hear about us/, 'Other');
    fireEvent.change(screen.getByRole('textbox', { name: 'Please tell us where' }), { target: { value: 'A podcast' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await screen.findByText('MFA set-up page');
    expect(putBodies()[0]).toMatchObject({ hearAboutUs: 'OTHER', hearAboutUsDescription: 'A podcast' });
  });

  it('goes to the dashboard when the user chose to skip MFA on this browser', async () => {
    preferences.setSkipMfa(true);
    answerPutWith(FILLED);
    renderPage(FILLED);
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
  });

  it('goes to the dashboard when MFA is already set up', async () => {
    answerPutWith({ ...FILLED, mfaSetup: true, mfaConfirm: true, userMfaStatus: 'ACTIVE' });
    renderPage(FILLED);
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
  });

  it('puts the server’s field errors under their fields and stays', async () => {
    fetchMock.mockResolvedValue(
      json(
        {
          status: 400,
          title: 'Bad Request',
          detail: 'Your name cannot be changed after your identity has been verified.',
          invalidParams: [
            { name: 'firstName', reason: 'Your name cannot be changed after your identity has been verified.' },
          ],
        },
        400,
      ),
    );
    renderPage(FILLED);
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription(
        'Your name cannot be changed after your identity has been verified.',
      ),
    );
    expect(screen.queryByText('MFA set-up page')).not.toBeInTheDocument();
  });
});
