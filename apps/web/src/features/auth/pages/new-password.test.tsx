import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths.ts';
import { completeNewPassword } from '../../../lib/auth.ts';
import { startSession } from '../../../lib/current-user.ts';
import { IDENTITY_MESSAGES } from '../../../lib/identity-errors.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SLOW_RENDER_MS, cognitoError, destinations, fillIn, press } from '../test/utils.tsx';
import { NewPasswordPage } from './new-password.tsx';

vi.mock('../../../lib/auth.ts');
vi.mock('../../../lib/current-user.ts');

const PASSWORD = 'My-own-pass-3';

function renderNewPassword() {
  return renderWithProviders(<NewPasswordPage />, {
    route: paths.newPassword,
    routes: destinations(paths.dashboard, paths.login),
  });
}

function choose(password = PASSWORD, confirmation = password) {
  fillIn('New password', password);
  fillIn('Confirm new password', confirmation);
  press('Save and continue');
}

describe('NewPasswordPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
    sessionStorage.clear();
  });

  it('without the temporary password, says so and leads back to login', () => {
    renderNewPassword();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText('Something went wrong, please go back to login.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', paths.login);
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('sets the new password, starts the session and goes to the dashboard', async () => {
    session.setTemporaryPassword('Temp-pass-1');
    vi.mocked(completeNewPassword).mockResolvedValue('user-9');
    vi.mocked(startSession).mockResolvedValue({} as Awaited<ReturnType<typeof startSession>>);
    renderNewPassword();
    expect(screen.getByLabelText('New password', { selector: 'input' })).toHaveAttribute(
      'autocomplete',
      'new-password',
    );
    choose();
    expect(await screen.findByText(`Arrived at ${paths.dashboard}`)).toBeInTheDocument();
    expect(completeNewPassword).toHaveBeenCalledWith(PASSWORD);
    expect(startSession).toHaveBeenCalledWith('user-9');
  });

  it('refuses a password that breaks the rules or does not match', async () => {
    session.setTemporaryPassword('Temp-pass-1');
    renderNewPassword();
    choose('password', 'passw0rd');
    expect(
      await screen.findByText(
        'Password must be at least 8 characters and contain a lowercase letter, an uppercase letter, a number and a symbol.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    expect(completeNewPassword).not.toHaveBeenCalled();
  });

  it('leads back to login when the sign-in session has expired', async () => {
    session.setTemporaryPassword('Temp-pass-1');
    vi.mocked(completeNewPassword).mockRejectedValue(
      cognitoError('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
    );
    renderNewPassword();
    choose();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(IDENTITY_MESSAGES.invalidSession);
    expect(within(alert).getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', paths.login);
    expect(startSession).not.toHaveBeenCalled();
  });
});
