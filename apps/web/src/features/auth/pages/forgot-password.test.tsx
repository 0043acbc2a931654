import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IDENTITY_MESSAGES } from '../../../lib/identity-errors.ts';
import { paths } from '../../../config/paths.ts';
import { confirmPasswordReset, requestPasswordReset } from '../../../lib/auth.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SLOW_RENDER_MS, cognitoError, destinations, fillIn, press } from '../test/utils.tsx';
import { ForgotPasswordResetPage } from './forgot-password-reset.tsx';
import { ForgotPasswordPage } from './forgot-password.tsx';

vi.mock('../../../lib/auth.ts');

const NEW_PASSWORD = 'Brand-new-pass-2';

describe('ForgotPasswordPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
  });

  function renderForgot() {
    return renderWithProviders(<ForgotPasswordPage />, {
      route: paths.forgotPassword,
      routes: destinations(paths.forgotPasswordReset, paths.login),
    });
  }

  it('sends a reset code and asks for it on the next page', async () => {
    vi.mocked(requestPasswordReset).mockResolvedValue({} as Awaited<ReturnType<typeof requestPasswordReset>>);
    const { router } = renderForgot();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    fillIn('Email address', 'Alice@Example.com');
    press('Send reset code');
    expect(await screen.findByText(`Arrived at ${paths.forgotPasswordReset}`)).toBeInTheDocument();
    expect(requestPasswordReset).toHaveBeenCalledWith('alice@example.com');
    expect(router.state.location.search).toBe('?email=alice%40example.com');
  });

  it('validates the address before sending', async () => {
    renderForgot();
    press('Send reset code');
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(requestPasswordReset).not.toHaveBeenCalled();
  });

  it('says when too many codes were asked for', async () => {
    vi.mocked(requestPasswordReset).mockRejectedValue(
      cognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.'),
    );
    renderForgot();
    fillIn('Email address', 'alice@example.com');
    press('Send reset code');
    expect(await screen.findByRole('alert')).toHaveTextContent('Attempt limit exceeded, please try later.');
  });
});

describe('ForgotPasswordResetPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
  });

  function renderReset(search = '?email=alice%40example.com') {
    return renderWithProviders(<ForgotPasswordResetPage />, {
      route: `${paths.forgotPasswordReset}${search}`,
      path: paths.forgotPasswordReset,
      routes: destinations(paths.resetPasswordConfirmation, paths.login),
    });
  }

  function reset(code = '123456', password = NEW_PASSWORD, confirmation = password) {
    fillIn('Verification code', code);
    fillIn('New password', password);
    fillIn('Confirm new password', confirmation);
    press('Reset password');
  }

  it('sets the new password with the code and confirms it', async () => {
    vi.mocked(confirmPasswordReset).mockResolvedValue(undefined);
    renderReset();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByLabelText('New password', { selector: 'input' })).toHaveAttribute(
      'autocomplete',
      'new-password',
    );
    reset();
    expect(await screen.findByText(`Arrived at ${paths.resetPasswordConfirmation}`)).toBeInTheDocument();
    expect(confirmPasswordReset).toHaveBeenCalledWith('alice@example.com', '123456', NEW_PASSWORD);
  });

  it('shows the password rules live and refuses a weak or mismatched password', async () => {
    renderReset();
    fillIn('New password', 'short');
    expect(screen.getByText('At least 8 characters').closest('li')).toHaveAttribute('data-met', 'false');
    expect(screen.getByText('A lowercase letter').closest('li')).toHaveAttribute('data-met', 'true');
    fillIn('Confirm new password', 'other');
    expect(await screen.findByText('Passwords do not match.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Password must be at least 8 characters and contain a lowercase letter, an uppercase letter, a number and a symbol.',
      ),
    ).toBeInTheDocument();
    press('Reset password');
    expect(await screen.findByText('The code is 6 digits.')).toBeInTheDocument();
    expect(confirmPasswordReset).not.toHaveBeenCalled();
  });

  it('says a wrong code is invalid', async () => {
    vi.mocked(confirmPasswordReset).mockRejectedValue(
      cognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.'),
    );
    renderReset();
    reset();
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid verification code provided, please try again.');
  });

  it('says an expired code has expired, and a new one can be requested', async () => {
    vi.mocked(confirmPasswordReset).mockRejectedValue(
      cognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
    );
    vi.mocked(requestPasswordReset).mockResolvedValue({} as Awaited<ReturnType<typeof requestPasswordReset>>);
    renderReset();
    reset();
    expect(await screen.findByRole('alert')).toHaveTextContent(IDENTITY_MESSAGES.expiredCode);
    press('Request a new code');
    expect(await screen.findByText('A new code is on its way')).toBeInTheDocument();
    expect(requestPasswordReset).toHaveBeenCalledWith('alice@example.com');
  });

  it('says when the attempt limit is reached', async () => {
    vi.mocked(confirmPasswordReset).mockRejectedValue(
      cognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.'),
    );
    renderReset();
    reset();
    expect(await screen.findByRole('alert')).toHaveTextContent('Attempt limit exceeded, please try later.');
  });

  it('asks for the address when the link has none', async () => {
    vi.mocked(confirmPasswordReset).mockResolvedValue(undefined);
    renderReset('');
    fillIn('Email address', 'bob@example.com');
    reset();
    await waitFor(() => expect(confirmPasswordReset).toHaveBeenCalledWith('bob@example.com', '123456', NEW_PASSWORD));
  });

  it('points to the dev mailbox outside production', () => {
    renderReset();
    expect(screen.getByRole('link', { name: 'dev mailbox' })).toHaveAttribute(
      'href',
      `${paths.devMailbox}?to=alice%40example.com`,
    );
  });
});
