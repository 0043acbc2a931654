import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { CONSENT_COOKIE, readConsent } from './cookie-consent.ts';
import { FramePlaceholder } from './frame-placeholder.tsx';
import { MENU_COLLAPSED_KEY } from './layout-constants.ts';

describe('FramePlaceholder (a signed-in start, before the session is restored)', () => {
  afterEach(() => {
    document.cookie = `${CONSENT_COOKIE}=; Max-Age=0; Path=/`;
    localStorage.clear();
  });

  it('shows the product, a busy content area and the cookie banner, whose choice is kept', () => {
    renderWithProviders(<FramePlaceholder />);
    expect(screen.getByLabelText('Quant Connect')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Necessary only' }));
    expect(screen.queryByRole('region', { name: 'Cookies on this portal' })).not.toBeInTheDocument();
    expect(readConsent()).toEqual([1]);
  });

  it("keeps the menu's column at the width the frame will have", () => {
    localStorage.setItem(MENU_COLLAPSED_KEY, 'true');
    const { container } = renderWithProviders(<FramePlaceholder />);
    expect(container.querySelector<HTMLElement>('.c-frame-menu')?.style.width).toBe('72px');
  });
});
