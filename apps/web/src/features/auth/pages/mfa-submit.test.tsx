import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths.ts';
import { confirmSignInWithTotp } from '../../../lib/auth.ts';
import { startSession } from '../../../lib/current-user.ts';
import { IDENTITY_MESSAGES } from '../../../lib/identity-errors.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SLOW_RENDER_MS, cognitoError, destinations, fillIn, press } from '../test/utils.tsx';
import { MfaSubmitPage } from './mfa-submit.tsx';

vi.mock('../../../lib/auth.ts');
vi.mock('../../../lib/current-user.ts');

function renderMfa() {
  return renderWithProviders(<MfaSubmitPage />, {
    route: paths.mfaSubmit,
    routes: destinations(paths.dashboard, paths.login),
  });
}

function verify(code = '123456') {
  fillIn('Authentication code', code);
  press('Verify');
}

describe('MfaSubmitPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
    sessionStorage.clear();
    session.setChallengedUser({ username: 'alice@example.com' });
  });

  it('asks for the authenticator code as a one-time code', () => {
    renderMfa();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const input = screen.getByLabelText('Authentication code', { selector: 'input' });
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toHaveFocus();
  });

  it('verifies the code, starts the session and goes to the dashboard', async () => {
    vi.mocked(confirmSignInWithTotp).mockResolvedValue('user-7');
    vi.mocked(startSession).mockResolvedValue({} as Awaited<ReturnType<typeof startSession>>);
    renderMfa();
    verify();
    expect(await screen.findByText(`Arrived at ${paths.dashboard}`)).toBeInTheDocument();
    expect(confirmSignInWithTotp).toHaveBeenCalledWith('123456');
    expect(startSession).toHaveBeenCalledWith('user-7');
  });

  it('says a wrong code is invalid and lets the user try again', async () => {
    vi.mocked(confirmSignInWithTotp).mockRejectedValue(
      cognitoError('CodeMismatchException', 'Invalid code received for user'),
    );
    renderMfa();
    verify();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid code received for user.');
    expect(within(alert).queryByRole('link')).not.toBeInTheDocument();
    expect(session.challengedUser()).not.toBeNull();
  });

  it('says a code that was already used cannot be used again', async () => {
    vi.mocked(confirmSignInWithTotp).mockRejectedValue(
      cognitoError('ExpiredCodeException', 'Your software token has already been used once.'),
    );
    renderMfa();
    verify();
    expect(await screen.findByRole('alert')).toHaveTextContent('This code has already been used once.');
  });

  it('ends the challenge on an invalid session and leads back to login', async () => {
    vi.mocked(confirmSignInWithTotp).mockRejectedValue(
      cognitoError('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
    );
    renderMfa();
    verify();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(IDENTITY_MESSAGES.invalidSession);
    expect(session.challengedUser()).toBeNull();
    fireEvent.click(within(alert).getByRole('link', { name: 'Back to login' }));
    expect(await screen.findByText(`Arrived at ${paths.login}`)).toBeInTheDocument();
  });

  it('leads back to login when there is no challenge to answer', async () => {
    vi.mocked(confirmSignInWithTotp).mockResolvedValue(false);
    renderMfa();
    verify();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong, please go back to login.');
    expect(within(alert).getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', paths.login);
    expect(startSession).not.toHaveBeenCalled();
  });

  it('forgets the challenge when the user goes back to login', async () => {
    renderMfa();
    const links = screen.getAllByRole('link', { name: 'Back to login' });
    fireEvent.click(links[links.length - 1]!);
    expect(await screen.findByText(`Arrived at ${paths.login}`)).toBeInTheDocument();
    expect(session.challengedUser()).toBeNull();
  });
});
