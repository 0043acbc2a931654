import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TContentFeature, TContentUpdate, TGettingStarted, TPlanInfo, TUser } from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { DashboardPage } from './dashboard.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USER = {
  id: '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f',
  firstName: 'Ada',
  role: 'INDIVIDUAL',
} as TUser;

const PLAN: TPlanInfo = { name: 'Trial', status: 'ACTIVE', credits: 12500, renewsAt: '2026-11-22T12:00:00.000Z' };

const update = (n: number, overrides: Partial<TContentUpdate> = {}): TContentUpdate => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  title: `Update ${n}`,
  description: `What changed in update ${n}.`,
  imageUrl: null,
  linkUrl: '/my-networks',
  publishedAt: `2026-11-0${n}T12:00:00.000Z`,
  ...overrides,
});
const UPDATES = [update(3), update(2), update(1)];
const page = (content: TContentUpdate[]) => ({
  content,
  totalElements: content.length,
  totalPages: 1,
  number: 0,
  size: 3,
});

const FEATURES: TContentFeature[] = [
  {
    id: '10000000-0000-4000-8000-000000000001',
    title: 'Networks',
    description: 'Connect to networks.',
    icon: 'hub',
    linkUrl: '/my-networks',
    order: 0,
  },
  {
    id: '10000000-0000-4000-8000-000000000002',
    title: 'Docs',
    description: 'Read the guides.',
    icon: 'unknown',
    linkUrl: 'https://docs.example.com/',
    order: 1,
  },
];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const EARLIER = [update(4, { title: 'Earlier 1', publishedAt: '2026-10-20T12:00:00.000Z' })];
const CHECKLIST: TGettingStarted = {
  steps: [
    { step: 'verifyIdentity', isDone: true },
    { step: 'selectNetworks', isDone: false },
    { step: 'registerApplication', isDone: false },
    { step: 'firstGatewayCall', isDone: false },
    { step: 'firstToken', isDone: false },
  ],
};

type Answers = {
  plan?: () => Response;
  updates?: () => Response;
  news?: () => Response;
  features?: () => Response;
  checklist?: () => Response;
};
const fetchMock = vi.fn<typeof fetch>();

