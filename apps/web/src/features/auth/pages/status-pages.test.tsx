import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { destinations, SLOW_RENDER_MS } from '../test/utils.tsx';
import { RegisterConfirmedPage } from './register-confirmed.tsx';
import { ResetPasswordConfirmationPage } from './reset-password-confirmation.tsx';

describe.each([
  ['RegisterConfirmedPage', RegisterConfirmedPage, paths.registerConfirmed, 'Email confirmed'],
  ['ResetPasswordConfirmationPage', ResetPasswordConfirmationPage, paths.resetPasswordConfirmation, 'Password reset'],
])('%s', { timeout: SLOW_RENDER_MS }, (_name, Page, path, title) => {
  it('says what happened and continues to the login with the address filled in', async () => {
    const { router } = renderWithProviders(<Page />, {
      route: `${path}?email=alice%40example.com`,
      path,
      routes: destinations(paths.login),
    });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
    fireEvent.click(screen.getByRole('link', { name: 'Continue to login' }));
    expect(await screen.findByText(`Arrived at ${paths.login}`)).toBeInTheDocument();
    expect(router.state.location.search).toBe('?email=alice%40example.com');
  });
});
