import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { json, NEW_USER } from '../test/fixtures.ts';
import { TermsConditionsPage } from './terms-conditions.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USER = NEW_USER;

const TERMS = {
  version: '2026-10-01',
  title: 'Terms and Conditions',
  url: 'https://example.com/terms/',
  publishedAt: '2026-10-01T12:00:00.000Z',
};

const fetchMock = vi.fn<typeof fetch>();

function renderPage() {
  return renderWithProviders(<TermsConditionsPage />, {
    route: '/terms-conditions',
    queryClient,
    routes: [{ path: '/dashboard', element: <p>Dashboard page</p> }],
  });
}

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('TermsConditionsPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    session.setMarker(USER.id, USER.role);
    queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('shows the latest terms with their version, date with dots and a link to the full text', async () => {
    fetchMock.mockResolvedValue(json(TERMS));
    renderPage();
    // The first test of the file pays for the first MUI render: room for a busy machine.
    expect(
      await screen.findByRole('heading', { name: 'Terms and Conditions' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Version 2026-10-01 · published 01.10.2026')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: /Read the full terms/ });
    expect(link).toHaveAttribute('href', TERMS.url);
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('asks for the checkbox before accepting and sends nothing without it', async () => {
    fetchMock.mockResolvedValue(json(TERMS));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Accept and continue' }));
    expect(await screen.findByText('Please accept the terms and conditions to continue.')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('accepts the latest version, stores the answered user and goes on to the dashboard', async () => {
    const accepted = { ...USER, acceptedTerms: true, acceptedTermsVersion: TERMS.version };
    fetchMock.mockImplementation(async (input, init) => (init?.method === 'POST' ? json(accepted) : json(TERMS)));
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }));
    fireEvent.click(screen.getByRole('button', { name: 'Accept and continue' }));

    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(post?.[0]).toBe('/api/connect/terms-conditions');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ version: '2026-10-01' });
    expect(queryClient.getQueryData<TUser>(currentUserQuery(USER.id).queryKey)?.acceptedTerms).toBe(true);
  });

  it('shows the server’s reason and stays when the version is refused', async () => {
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'POST'
        ? json(
            {
              status: 400,
              title: 'Bad Request',
              invalidParams: [
                {
                  name: 'version',
                  reason: 'These terms are not the latest version. Please reload and accept the latest terms.',
                },
              ],
            },
            400,
          )
        : json(TERMS),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Accept and continue' }));
    expect(
      await screen.findByText('These terms are not the latest version. Please reload and accept the latest terms.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Dashboard page')).not.toBeInTheDocument());
  });

  it('offers a retry when the terms cannot be loaded', async () => {
    fetchMock.mockResolvedValueOnce(json({ status: 404, title: 'Not Found' }, 404)).mockResolvedValueOnce(json(TERMS));
    renderPage();
    expect(await screen.findByText('The terms and conditions could not be loaded.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Terms and Conditions' })).toBeInTheDocument();
  });
});
