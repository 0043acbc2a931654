import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths.ts';
import { resendRegistrationCode } from '../../../lib/auth.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { SLOW_RENDER_MS, cognitoError, destinations, fillIn, press } from '../test/utils.tsx';
import { ActivationPage } from './activation.tsx';

vi.mock('../../../lib/auth.ts');

function renderActivation(search: string) {
  return renderWithProviders(<ActivationPage />, {
    route: `${paths.activation}${search}`,
    path: paths.activation,
    routes: destinations(paths.registerConfirmation, paths.login),
  });
}

describe('ActivationPage', { timeout: SLOW_RENDER_MS }, () => {
  beforeEach(() => {
    vi.resetAllMocks();
  });

  it('says the account is activated and leads to the login', () => {
    renderActivation('?status=activated&email=alice%40example.com');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Account activated');
    expect(screen.getByRole('link', { name: 'Continue to login' })).toHaveAttribute(
      'href',
      `${paths.login}?email=alice%40example.com`,
    );
  });

  it('says an activated email is already activated', () => {
    renderActivation('?status=already-activated');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText('Email already activated.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to login' })).toHaveAttribute('href', paths.login);
  });

  it('offers a new code for an expired one, then asks for it', async () => {
    vi.mocked(resendRegistrationCode).mockResolvedValue({} as Awaited<ReturnType<typeof resendRegistrationCode>>);
    const { router } = renderActivation('?status=expired&email=alice%40example.com');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('This code has expired');
    press('Resend code');
    expect(await screen.findByText(`Arrived at ${paths.registerConfirmation}`)).toBeInTheDocument();
    expect(resendRegistrationCode).toHaveBeenCalledWith('alice@example.com');
    expect(router.state.location.search).toBe('?email=alice%40example.com');
    expect(screen.getByText('A new code is on its way')).toBeInTheDocument();
  });

  it('asks for the address when the expired link has none', async () => {
    vi.mocked(resendRegistrationCode).mockResolvedValue({} as Awaited<ReturnType<typeof resendRegistrationCode>>);
    renderActivation('?status=expired');
    fillIn('Email address', 'bob@example.com');
    press('Resend code');
    expect(await screen.findByText(`Arrived at ${paths.registerConfirmation}`)).toBeInTheDocument();
    expect(resendRegistrationCode).toHaveBeenCalledWith('bob@example.com');
  });

  it('stays and explains when the resend is refused', async () => {
    vi.mocked(resendRegistrationCode).mockRejectedValue(
      cognitoError('InvalidParameterException', 'User is already confirmed.'),
    );
    renderActivation('?status=expired&email=alice%40example.com');
    press('Resend code');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your user has already been confirmed.');
    expect(within(alert).getByRole('link', { name: 'Go to login' })).toBeInTheDocument();
  });

  it('sends an unknown status back to login', () => {
    renderActivation('?status=whatever');
    expect(screen.getByText('Something went wrong, please go back to login.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to login' })).toHaveAttribute('href', paths.login);
  });
});
