import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIELD_MESSAGES, type TKycCheck, type TKycStatusResponse, type TUser } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { createFetchMock, json, MFA_OFF, TEST_USER } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { getDisplayKycMessage, setDisplayKycMessage } from '../kyc-message.ts';
import { loadOnfidoSdk } from '../onfido-sdk.ts';
import { continueTarget, KycPage } from './kyc.tsx';

vi.mock('../onfido-sdk.ts', () => ({ loadOnfidoSdk: vi.fn() }));

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USER: TUser = { ...TEST_USER, hearAboutUs: 'SEARCH_ENGINE', hearAboutUsDescription: null, ...MFA_OFF };

const CHECK: Omit<TKycCheck, 'status'> = {
  id: '0b6f3c1e-3333-4e5f-8a9b-2c3d4e5f6a7b',
  provider: 'sandbox',
  reason: null,
  documentFirstName: 'Ada',
  documentLastName: 'Lovelace',
  createdAt: '2026-11-23T09:00:00.000Z',
  completedAt: null,
};

const sandboxStatus = (status: TKycStatusResponse['status'], check: Partial<TKycCheck> | null = null) =>
  ({
    status,
    provider: 'sandbox',
    isSandbox: true,
    isAvailable: true,
    check: check ? { ...CHECK, status: status === 'UNVERIFIED' ? 'PENDING' : status, ...check } : null,
  }) as TKycStatusResponse;

const {
  fetchMock,
  route,
  bodies: requests,
} = createFetchMock(() => ({
  [`GET /api/connect/user/${USER.id}`]: () => json(USER),
  'GET /api/connect/kyc/status': () => json(sandboxStatus('UNVERIFIED')),
}));

function renderPage(path = '/quant-flows/kyc', user: TUser = USER) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  const [pathname] = path.split('?');
  return renderWithProviders(<KycPage />, { route: path, path: pathname, queryClient });
}

describe('continueTarget', () => {
  it('goes on to select networks when sent by the guard, else back where the page was opened', () => {
    expect(continueTarget('/quant-flows/kyc', true, 'quant').to).toBe('/my-networks/select-new-networks');
    expect(continueTarget('/my-applications/kyc', false, 'quant').to).toBe('/my-applications');
    expect(continueTarget('/my-account/kyc', false, 'quant').to).toBe('/my-account');
    expect(continueTarget('/acme-flows/kyc', false, 'acme').to).toBe('/acme-flows/token-flow');
  });
});

