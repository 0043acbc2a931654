import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths.ts';
import { confirmRegistration, resendRegistrationCode } from '../../../lib/auth.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SLOW_RENDER_MS, cognitoError, destinations, fillIn, press } from '../test/utils.tsx';
import { RegisterConfirmationPage } from './register-confirmation.tsx';

vi.mock('../../../lib/auth.ts');

const EMAIL = 'alice@example.com';

function renderConfirmation(search = `?email=${encodeURIComponent(EMAIL)}`, devMailbox = true) {
  return renderWithProviders(<RegisterConfirmationPage />, {
    route: `${paths.registerConfirmation}${search}`,
    path: paths.registerConfirmation,
    routes: destinations(paths.registerConfirmed, paths.activation, paths.login),
    config: { devMailbox },
  });
}

function confirmWith(code: string) {
  fillIn('Verification code', code);
  press('Confirm email');
}

describe('RegisterConfirmationPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
  });

  it('names the address the code went to and asks only for the code', () => {
    renderConfirmation();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText(EMAIL)).toBeInTheDocument();
    expect(screen.queryByLabelText('Email address')).not.toBeInTheDocument();
    const code = screen.getByLabelText('Verification code', { selector: 'input' });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
  });

  it('keeps only digits, at most six, and says a short code is not a code', async () => {
    renderConfirmation();
    const input = fillIn('Verification code', '12a3-4');
    expect(input).toHaveValue('1234');
    expect(await screen.findByText('The code is 6 digits.')).toBeInTheDocument();
    fillIn('Verification code', '1234567');
    expect(input).toHaveValue('123456');
  });

  it('confirms the code and goes to the confirmed page', async () => {
    vi.mocked(confirmRegistration).mockResolvedValue({} as Awaited<ReturnType<typeof confirmRegistration>>);
    renderConfirmation();
    confirmWith('123456');
    expect(await screen.findByText(`Arrived at ${paths.registerConfirmed}`)).toBeInTheDocument();
    expect(confirmRegistration).toHaveBeenCalledWith(EMAIL, '123456');
  });

  it('says a wrong code is invalid', async () => {
    vi.mocked(confirmRegistration).mockRejectedValue(
      cognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.'),
    );
    renderConfirmation();
    confirmWith('000000');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid verification code provided, please try again.');
  });

  it('says an already confirmed user is confirmed and offers the login', async () => {
    vi.mocked(confirmRegistration).mockRejectedValue(
      cognitoError('NotAuthorizedException', 'User cannot be confirmed. Current status is CONFIRMED'),
    );
    renderConfirmation();
    confirmWith('123456');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your user has already been confirmed.');
    expect(within(alert).getByRole('link', { name: 'Go to login' })).toHaveAttribute(
      'href',
      `${paths.login}?email=alice%40example.com`,
    );
  });

  it('says when the attempt limit is reached', async () => {
    vi.mocked(confirmRegistration).mockRejectedValue(
      cognitoError('LimitExceededException', 'Attempt limit exceeded, please try after some time.'),
    );
    renderConfirmation();
    confirmWith('123456');
    expect(await screen.findByRole('alert')).toHaveTextContent('Attempt limit exceeded, please try later.');
  });

  it('sends an expired code to the activation page, which offers a new one', async () => {
    vi.mocked(confirmRegistration).mockRejectedValue(
      cognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.'),
    );
    const { router } = renderConfirmation();
    confirmWith('123456');
    expect(await screen.findByText(`Arrived at ${paths.activation}`)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=expired&email=alice%40example.com');
  });

  it('resends the code and says so', async () => {
    vi.mocked(resendRegistrationCode).mockResolvedValue({} as Awaited<ReturnType<typeof resendRegistrationCode>>);
    renderConfirmation();
    press('Resend code');
    expect(await screen.findByText('A new code is on its way')).toBeInTheDocument();
    expect(screen.getByText(`We sent it to ${EMAIL}.`)).toBeInTheDocument();
    expect(resendRegistrationCode).toHaveBeenCalledWith(EMAIL);
  });

  it('says the user is already confirmed when a resend is refused for that reason', async () => {
    vi.mocked(resendRegistrationCode).mockRejectedValue(
      cognitoError('InvalidParameterException', 'User is already confirmed.'),
    );
    renderConfirmation();
    press('Resend code');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your user has already been confirmed.');
    expect(within(alert).getByRole('link', { name: 'Go to login' })).toBeInTheDocument();
  });

  it('asks for the email when the link did not carry it, before confirming or resending', async () => {
    vi.mocked(confirmRegistration).mockResolvedValue({} as Awaited<ReturnType<typeof confirmRegistration>>);
    renderConfirmation('');
    press('Resend code');
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(resendRegistrationCode).not.toHaveBeenCalled();
    fillIn('Email address', 'Bob@Example.com');
    confirmWith('654321');
    await waitFor(() => expect(confirmRegistration).toHaveBeenCalledWith('bob@example.com', '654321'));
  });

  it('points to the dev mailbox with a Sandbox chip outside production', () => {
    renderConfirmation();
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'dev mailbox' })).toHaveAttribute(
      'href',
      `${paths.devMailbox}?to=alice%40example.com`,
    );
  });

  it('has no dev mailbox note in production', () => {
    renderConfirmation(undefined, false);
    expect(screen.queryByText('Sandbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'dev mailbox' })).not.toBeInTheDocument();
  });
});
