import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  TAvailableFeatures,
  TContentFeature,
  TContentUpdate,
  TGettingStarted,
  TSubscription,
  TUser,
} from '@connect/shared';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { session } from '../../../lib/storage.ts';
import { ANNUAL, CATALOGUE, TRIAL } from '../../../test/plans.ts';
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

/** GET /subscription: the trial, ending on 22.11.2026, with credits in the thousands. */
const PLAN: TSubscription = {
  ...TRIAL,
  trialEndsAt: '2026-11-22T12:00:00.000Z',
  credits: { available: 12500, balance: 12500, floor: 0 },
};
/** GET /available: the features' totals, which follow the plan. */
const TOTALS: TAvailableFeatures = {
  'applications:create': { t: 3, a: 1 },
  'tokens:create': { t: 5, a: 0 },
  'bridges:create': { t: 2, a: 0 },
};

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

/** As the server builds them from the product catalogue: the product's name is the id. */
const FEATURES: TContentFeature[] = [
  {
    id: 'networks',
    title: 'Networks',
    description: 'Connect to networks.',
    icon: 'hub',
    linkUrl: '/my-networks',
    order: 0,
  },
  {
    id: 'docs',
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
  totals?: () => Response;
  updates?: () => Response;
  news?: () => Response;
  features?: () => Response;
  checklist?: () => Response;
};
const fetchMock = vi.fn<typeof fetch>();

function answer({
  plan = () => json(PLAN),
  totals = () => json({ availableFeatures: TOTALS }),
  updates = () => json(page(UPDATES)),
  news = () => json({ ...page(EARLIER), number: 1, totalElements: 4, totalPages: 2 }),
  features = () => json({ features: FEATURES }),
  checklist = () => json(CHECKLIST),
}: Answers = {}) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/account-plan/subscription') return plan();
    if (url === '/api/account-plan/v2/fetch-plans') return json(CATALOGUE);
    if (url === '/api/connect/available') return totals();
    if (url === '/api/connect/content/updates?page=0&size=3') return updates();
    if (url === '/api/connect/content/updates?page=1&size=3') return news();
    if (url === `/api/connect/user/${USER.id}/getting-started`) return checklist();
    if (url === '/api/connect/content/features') return features();
    return json({ status: 404, title: 'Not Found' }, 404);
  });
}

function renderPage(user: TUser = USER) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  return renderWithProviders(<DashboardPage />, { route: '/dashboard', queryClient });
}

