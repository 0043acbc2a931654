import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { BackToTop } from './back-to-top.tsx';
import { MAIN_CONTENT_ID } from './layout-constants.ts';

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('BackToTop', () => {
  beforeEach(() => {
    vi.stubGlobal('scrollTo', vi.fn());
  });
  afterEach(() => {
    scrollTo(0);
    vi.unstubAllGlobals();
  });

  it('appears once the page is scrolled more than 64 px, and not at 64 px', async () => {
    renderWithProviders(<BackToTop />);
    expect(screen.queryByRole('button', { name: 'Back to top' })).not.toBeInTheDocument();
    scrollTo(64);
    expect(screen.queryByRole('button', { name: 'Back to top' })).not.toBeInTheDocument();
    scrollTo(65);
    expect(screen.getByRole('button', { name: 'Back to top' })).toBeInTheDocument();
    scrollTo(10);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Back to top' })).not.toBeInTheDocument());
  });

  it('scrolls smoothly to the top and moves focus to the content', () => {
    renderWithProviders(
      <>
        <main id={MAIN_CONTENT_ID} tabIndex={-1} />
        <BackToTop />
      </>,
    );
    scrollTo(500);
    fireEvent.click(screen.getByRole('button', { name: 'Back to top' }));
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    expect(document.activeElement).toBe(document.getElementById(MAIN_CONTENT_ID));
  });
});