function answer({
  plan = () => json(PLAN),
  updates = () => json(page(UPDATES)),
  news = () => json({ ...page(EARLIER), number: 1, totalElements: 4, totalPages: 2 }),
  features = () => json({ features: FEATURES }),
  checklist = () => json(CHECKLIST),
}: Answers = {}) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/account-plan/user-plan') return plan();
    if (url === '/api/connect/content/updates?page=0&size=3') return updates();
    if (url === '/api/connect/content/updates?page=1&size=3') return news();
    if (url === `/api/connect/user/${USER.id}/getting-started`) return checklist();
    if (url === '/api/connect/content/features') return features();
    return json({ status: 404, title: 'Not Found' }, 404);
  });
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  session.setMarker(USER.id, USER.role);
  queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
  return renderWithProviders(<DashboardPage />, { route: '/dashboard', queryClient });
}

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('DashboardPage', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('greets the user by name under the Dashboard title', async () => {
    answer();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText(/^Good (morning|afternoon|evening), Ada\./)).toBeInTheDocument();
  });

  it('shows the plan with its status, renewal date with dots and an upgrade link, and the credits grouped', async () => {
    answer();
    renderPage();
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(await within(plan).findByText('Trial')).toBeInTheDocument();
    expect(within(plan).getByText('Active')).toBeInTheDocument();
    expect(within(plan).getByText('Renews on 22.11.2026')).toBeInTheDocument();
    expect(within(plan).getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/account-plan/upgrade');
    const credits = screen.getByRole('region', { name: 'Credits' });
    expect(within(credits).getByText('12,500')).toBeInTheDocument();
  });

  it('offers no second upgrade while a plan change is pending', async () => {
    answer({ plan: () => json({ ...PLAN, status: 'PENDING' }) });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Upgrade pending' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Upgrade plan' })).not.toBeInTheDocument();
  });

  it('shows the latest updates as a carousel, and the earlier ones as news without repeating them', async () => {
    answer();
    renderPage();
    const carousel = await screen.findByRole('region', { name: 'Latest updates' });
    expect(await within(carousel).findByRole('group', { name: '1 of 3' })).toHaveTextContent('Update 3');
    expect(within(carousel).getByRole('button', { name: 'Next update' })).toBeInTheDocument();
    const news = screen.getByRole('region', { name: 'Earlier news' });
    await within(news).findByText('Earlier 1');
    // Not one headline of the carousel appears again in the news.
    expect(
      within(news)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Earlier 1']);
    expect(within(news).getByText('20.10.2026')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/connect/content/updates?page=0&size=3', expect.anything());
    expect(fetchMock).toHaveBeenCalledWith('/api/connect/content/updates?page=1&size=3', expect.anything());
  });

  it('opens with the getting-started checklist of the account', async () => {
    answer();
    renderPage();
    const checklist = await screen.findByRole('region', { name: 'Get started' });
    expect(await within(checklist).findByText('1 of 5 steps done')).toBeInTheDocument();
    expect(within(checklist).getByRole('link', { name: 'Select networks' })).toHaveAttribute(
      'href',
      '/my-networks/select-new-networks',
    );
  });

  it('lists the features as cards linking to their areas', async () => {
    answer();
    renderPage();
    const networks = await screen.findByRole('link', { name: /Networks/ });
    expect(networks).toHaveAttribute('href', '/my-networks');
    expect(networks).not.toHaveAttribute('target');
    const docs = screen.getByRole('link', { name: /Docs/ });
    expect(docs).toHaveAttribute('href', 'https://docs.example.com/');
    expect(docs).toHaveAttribute('target', '_blank');
  });

  it('shows an error with a retry for a section that failed, and loads it again', async () => {
    let failures = 1;
    answer({
      updates: () =>
        failures-- > 0 ? json({ status: 500, title: 'Internal Server Error' }, 500) : json(page(UPDATES)),
    });
    renderPage();
    expect(await screen.findByText('The latest updates could not be loaded.')).toBeInTheDocument();
    // The rest of the dashboard is unaffected.
    expect(await screen.findByText('Trial')).toBeInTheDocument();
    expect(await screen.findByText('Earlier 1')).toBeInTheDocument();

    fireEvent.click(
      within(screen.getByRole('region', { name: 'Latest updates' })).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByRole('group', { name: '1 of 3' })).toHaveTextContent('Update 3');
    expect(screen.queryByText('The latest updates could not be loaded.')).not.toBeInTheDocument();
  });

  it('shows the news error with its own retry', async () => {
    answer({ news: () => json({ status: 500, title: 'Internal Server Error' }, 500) });
    renderPage();
    expect(await screen.findByText('The news could not be loaded.')).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: '1 of 3' })).toHaveTextContent('Update 3');
    answer();
    fireEvent.click(
      within(screen.getByRole('region', { name: 'Earlier news' })).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByText('Earlier 1')).toBeInTheDocument();
  });

  it('shows the plan error with a retry', async () => {
    answer({ plan: () => json({ status: 500, title: 'Internal Server Error' }, 500) });
    renderPage();
    expect(await screen.findByText('Your plan could not be loaded.')).toBeInTheDocument();
    answer();
    fireEvent.click(
      within(screen.getByRole('region', { name: 'Your plan' })).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByText('Renews on 22.11.2026')).toBeInTheDocument();
  });

  it('says so when there are no updates or features yet', async () => {
    answer({ updates: () => json(page([])), news: () => json(page([])), features: () => json({ features: [] }) });
    renderPage();
    expect(await screen.findByText('There are no updates yet.')).toBeInTheDocument();
    expect(await screen.findByText('No earlier news yet.')).toBeInTheDocument();
    expect(await screen.findByText('No areas to show yet.')).toBeInTheDocument();
  });

  it('shows skeletons while loading', () => {
    fetchMock.mockImplementation(() => new Promise<Response>(() => undefined));
    renderPage();
    expect(screen.getByLabelText('Loading the latest updates')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByLabelText('Loading the earlier news')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByLabelText('Loading your first steps')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByLabelText('Loading the platform areas')).toHaveAttribute('aria-busy', 'true');
  });
});