/** An IntersectionObserver the test drives: `reveal()` brings every observed element into view. */
function stubObserver() {
  const observed: { element: Element; callback: IntersectionObserverCallback }[] = [];
  class Observer {
    constructor(private readonly callback: IntersectionObserverCallback) {}
    observe(element: Element) {
      observed.push({ element, callback: this.callback });
    }
    disconnect() {}
    unobserve() {}
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', Observer);
  return {
    reveal: () =>
      act(() => {
        for (const { element, callback } of observed)
          callback(
            [{ target: element, isIntersecting: true } as unknown as IntersectionObserverEntry],
            {} as IntersectionObserver,
          );
      }),
  };
}

// Whole MUI pages render slowly in jsdom; a form journey takes seconds on a loaded runner.
describe('DashboardPage', { timeout: 20_000 }, () => {
  // The product areas are their own chunk, imported when they come into view: transformed once
  // here rather than inside a test's wait.
  beforeAll(() => import('../components/features-section.tsx'), 60_000);
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

  it.each([null, '  '])(
    'greets a user without a first name (%j, as the bootstrapped administrator) in one sentence, no full stop where the name was',
    async (firstName) => {
      answer();
      renderPage({ ...USER, firstName, role: 'QUANT_ADMIN' });
      expect(
        screen.getByText(/^Good (morning|afternoon|evening) — here is what is happening on your account\.$/),
      ).toBeInTheDocument();
      expect(screen.queryByText(/Good (morning|afternoon|evening)[.,]/)).not.toBeInTheDocument();
    },
  );

  it('shows the plan with its status, renewal date with dots and an upgrade link, and the credits grouped', async () => {
    answer();
    renderPage();
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(await within(plan).findByText('Trial')).toBeInTheDocument();
    expect(within(plan).getByText('Active')).toBeInTheDocument();
    expect(within(plan).getByText('Free trial until 22.11.2026')).toBeInTheDocument();
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

  it('counts applications, tokens and bridges against the totals of the plan, and flags one above it', async () => {
    answer({
      totals: () =>
        json({
          availableFeatures: {
            ...TOTALS,
            'applications:create': { t: 3, a: 5 },
            'bridges:create': { t: null, a: 4 },
            // The Bridges beta opted in (issue 35 §5): the account has the bridge feature.
            bridge: { t: null, a: 0 },
          },
        }),
    });
    renderPage();
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(await within(plan).findByTestId('counter-applications')).toHaveTextContent(
      "Applications5 of 3above your plan's allowance",
    );
    expect(within(plan).getByTestId('counter-tokens')).toHaveTextContent('Tokens0 of 5');
    expect(within(plan).getByTestId('counter-bridges')).toHaveTextContent('Bridges4 (no limit)');
  });

  it.each([
    ['without the bridge feature', {}],
    ['with the bridge feature switched off by staff', { bridge: { t: 0, a: 0 } }],
  ])('does not count bridges for an account %s, whatever the plan allows', async (_name, bridge) => {
    answer({ totals: () => json({ availableFeatures: { ...TOTALS, ...bridge, 'bridges:create': { t: 2, a: 1 } } }) });
    renderPage();
    const plan = await screen.findByRole('region', { name: 'Your plan' });
    expect(await within(plan).findByTestId('counter-applications')).toHaveTextContent('Applications1 of 3');
    expect(within(plan).getByTestId('counter-tokens')).toHaveTextContent('Tokens0 of 5');
    expect(within(plan).queryByTestId('counter-bridges')).not.toBeInTheDocument();
    expect(within(plan).queryByText('Bridges')).not.toBeInTheDocument();
  });

  it('shows the renewal of a paid plan, and its end once cancelled', async () => {
    answer({ plan: () => json({ ...ANNUAL, cancelAtPeriodEnd: true }) });
    renderPage();
    expect(await screen.findByText('Ends on 10.11.2027')).toBeInTheDocument();
    answer({ plan: () => json(ANNUAL) });
    renderPage();
    expect(await screen.findByText('Renews on 10.11.2027')).toBeInTheDocument();
  });

  it('warns when the credits run low, with Buy credits where the plan sells bundles', async () => {
    answer({ plan: () => json({ ...ANNUAL, lowCredits: true, credits: { available: 12, balance: 12, floor: 0 } }) });
    renderPage();
    const credits = await screen.findByRole('region', { name: 'Credits' });
    expect(await within(credits).findByText('Your credits are running low')).toBeInTheDocument();
    expect(within(credits).getByText(/You have 12 credits left/)).toBeInTheDocument();
    expect(await within(credits).findByRole('link', { name: 'Buy credits' })).toHaveAttribute(
      'href',
      '/my-account?buy-credits',
    );
    // What used them: the usage page.
    expect(within(credits).getByRole('link', { name: 'See usage' })).toHaveAttribute('href', '/usage');
  });

  it('warns the trial when its credits run low, with Upgrade plan (the trial sells no credits)', async () => {
    answer({ plan: () => json({ ...PLAN, lowCredits: true, credits: { available: 8, balance: 8, floor: 0 } }) });
    renderPage();
    const credits = await screen.findByRole('region', { name: 'Credits' });
    const warning = await within(credits).findByText('Your credits are running low');
    const alert = warning.closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/account-plan/upgrade');
    expect(within(credits).queryByRole('link', { name: 'Buy credits' })).not.toBeInTheDocument();
  });

  it('shows the credit limit of pay as you go beside the available credits', async () => {
    answer({ plan: () => json({ ...ANNUAL, credits: { available: 1040, balance: 40, floor: -1000 } }) });
    renderPage();
    const credits = await screen.findByRole('region', { name: 'Credits' });
    expect(await within(credits).findByText('1,040')).toBeInTheDocument();
    expect(within(credits).getByText(/credit limit of 1,000 credits below zero/)).toBeInTheDocument();
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
    const observer = stubObserver();
    answer();
    renderPage();
    await screen.findByText('Earlier 1');
    observer.reveal();
    const networks = await screen.findByRole('link', { name: /Networks/ }, { timeout: 10_000 });
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
    expect(await screen.findByText('Free trial until 22.11.2026')).toBeInTheDocument();
  });

  it('says so when there are no updates or features yet', async () => {
    const observer = stubObserver();
    answer({ updates: () => json(page([])), news: () => json(page([])), features: () => json({ features: [] }) });
    renderPage();
    expect(await screen.findByText('There are no updates yet.')).toBeInTheDocument();
    expect(await screen.findByText('No earlier news yet.')).toBeInTheDocument();
    observer.reveal();
    expect(await screen.findByText('No areas to show yet.', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('shows skeletons while loading', () => {
    fetchMock.mockImplementation(() => new Promise<Response>(() => undefined));
    renderPage();
    expect(screen.getByLabelText('Loading the latest updates')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByLabelText('Loading the earlier news')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByLabelText('Loading your first steps')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByLabelText('Loading the platform areas')).toHaveAttribute('aria-busy', 'true');
  });
  describe('below the fold', () => {
    it('loads the product areas (code and request) only once the section comes into view', async () => {
      const observer = stubObserver();
      answer();
      renderPage();
      const section = await screen.findByRole('region', { name: 'Explore the platform' });
      // Everything above it has answered; the areas are still a skeleton of their final size.
      expect(await screen.findByText('Earlier 1')).toBeInTheDocument();
      expect(within(section).getByLabelText('Loading the platform areas')).toHaveAttribute('aria-busy', 'true');
      const asked = () => fetchMock.mock.calls.map(([input]) => String(input));
      expect(asked()).not.toContain('/api/connect/content/features');

      observer.reveal();
      expect(await within(section).findByRole('link', { name: /Networks/ }, { timeout: 15_000 })).toHaveAttribute(
        'href',
        '/my-networks',
      );
      expect(asked()).toContain('/api/connect/content/features');
    });
  });
});
