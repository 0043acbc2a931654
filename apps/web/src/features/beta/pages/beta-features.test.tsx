import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, useQuery } from '@tanstack/react-query';
import { BETA_MESSAGES, type TBetaFeature } from '@connect/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SideMenu } from '../../../components/layouts/main-layout/side-menu.tsx';
import { availableFeaturesQuery, userRoutesQuery } from '../../../lib/current-user.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { API, BRIDGES, createFetchMock, json, PRIVATE_NETWORKS, problem, routesOf } from '../test/fixtures.ts';
import { BetaFeaturesPage } from './beta-features.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USER = '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f';
const LIST = `GET ${API}/beta/features`;
const OPT_IN = (id: string) => `PUT ${API}/beta/features/${id}/optin`;
const OPT_OUT = (id: string) => `DELETE ${API}/beta/features/${id}/optin`;

/** What the server holds: the beta list and whether the account has the bridge feature. */
let server: { features: TBetaFeature[]; hasBridge: boolean };
const optInto = (id: string, optedIn: boolean) => {
  server.features = server.features.map((feature) => (feature.id === id ? { ...feature, optedIn } : feature));
  server.hasBridge = optedIn;
  return json(server.features.find((feature) => feature.id === id));
};
const mock = createFetchMock(() => ({
  [LIST]: () => json({ features: server.features }),
  [OPT_IN(BRIDGES.id)]: () => optInto(BRIDGES.id, true),
  [OPT_OUT(BRIDGES.id)]: () => optInto(BRIDGES.id, false),
  [`GET ${API}/user/routes`]: () => json({ routes: routesOf(server.hasBridge) }),
  [`GET ${API}/available`]: () =>
    json({ availableFeatures: server.hasBridge ? { connectBeta: { t: null, a: 0 }, bridge: { t: null, a: 0 } } : {} }),
}));
const calls = (key: string) => mock.bodies(key).length;

/** The side menu as the frame shows it: from the route list query. */
function Menu() {
  const routes = useQuery(userRoutesQuery(USER));
  useQuery(availableFeaturesQuery(USER));
  return <SideMenu routes={routes.data ?? []} isCollapsed={false} />;
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return renderWithProviders(
    <>
      <Menu />
      <BetaFeaturesPage />
    </>,
    { route: '/beta/features', queryClient },
  );
}

const card = async (name: string) => (await screen.findByRole('article', { name })) as HTMLElement;
const menu = () => screen.getByRole('navigation', { name: 'Main menu' });

describe('BetaFeaturesPage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    server = { features: [BRIDGES, PRIVATE_NETWORKS], hasBridge: false };
    mock.route({});
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
  });

  it('lists each beta feature with its description, access and a labelled opt-in switch', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Connect Beta' })).toBeInTheDocument();
    const bridges = await card('Bridges');
    expect(bridges).toHaveTextContent(BRIDGES.description);
    expect(within(bridges).getByText('Open beta')).toBeInTheDocument();
    expect(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' })).not.toBeChecked();
    const invited = await card('Private networks');
    expect(within(invited).getByText('By invitation')).toBeInTheDocument();
    expect(invited).toHaveTextContent('You were invited to try this feature.');
    // A staff override switched it off: the opt-in stays, and a note says it has no effect.
    const optIn = within(invited).getByRole('switch', { name: 'Opt in to Private networks' });
    expect(optIn).toBeChecked();
    expect(optIn).toHaveAccessibleDescription(/switched off for your account by our team/);
    expect(within(bridges).queryByRole('alert')).toBeNull();
  });

  it('opting in calls PUT …/optin and the menu gains Bridges at once; opting out takes it away', async () => {
    renderPage();
    const bridges = await card('Bridges');
    await waitFor(() => expect(calls(`GET ${API}/user/routes`)).toBe(1));
    fireEvent.click(within(menu()).getByRole('button', { name: 'Quant Flows' }));
    expect(within(menu()).queryByRole('link', { name: 'Bridge Flow' })).toBeNull();

    fireEvent.click(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' }));
    expect(await screen.findByText('Bridges is on for your account')).toBeInTheDocument();
    expect(calls(OPT_IN(BRIDGES.id))).toBe(1);
    expect(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' })).toBeChecked();
    // The route list and the features are read again: the menu shows the area without a reload.
    expect(await within(menu()).findByRole('link', { name: 'Bridge Flow' })).toBeInTheDocument();
    expect(calls(`GET ${API}/user/routes`)).toBe(2);
    expect(calls(`GET ${API}/available`)).toBe(2);

    fireEvent.click(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' }));
    expect(await screen.findByText('Bridges is off for your account')).toBeInTheDocument();
    expect(calls(OPT_OUT(BRIDGES.id))).toBe(1);
    await waitFor(() => expect(within(menu()).queryByRole('link', { name: 'Bridge Flow' })).toBeNull());
    expect(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' })).not.toBeChecked();
  });

  it('says when a change failed and keeps the switch as it was', async () => {
    mock.route({ [OPT_IN(BRIDGES.id)]: () => json(problem(500, 'Something went wrong.'), 500) });
    renderPage();
    const bridges = await card('Bridges');
    fireEvent.click(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' }));
    expect(await screen.findByText(BETA_MESSAGES.optInFailed)).toBeInTheDocument();
    expect(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' })).not.toBeChecked();
    expect(within(bridges).getByRole('switch', { name: 'Opt in to Bridges' })).toBeEnabled();
    expect(calls(`GET ${API}/user/routes`)).toBe(1);
  });

  it('says plainly when there is no beta feature to try', async () => {
    server.features = [];
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No beta features right now' })).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('shows a failed load with a retry that loads the list again', async () => {
    mock.route({ [LIST]: () => json(problem(503, 'The service is unavailable.'), 503) });
    renderPage();
    expect(await screen.findByText(/The beta features could not be loaded/)).toBeInTheDocument();
    mock.route({});
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await card('Bridges')).toBeInTheDocument();
    expect(calls(LIST)).toBe(2);
  });
});