describe('KycPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    route({});
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
    setDisplayKycMessage(false);
  });

  it('explains why, shows the status, the names checked and the sandbox form', async () => {
    renderPage('/quant-flows/kyc?selectNetworks=true');
    expect(screen.getByRole('heading', { level: 1, name: 'Identity verification' })).toBeInTheDocument();
    expect(screen.getByText(/Selecting networks needs a verified identity/)).toBeInTheDocument();
    const status = await screen.findByRole('region', { name: 'Your status' });
    expect(within(status).getByText('Not verified')).toBeInTheDocument();
    const names = screen.getByRole('region', { name: 'Names we will check' });
    expect(within(names).getByText('Ada')).toBeInTheDocument();
    expect(within(names).getByText('Lovelace')).toBeInTheDocument();
    expect(within(names).getByRole('link', { name: 'Edit your name in My account' })).toHaveAttribute(
      'href',
      '/my-account',
    );
    const why = screen.getByRole('region', { name: 'Why we verify your identity' });
    expect(within(why).getByText(/Mainnet applications/)).toBeInTheDocument();
    const verify = screen.getByRole('region', { name: 'Verify your identity' });
    expect(within(verify).getByText('Sandbox')).toBeInTheDocument();
    expect(within(verify).getByRole('textbox', { name: 'First name on the document' })).toHaveValue('Ada');
    expect(within(verify).getByRole('textbox', { name: 'Last name on the document' })).toHaveValue('Lovelace');
    expect(within(verify).getByRole('radio', { name: /Clear/ })).toBeChecked();
  });

  it('starts a sandbox check: PENDING with the 24-hour message, then VERIFIED with continue', async () => {
    let current = sandboxStatus('UNVERIFIED');
    let user = USER;
    route({
      'GET /api/connect/kyc/status': () => json(current),
      [`GET /api/connect/user/${USER.id}`]: () => json(user),
      'POST /api/connect/kyc/create-check': () => {
        current = sandboxStatus('PENDING', { documentLastName: 'LOVELACE' });
        return json(current);
      },
    });
    renderPage('/quant-flows/kyc?selectNetworks=true');
    const verify = await screen.findByRole('region', { name: 'Verify your identity' });
    fireEvent.change(within(verify).getByRole('textbox', { name: 'Last name on the document' }), {
      target: { value: 'LOVELACE' },
    });
    fireEvent.click(within(verify).getByRole('radio', { name: /Consider/ }));
    fireEvent.click(within(verify).getByRole('radio', { name: /Clear/ }));
    fireEvent.click(within(verify).getByRole('button', { name: 'Start verification' }));

    const status = screen.getByRole('region', { name: 'Your status' });
    expect(await within(status).findByText('Pending')).toBeInTheDocument();
    expect(within(status).getByText(/Verification started/)).toBeInTheDocument();
    expect(within(status).getByRole('status')).toHaveTextContent(/about 24 hours/);
    expect(requests('POST /api/connect/kyc/create-check')).toEqual([
      { sandbox: { documentFirstName: 'Ada', documentLastName: 'LOVELACE', outcome: 'clear' } },
    ]);
    expect(getDisplayKycMessage()).toBe(true);
    // The user the guards read is PENDING at once.
    expect(queryClient.getQueryData(currentUserQuery(USER.id).queryKey)?.onfidoApplicantStatus).toBe('PENDING');
    expect(screen.queryByRole('region', { name: 'Verify your identity' })).not.toBeInTheDocument();

    // The check settles; the page polls, reloads the user (which clears the message) and offers to continue.
    user = { ...USER, onfidoApplicantStatus: 'VERIFIED' };
    current = sandboxStatus('VERIFIED', { completedAt: '2026-11-23T09:00:03.000Z' });
    const next = await within(status).findByRole('link', { name: 'Continue to select networks' }, { timeout: 5_000 });
    expect(next).toHaveAttribute('href', '/my-networks/select-new-networks');
    expect(within(status).getByText('Verified')).toBeInTheDocument();
    await waitFor(() => expect(getDisplayKycMessage()).toBe(false));
    expect(within(status).queryByText(/Verification started/)).not.toBeInTheDocument();
    expect(screen.getByText('Your name is locked because your identity is verified.')).toBeInTheDocument();
  });

  it('shows why a check FAILED and lets the user try again', async () => {
    route({
      'GET /api/connect/kyc/status': () =>
        json(
          sandboxStatus('FAILED', {
            reason: 'NAME_MISMATCH',
            documentFirstName: 'Augusta',
            completedAt: '2026-11-23T09:00:03.000Z',
          }),
        ),
    });
    renderPage('/my-account/kyc', { ...USER, onfidoApplicantStatus: 'FAILED' });
    const status = await screen.findByRole('region', { name: 'Your status' });
    expect(within(status).getByText('Failed')).toBeInTheDocument();
    expect(
      within(status).getByText(
        'The name on your document (Augusta Lovelace) does not match the name in your profile (Ada Lovelace). Names must match exactly.',
      ),
    ).toBeInTheDocument();
    const retry = screen.getByRole('region', { name: 'Try again' });
    expect(within(retry).getByRole('button', { name: 'Start verification' })).toBeEnabled();
  });

  it('checks the sandbox form before sending and shows the server’s message', async () => {
    route({
      'POST /api/connect/kyc/create-check': () =>
        json(
          {
            status: 409,
            title: 'Conflict',
            detail: 'A verification check is already in progress. It usually completes within about 24 hours.',
          },
          409,
        ),
    });
    renderPage();
    const verify = await screen.findByRole('region', { name: 'Verify your identity' });
    const first = within(verify).getByRole('textbox', { name: 'First name on the document' });
    fireEvent.change(first, { target: { value: ' ' } });
    fireEvent.blur(first);
    expect(await within(verify).findByText(FIELD_MESSAGES.required)).toBeInTheDocument();
    fireEvent.click(within(verify).getByRole('button', { name: 'Start verification' }));
    expect(requests('POST /api/connect/kyc/create-check')).toEqual([]);

    fireEvent.change(first, { target: { value: 'Ada' } });
    fireEvent.click(within(verify).getByRole('button', { name: 'Start verification' }));
    expect(await within(verify).findByText(/already in progress/)).toBeInTheDocument();
  });

  it('asks for the profile names first when they are missing', async () => {
    renderPage('/quant-flows/kyc', { ...USER, lastName: null });
    const names = await screen.findByRole('region', { name: 'Names we will check' });
    expect(within(names).getByText('Not set')).toBeInTheDocument();
    expect(within(names).getByText(/Add your first and last name/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start verification' })).toBeDisabled();
  });

  it('when verified, continues back to where the page was opened from', async () => {
    route({ 'GET /api/connect/kyc/status': () => json(sandboxStatus('VERIFIED', { completedAt: CHECK.createdAt })) });
    const verified = { ...USER, onfidoApplicantStatus: 'VERIFIED' as const };
    const view = renderPage('/my-applications/kyc', verified);
    expect(await screen.findByRole('link', { name: 'Back to My applications' })).toHaveAttribute(
      'href',
      '/my-applications',
    );
    expect(screen.queryByRole('region', { name: 'Verify your identity' })).not.toBeInTheDocument();
    view.unmount();
    queryClient.clear();
    renderPage('/my-account/kyc', verified);
    expect(await screen.findByRole('link', { name: 'Back to My account' })).toHaveAttribute('href', '/my-account');
  });

  it('says verification is unavailable when no check can start here (no sandbox in production)', async () => {
    route({ 'GET /api/connect/kyc/status': () => json({ ...sandboxStatus('UNVERIFIED'), isAvailable: false }) });
    renderPage();
    const verify = await screen.findByRole('region', { name: 'Verify your identity' });
    expect(within(verify).getByText(/Identity verification is not available on this server yet/)).toBeInTheDocument();
    expect(within(verify).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(verify).queryByRole('button', { name: 'Start verification' })).not.toBeInTheDocument();
    expect(within(verify).queryByText('Sandbox')).not.toBeInTheDocument();
  });

  it('with Onfido configured offers the Onfido capture, without a Sandbox label', async () => {
    route({
      'GET /api/connect/kyc/status': () =>
        json({ status: 'UNVERIFIED', provider: 'onfido', isSandbox: false, isAvailable: true, check: null }),
    });
    renderPage();
    const verify = await screen.findByRole('region', { name: 'Verify your identity' });
    expect(within(verify).getByText(/Onfido/)).toBeInTheDocument();
    expect(within(verify).queryByText('Sandbox')).not.toBeInTheDocument();
    expect(within(verify).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(verify).getByRole('button', { name: 'Start verification' })).toBeEnabled();
  });

  it('runs the Onfido capture with a fresh SDK token, then creates the check', async () => {
    const onfido = { status: 'UNVERIFIED', provider: 'onfido', isSandbox: false, isAvailable: true, check: null };
    let current: unknown = onfido;
    route({
      'GET /api/connect/kyc/status': () => json(current),
      'GET /api/connect/kyc/token': () =>
        json({ provider: 'onfido', isSandbox: false, applicantId: 'app-1', token: 'sdk-token-1', region: 'EU' }),
      'POST /api/connect/kyc/create-check': () => {
        current = { ...onfido, status: 'PENDING', check: { ...CHECK, provider: 'onfido', status: 'PENDING' } };
        return json(current);
      },
    });
    const tearDown = vi.fn();
    const init = vi.fn((options: { token: string; containerId: string; onComplete: () => void }) => {
      setTimeout(options.onComplete, 0);
      return { tearDown };
    });
    vi.mocked(loadOnfidoSdk).mockResolvedValue({ init } as never);
    renderPage();
    const verify = await screen.findByRole('region', { name: 'Verify your identity' });
    fireEvent.click(within(verify).getByRole('button', { name: 'Start verification' }));
    const status = screen.getByRole('region', { name: 'Your status' });
    expect(await within(status).findByText('Pending')).toBeInTheDocument();
    expect(init).toHaveBeenCalledWith(expect.objectContaining({ token: 'sdk-token-1', containerId: 'onfido-mount' }));
    expect(tearDown).toHaveBeenCalled();
    expect(requests('POST /api/connect/kyc/create-check')).toEqual([{}]);
    expect(within(status).queryByText(/sandbox/i)).not.toBeInTheDocument();
  });

  it('says so when the Onfido SDK cannot be loaded', async () => {
    route({
      'GET /api/connect/kyc/status': () =>
        json({ status: 'UNVERIFIED', provider: 'onfido', isSandbox: false, isAvailable: true, check: null }),
      'GET /api/connect/kyc/token': () =>
        json({ provider: 'onfido', isSandbox: false, applicantId: 'app-1', token: 'sdk-token-1' }),
    });
    vi.mocked(loadOnfidoSdk).mockRejectedValue(new Error('blocked'));
    renderPage();
    const verify = await screen.findByRole('region', { name: 'Verify your identity' });
    fireEvent.click(within(verify).getByRole('button', { name: 'Start verification' }));
    expect(
      await within(verify).findByText('The verification form could not be loaded. Please try again.'),
    ).toBeInTheDocument();
    expect(within(verify).getByRole('button', { name: 'Start verification' })).toBeEnabled();
    expect(requests('POST /api/connect/kyc/create-check')).toEqual([]);
  });

  it('shows an error with a retry when the status cannot be loaded', async () => {
    let fail = true;
    route({
      'GET /api/connect/kyc/status': () =>
        fail
          ? json({ status: 502, title: 'Bad Gateway', detail: 'Try later.' }, 502)
          : json(sandboxStatus('UNVERIFIED')),
    });
    renderPage();
    expect(
      await screen.findByText(/Your verification status could not be loaded/, {}, { timeout: 8_000 }),
    ).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Your status' })).toBeInTheDocument();
  });
});
