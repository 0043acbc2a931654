import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths.ts';
import { resendRegistrationCode, signInWithPassword, type SignInOutcome } from '../../../lib/auth.ts';
import { startSession } from '../../../lib/current-user.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SLOW_RENDER_MS, cognitoError, deferred, destinations, fillIn, press } from '../test/utils.tsx';
import { LoginPage } from './login.tsx';

vi.mock('../../../lib/auth.ts');
vi.mock('../../../lib/current-user.ts');

function renderLogin(route: string = paths.login) {
  return renderWithProviders(<LoginPage />, {
    route,
    path: paths.login,
    routes: destinations(
      paths.dashboard,
      paths.mfaSubmit,
      paths.newPassword,
      paths.registerConfirmation,
      paths.forgotPassword,
      paths.register,
    ),
  });
}

function logIn(email = ' Alice@Example.com ', password = 'Secret-pass-1') {
  fillIn('Email address', email);
  fillIn('Password', password);
  press('Log in');
}

describe('LoginPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
  });

  it('shows one h1, labelled fields with autocomplete, and the links to recovery and sign-up', () => {
    renderLogin();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByLabelText('Email address', { selector: 'input' })).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveAttribute(
      'autocomplete',
      'current-password',
    );
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', paths.forgotPassword);
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', paths.register);
  });

  it('signs in, starts the session for the user and goes to the dashboard', async () => {
    vi.mocked(signInWithPassword).mockResolvedValue({ kind: 'signedIn', userUuid: 'user-1' });
    vi.mocked(startSession).mockResolvedValue({} as Awaited<ReturnType<typeof startSession>>);
    const { router } = renderLogin();
    logIn();
    expect(await screen.findByText(`Arrived at ${paths.dashboard}`)).toBeInTheDocument();
    expect(signInWithPassword).toHaveBeenCalledWith('alice@example.com', 'Secret-pass-1');
    expect(startSession).toHaveBeenCalledWith('user-1');
    expect(router.state.location.pathname).toBe(paths.dashboard);
  });

  it.each<[SignInOutcome['kind'], string]>([
    ['mfa', paths.mfaSubmit],
    ['newPassword', paths.newPassword],
  ])('goes on to the next step when the sign-in asks for %s', async (kind, path) => {
    vi.mocked(signInWithPassword).mockResolvedValue({ kind } as SignInOutcome);
    renderLogin();
    logIn();
    expect(await screen.findByText(`Arrived at ${path}`)).toBeInTheDocument();
    expect(startSession).not.toHaveBeenCalled();
  });

  it('sends an unconfirmed user a fresh code and asks for it', async () => {
    vi.mocked(signInWithPassword).mockResolvedValue({ kind: 'confirmSignUp' });
    vi.mocked(resendRegistrationCode).mockResolvedValue({} as Awaited<ReturnType<typeof resendRegistrationCode>>);
    const { router } = renderLogin();
    logIn();
    expect(await screen.findByText(`Arrived at ${paths.registerConfirmation}`)).toBeInTheDocument();
    expect(resendRegistrationCode).toHaveBeenCalledWith('alice@example.com');
    expect(router.state.location.search).toBe('?email=alice%40example.com');
  });

  it('still asks for the code when the resend fails (the confirmation page can resend)', async () => {
    vi.mocked(signInWithPassword).mockResolvedValue({ kind: 'confirmSignUp' });
    vi.mocked(resendRegistrationCode).mockRejectedValue(cognitoError('LimitExceededException'));
    renderLogin();
    logIn();
    expect(await screen.findByText(`Arrived at ${paths.registerConfirmation}`)).toBeInTheDocument();
  });

  it('says the email or password is invalid, and stays on the page', async () => {
    vi.mocked(signInWithPassword).mockRejectedValue(
      cognitoError('NotAuthorizedException', 'Incorrect username or password.'),
    );
    const { router } = renderLogin();
    logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Email address or password invalid.');
    expect(router.state.location.pathname).toBe(paths.login);
    expect(startSession).not.toHaveBeenCalled();
  });

  it('says when password attempts are exceeded', async () => {
    vi.mocked(signInWithPassword).mockRejectedValue(
      cognitoError('NotAuthorizedException', 'Password attempts exceeded'),
    );
    renderLogin();
    logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Password attempts exceeded.');
  });

  it('checks the fields when they are left and sends nothing invalid', async () => {
    renderLogin();
    fillIn('Email address', 'not-an-email');
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    press('Log in');
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    expect(signInWithPassword).not.toHaveBeenCalled();
  });

  it('disables the form while signing in, so nothing is sent twice', async () => {
    const pending = deferred<SignInOutcome>();
    vi.mocked(signInWithPassword).mockReturnValue(pending.promise);
    renderLogin();
    logIn();
    await waitFor(() => expect(screen.getByLabelText('Email address', { selector: 'input' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
    pending.reject(cognitoError('NotAuthorizedException', 'Incorrect username or password.'));
    await waitFor(() => expect(screen.getByLabelText('Email address', { selector: 'input' })).toBeEnabled());
  });

  it('fills in the email it is given and starts on the password', () => {
    renderLogin(`${paths.login}?email=bob%40example.com`);
    expect(screen.getByLabelText('Email address', { selector: 'input' })).toHaveValue('bob@example.com');
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveFocus();
  });
});
