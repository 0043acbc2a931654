import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TFooter } from '@connect/shared';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { onCookieChoicesRequest } from './cookie-consent.ts';
import { Footer } from './footer.tsx';
import { fetchByPath, json, USER_UUID } from './test-utils.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const SERVER_FOOTER: TFooter = {
  sections: [
    {
      title: 'Developers',
      links: [
        { title: 'API reference', url: 'https://docs.example.com/api', addSuffix: true, feature: null },
        { title: 'Status', url: 'https://status.example.com/', addSuffix: false, feature: null },
      ],
    },
    { title: 'Help', links: [{ title: 'FAQ', url: '/support/faq', addSuffix: false, feature: null }] },
  ],
  secondaryLinks: [
    { title: 'Cookie policy', url: 'https://example.com/cookies?lang=en', addSuffix: true, feature: null },
  ],
};

function renderFooter(answer: () => Response | Promise<Response>) {
  vi.stubGlobal('fetch', fetchByPath({ '/api/connect/content/footer': answer }));
  return renderWithProviders(<Footer />, { route: '/dashboard', path: '*' });
}

// Rendering MUI in jsdom is slow on a loaded machine; the frame's tests get room beyond the 5 s default.
describe('Footer', { timeout: 20_000 }, () => {
  beforeEach(() => {
    session.setMarker(USER_UUID, 'INDIVIDUAL');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it("shows the content service's sections and secondary links, with the source suffix where flagged", async () => {
    renderFooter(() => json(SERVER_FOOTER));
    expect(await screen.findByRole('heading', { name: 'Developers' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Help' })).toBeInTheDocument();

    const api = screen.getByRole('link', { name: 'API reference (opens in a new tab)' });
    expect(api).toHaveAttribute('href', 'https://docs.example.com/api?source=quant-portal');
    expect(api).toHaveAttribute('target', '_blank');
    expect(api.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: 'Status (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://status.example.com/',
    );
    expect(screen.getByRole('link', { name: 'Cookie policy (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://example.com/cookies?lang=en&source=quant-portal',
    );
    // A portal path stays in the SPA.
    const faq = screen.getByRole('link', { name: 'FAQ' });
    expect(faq).toHaveAttribute('href', '/support/faq');
    expect(faq).not.toHaveAttribute('target');
    expect(screen.queryByRole('heading', { name: 'Who we serve' })).not.toBeInTheDocument();
  });

  it('falls back to the default footer when the request fails', async () => {
    renderFooter(() => json({ status: 500, title: 'Internal Server Error' }, 500));
    await expectDefaultFooter();
  });

  it('falls back to the default footer when the answer has no sections', async () => {
    renderFooter(() => json({ sections: [], secondaryLinks: [SERVER_FOOTER.secondaryLinks[0]] }));
    await expectDefaultFooter();
    expect(console.warn).toHaveBeenCalledWith('Footer response is empty!');
    expect(screen.queryByText('Cookie policy')).not.toBeInTheDocument();
  });

  it('shows the social links and the copyright with the current year', async () => {
    renderFooter(() => json(SERVER_FOOTER));
    await screen.findByRole('heading', { name: 'Developers' });
    const social = screen.getByRole('list', { name: 'Social media' });
    const links = within(social).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual([
      'Quant on LinkedIn (opens in a new tab)',
      'Quant on X (opens in a new tab)',
    ]);
    for (const link of links) expect(link).toHaveAttribute('target', '_blank');
    expect(
      screen.getByText(`© ${new Date().getFullYear()} Quant Network Ltd. All rights reserved.`),
    ).toBeInTheDocument();
  });

  it('offers Cookie settings, which opens the cookie choices again (to change or withdraw consent)', async () => {
    const requests = vi.fn();
    const stop = onCookieChoicesRequest(requests);
    renderFooter(() => json(SERVER_FOOTER));
    fireEvent.click(await screen.findByRole('button', { name: 'Cookie settings' }));
    expect(requests).toHaveBeenCalledTimes(1);
    stop();
  });
});

async function expectDefaultFooter() {
  await waitFor(() => expect(screen.getByRole('heading', { name: 'Who we serve' })).toBeInTheDocument());
  const headings = screen.getAllByRole('heading').map((heading) => heading.textContent);
  expect(headings).toEqual(['Who we serve', 'What we do', 'How we do it', 'Why it matters', 'About us']);
  for (const name of ['Privacy policy', 'Terms of use', 'Trademarks']) {
    expect(screen.getByRole('link', { name: `${name} (opens in a new tab)` })).toBeInTheDocument();
  }
  // The default documentation link carries the suffix flag, as in the seeded footer.
  expect(screen.getByRole('link', { name: 'Documentation (opens in a new tab)' })).toHaveAttribute(
    'href',
    'https://docs.quant.network/?source=quant-portal',
  );
}
