// @vitest-environment jsdom
// (jsdom: the test wraps document.cookie's own property descriptor, which happy-dom keeps elsewhere)
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { CookieBanner } from './cookie-banner.tsx';
import { CONSENT_COOKIE, hasConsent, onConsentChange, readConsent, requestCookieChoices } from './cookie-consent.ts';

function clearConsentCookie() {
  document.cookie = `${CONSENT_COOKIE}=; Max-Age=0; Path=/`;
}

const banner = () => screen.queryByRole('region', { name: 'Cookies on this portal' });

// Rendering MUI in jsdom is slow on a loaded machine; the frame's tests get room beyond the 5 s default.
describe('CookieBanner', { timeout: 20_000 }, () => {
  afterEach(() => {
    clearConsentCookie();
    localStorage.clear();
    vi.restoreAllMocks();
  });

  it('asks until the visitor chooses; Accept all remembers every category in the cookie', () => {
    const view = renderWithProviders(<CookieBanner />);
    expect(banner()).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Accept all' }));
    expect(banner()).not.toBeInTheDocument();
    expect(readConsent()).toEqual([1, 2, 3, 4, 5]);

    view.unmount();
    renderWithProviders(<CookieBanner />);
    expect(banner()).not.toBeInTheDocument();
  });

  it('Necessary only stores category 1 alone', () => {
    renderWithProviders(<CookieBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Necessary only' }));
    expect(readConsent()).toEqual([1]);
    expect(hasConsent(4)).toBe(false);
  });

  it('saves the categories switched on in the dialog; necessary stays on', async () => {
    renderWithProviders(<CookieBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Manage choices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose which cookies we may use' });

    const necessary = within(dialog).getByRole('switch', { name: /Necessary/ });
    expect(necessary).toBeChecked();
    expect(necessary).toBeDisabled();
    const measurement = within(dialog).getByRole('switch', { name: 'Measurement' });
    expect(measurement).not.toBeChecked();
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Functionality' }));
    fireEvent.click(measurement);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save choices' }));
    expect(readConsent()).toEqual([1, 2, 4]);
    expect(banner()).not.toBeInTheDocument();
  });

  it('writes a one-year, SameSite=Lax cookie named cookie_consent, not local storage', () => {
    const writes: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      writes.push(value);
      descriptor.set!.call(document, value);
    });
    renderWithProviders(<CookieBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Necessary only' }));

    expect(writes).toHaveLength(1);
    const [pair, ...attributes] = writes[0]!.split('; ');
    expect(pair).toBe(`cookie_consent=${encodeURIComponent('[1]')}`);
    expect(attributes).toEqual(expect.arrayContaining(['Max-Age=31536000', 'Path=/', 'SameSite=Lax']));
    expect(localStorage.length).toBe(0);
  });

  it("opens the choices again on request (the footer's Cookie settings), from the stored choice, to withdraw consent", async () => {
    renderWithProviders(<CookieBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Accept all' }));
    const changes: number[][] = [];
    const stop = onConsentChange((categories) => changes.push(categories));

    act(() => requestCookieChoices());
    const dialog = await screen.findByRole('dialog', { name: 'Choose which cookies we may use' });
    expect(banner()).not.toBeInTheDocument();
    const measurement = within(dialog).getByRole('switch', { name: 'Measurement' });
    expect(measurement).toBeChecked();
    fireEvent.click(measurement);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save choices' }));

    expect(readConsent()).toEqual([1, 2, 3, 5]);
    expect(changes).toEqual([[1, 2, 3, 5]]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(banner()).not.toBeInTheDocument();
    stop();
  });

  it('asks again when the cookie holds something it did not write', () => {
    document.cookie = `${CONSENT_COOKIE}=${encodeURIComponent('[2,9]')}; Path=/`;
    renderWithProviders(<CookieBanner />);
    expect(banner()).toBeInTheDocument();
  });
});
