import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '@connect/shared';
import { finishTotpSetup, startTotpSetup } from '../../../lib/auth.ts';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { preferences, session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { json, NEW_USER } from '../test/fixtures.ts';
import { MfaSetupPage } from './mfa-setup.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
  startTotpSetup: vi.fn(),
  finishTotpSetup: vi.fn(),
}));

const USER: TUser = {
  ...NEW_USER,
  acceptedTerms: true,
  firstName: 'Ada',
  organisationLocation: 'UK',
  industry: 'Technology',
  companySize: '1-10',
  hearAboutUs: 'SEARCH_ENGINE',
};
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URI = `otpauth://totp/Quant%20Connect:ada%40example.com?secret=${SECRET}&issuer=Quant%20Connect`;

const fetchMock = vi.fn<typeof fetch>();
const calls = (path: string) => fetchMock.mock.calls.filter(([input]) => String(input) === path);

function renderPage(user: TUser = USER) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  return renderWithProviders(<MfaSetupPage />, {
    route: '/mfa-setup',
    queryClient,
    routes: [
      { path: '/dashboard', element: <p>Dashboard page</p> },
      { path: '/login', element: <p>Login page</p> },
    ],
  });
}

function enterCode(code: string) {
  fireEvent.change(screen.getByRole('textbox', { name: '6-digit code' }), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify and turn on' }));
}

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('MfaSetupPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    vi.mocked(startTotpSetup).mockResolvedValue({ secret: SECRET, uri: URI });
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.mocked(startTotpSetup).mockReset();
    vi.mocked(finishTotpSetup).mockReset();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
    localStorage.clear();
  });

  it('starts one set-up for the user and shows the QR code and the secret', async () => {
    renderPage();
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(screen.getByTitle('QR code for your authenticator app')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the set-up key' })).toBeInTheDocument();
    expect(startTotpSetup).toHaveBeenCalledTimes(1);
    expect(startTotpSetup).toHaveBeenCalledWith('ada@example.com', 'Quant Connect');
  });

  it.each([
    ['CodeMismatchException', 'Invalid verification code provided, please try again.'],
    ['EnableSoftwareTokenMFAException', 'The code does not match your authenticator app, please try again.'],
  ])('shows the message for %s and stays', async (name, message) => {
    vi.mocked(finishTotpSetup).mockRejectedValue(Object.assign(new Error('Code mismatch'), { name }));
    renderPage();
    await screen.findByText(/JBSW Y3DP/);
    enterCode('123456');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(finishTotpSetup).toHaveBeenCalledWith('123456');
    expect(calls('/api/connect/user/mfa-status')).toHaveLength(0);
    expect(screen.queryByText('Dashboard page')).not.toBeInTheDocument();
  });

  it('asks for six digits before verifying', async () => {
    renderPage();
    await screen.findByText(/JBSW Y3DP/);
    enterCode('12a3');
    expect(await screen.findByText('Enter the 6 digits your authenticator app shows.')).toBeInTheDocument();
    expect(finishTotpSetup).not.toHaveBeenCalled();
  });

  it('verifies the code, syncs the MFA status, reloads the user and goes to the dashboard', async () => {
    vi.mocked(finishTotpSetup).mockResolvedValue(undefined);
    const activeUser = { ...USER, mfaSetup: true, mfaConfirm: true, userMfaStatus: 'ACTIVE' as const };
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/connect/user/mfa-status'
        ? json({ mfaSetup: true, mfaConfirm: true, userMfaStatus: 'ACTIVE' })
        : json(activeUser),
    );
    renderPage();
    await screen.findByText(/JBSW Y3DP/);
    enterCode('654321');

    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(screen.getByText('Two-factor authentication is on')).toBeInTheDocument();
    expect(finishTotpSetup).toHaveBeenCalledWith('654321');
    expect(calls('/api/connect/user/mfa-status')).toHaveLength(1);
    expect(calls(`/api/connect/user/${USER.id}`)).toHaveLength(1);
    expect(queryClient.getQueryData<TUser>(currentUserQuery(USER.id).queryKey)?.mfaConfirm).toBe(true);
    // A second set-up would replace the secret that was just verified.
    expect(startTotpSetup).toHaveBeenCalledTimes(1);
  });

  it('remembers a skip on this browser and goes to the dashboard', async () => {
    renderPage();
    await screen.findByText(/JBSW Y3DP/);
    expect(preferences.skipMfa()).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Skip for now' }));
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(preferences.skipMfa()).toBe(true);
    expect(finishTotpSetup).not.toHaveBeenCalled();
  });

  it('still lets the user skip when the set-up cannot start', async () => {
    vi.mocked(startTotpSetup).mockRejectedValue(Object.assign(new Error('offline'), { name: 'NetworkError' }));
    renderPage();
    expect(await screen.findByText(/The set-up could not be started/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Skip for now' }));
    await waitFor(() => expect(preferences.skipMfa()).toBe(true));
  });

  it.each(['QUANT_ADMIN', 'QUANT_SALES'] as const)(
    'offers %s no skip: staff must use an authenticator app (issue 32 §1), their way out is logging out',
    async (role) => {
      renderPage({ ...USER, role });
      await screen.findByText(/JBSW Y3DP/);
      expect(screen.getByText(/Staff accounts must use an authenticator app/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Skip for now' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
      expect(await screen.findByText('Login page')).toBeInTheDocument();
      expect(preferences.skipMfa()).toBe(false);
    },
  );
});
