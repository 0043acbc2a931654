import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { REWARD_MESSAGES, type TOptinsResponse } from '@connect/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import type { TActiveCampaign } from '../api/get-active-campaigns.ts';
import { PROGRESS_POLL_MS, type TCampaignProgress } from '../api/get-progress.ts';
import {
  API,
  APP_TASK_ID,
  CAMPAIGN,
  CAMPAIGN_ID,
  CLAIM,
  createFetchMock,
  json,
  OPTED_IN,
  OPTINS,
  OTHER_CAMPAIGN,
  OTHER_CAMPAIGN_ID,
  problem,
  progressOf,
} from '../test/fixtures.ts';
import { RewardsPage } from './rewards.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const OPTINS_URL = `GET ${API}/campaigns/optins`;
const OPT_IN = (id: string) => `POST ${API}/campaigns/optins/${id}`;
const mock = createFetchMock();

/** What the server holds; each test sets its own. */
let server: { optins: TOptinsResponse; campaigns: TActiveCampaign[]; progress: TCampaignProgress[] };

function routes(extra: Parameters<typeof mock.route>[0] = {}) {
  mock.route({
    [OPTINS_URL]: () => json(server.optins),
    [`GET ${API}/campaigns/active`]: () => json({ campaigns: server.campaigns }),
    [`GET ${API}/campaigns/progress`]: () => json({ campaigns: server.progress }),
    ...extra,
  });
}

const calls = (key: string) =>
  mock.fetchMock.mock.calls.filter(
    ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}` === key,
  ).length;

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return renderWithProviders(<RewardsPage />, { route: '/rewards', queryClient });
}

const card = async (name: string) => (await screen.findByRole('article', { name })) as HTMLElement;

describe('RewardsPage', { timeout: 40_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    server = { optins: OPTINS, campaigns: [CAMPAIGN, OTHER_CAMPAIGN], progress: [] };
    routes();
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('tells a customer without a paid plan bought with QNT what is needed, and leads to the upgrade', async () => {
    routes({
      [OPTINS_URL]: () => json({ ...OPTINS, allowedToOptIn: false, reason: 'PLAN' }),
      [`GET ${API}/campaigns/active`]: () =>
        json(problem('REWARDS_NEED_QNT_PLAN', 409, REWARD_MESSAGES.rewardsNeedQntPlan), 409),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: REWARD_MESSAGES.rewardsNeedQntPlan })).toBeVisible();
    expect(screen.getByText(/pay for it in QNT/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', '/account-plan/upgrade');
    expect(screen.queryByRole('button', { name: 'Claim' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    // Nothing else is asked: the campaigns would answer 409 (a console error in the browser).
    expect(mock.fetchMock.mock.calls.map(([input]) => String(input))).not.toContain(`${API}/campaigns/active`);
  });

  it('explains rewards, shows the balance and the campaigns, each with its days, value and tasks', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Rewards' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How rewards work' })).toBeInTheDocument();
    expect(screen.getByText('Tasks are checked from what you do')).toBeInTheDocument();
    const december = await card('December builders');
    expect(december).toHaveTextContent('Running');
    expect(december).toHaveTextContent('01.12.2026 – 31.12.2026');
    expect(december).toHaveTextContent('Up to 3.5 QNT');
    expect(december).toHaveTextContent('12 of 100 places taken');
    expect(december).toHaveTextContent('Make 20 gateway calls');
    expect(december).toHaveTextContent('Make gateway calls · 20 needed');
    expect(december).toHaveTextContent('+1.5 QNT');
    expect(within(await card('January builders')).getByText('Opens 01.01.2027')).toBeInTheDocument();
    expect(screen.getByTestId('reward-balance')).toHaveTextContent('0 QNT');
    // Never opted in: no history, no progress to show.
    expect(screen.queryByRole('link', { name: 'History' })).toBeNull();
    expect(within(december).queryByRole('progressbar')).toBeNull();
    expect(calls(`GET ${API}/campaigns/progress`)).toBe(0);
  });

  it('disables Claim with the reason while the balance is below the smallest claim', async () => {
    server.optins = { ...OPTINS, balance: '0.5', minClaim: '1' };
    renderPage();
    const claim = await screen.findByRole('button', { name: 'Claim' });
    expect(claim).toBeDisabled();
    expect(claim).toHaveAccessibleDescription('You can claim once your balance reaches 1 QNT.');
  });

  it('sets allowedToOptIn from the status the opt-in returns', async () => {
    routes({ [OPT_IN(CAMPAIGN_ID)]: () => json({ status: 'OPTED_IN', allowedToOptIn: false }) });
    renderPage();
    const december = await card('December builders');
    fireEvent.click(within(december).getByRole('button', { name: 'Opt in to December builders' }));
    expect(await within(december).findByText(/^You take part since/)).toBeInTheDocument();
    expect(mock.bodies(`POST ${API}/campaigns/optins/${CAMPAIGN_ID}`)).toHaveLength(1);
    // The server said no more: the other campaign's button is disabled, with the reason, at once
    // (GET /campaigns/optins still answers allowedToOptIn: true here, and is not what decided).
    const january = await card('January builders');
    const other = within(january).getByRole('button', { name: 'Opt in to January builders' });
    expect(other).toBeDisabled();
    expect(other).toHaveAccessibleDescription(
      'You already take part in a campaign: you can opt in to another once it ends.',
    );
    expect(calls(OPTINS_URL)).toBe(1);
    // Now taking part: the history opens to them.
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute('href', '/rewards/history');
  });

  it('keeps the other campaigns open when the opt-in says more are allowed', async () => {
    routes({ [OPT_IN(OTHER_CAMPAIGN_ID)]: () => json({ status: 'OPTED_IN', allowedToOptIn: true }) });
    renderPage();
    const january = await card('January builders');
    fireEvent.click(within(january).getByRole('button', { name: 'Opt in to January builders' }));
    expect(await within(january).findByText(/^You take part since/)).toBeInTheDocument();
    expect(within(await card('December builders')).getByRole('button', { name: /Opt in/ })).toBeEnabled();
  });

  it('shows the campaign-full state for a full campaign, without an Opt in button', async () => {
    server.campaigns = [{ ...CAMPAIGN, full: true, optedIn: 100 }];
    renderPage();
    const december = await card('December builders');
    expect(within(december).getByText('Full')).toBeInTheDocument();
    expect(within(december).getByText(REWARD_MESSAGES.campaignFull)).toBeInTheDocument();
    expect(within(december).queryByRole('button', { name: /Opt in/ })).toBeNull();
  });

  it('turns to the campaign-full state when the opt-in answers FULL', async () => {
    routes({ [OPT_IN(CAMPAIGN_ID)]: () => json({ status: 'FULL', allowedToOptIn: true }) });
    renderPage();
    const december = await card('December builders');
    fireEvent.click(within(december).getByRole('button', { name: 'Opt in to December builders' }));
    expect(await within(december).findByText(REWARD_MESSAGES.campaignFull)).toBeInTheDocument();
    expect(within(december).queryByRole('button', { name: /Opt in/ })).toBeNull();
    expect(within(december).queryByText(/You take part/)).toBeNull();
    // The other campaign may still be joined.
    expect(within(await card('January builders')).getByRole('button', { name: /Opt in/ })).toBeEnabled();
  });

  it('says the spec’s words when the opt-in fails', async () => {
    routes({
      [OPT_IN(CAMPAIGN_ID)]: () => json(problem('CAMPAIGN_NOT_OPEN', 409, 'This campaign is not open to opt in.'), 409),
    });
    renderPage();
    const december = await card('December builders');
    fireEvent.click(within(december).getByRole('button', { name: 'Opt in to December builders' }));
    const alert = await within(december).findByRole('alert');
    expect(alert).toHaveTextContent(/^An error occurred while trying to opt in\. Please try again later\.$/);
    expect(within(december).getByRole('button', { name: 'Opt in to December builders' })).toBeEnabled();
    expect(within(await card('January builders')).queryByRole('alert')).toBeNull();
  });

  it('shows the progress per task of a campaign the customer takes part in', async () => {
    server.optins = OPTED_IN;
    server.progress = [progressOf(7)];
    renderPage();
    const december = await card('December builders');
    const calls20 = await within(december).findByRole('progressbar', { name: 'Make 20 gateway calls: 7 of 20' });
    expect(calls20).toHaveAttribute('aria-valuenow', '35');
    expect(within(december).getByText('7 / 20')).toBeInTheDocument();
    const appTask = within(december).getByTestId(`task-${APP_TASK_ID}`);
    expect(within(appTask).getByText('Done')).toBeInTheDocument();
    expect(appTask).toHaveTextContent('Done on 03.12.2026');
    expect(within(appTask).queryByRole('progressbar')).toBeNull();
    expect(december).toHaveTextContent('You take part since 02.12.2026.');
    expect(december).toHaveTextContent('Earned 1.5 QNT of 3.5 QNT');
    expect(within(december).queryByRole('button', { name: /Opt in/ })).toBeNull();
    // The balance, and what a pending claim holds.
    expect(screen.getByTestId('reward-balance')).toHaveTextContent('5.25 QNT');
    expect(screen.getByText('1 QNT held in pending claims')).toBeInTheDocument();
  });

  it('polls the progress, so a task done elsewhere shows within seconds, and the balance follows', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.optins = OPTED_IN;
    server.progress = [progressOf(19)];
    renderPage();
    const december = await card('December builders');
    await within(december).findByRole('progressbar', { name: 'Make 20 gateway calls: 19 of 20' });
    expect(screen.getByTestId('reward-balance')).toHaveTextContent('5.25 QNT');

    server.progress = [progressOf(20)];
    server.optins = { ...OPTED_IN, balance: '7.25' };
    await act(() => vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS + 100));
    await waitFor(() => expect(within(december).queryByRole('progressbar')).toBeNull());
    expect(within(december).getAllByText('Done')).toHaveLength(2);
    expect(december).toHaveTextContent('Earned 3.5 QNT of 3.5 QNT');
    await waitFor(() => expect(screen.getByTestId('reward-balance')).toHaveTextContent('7.25 QNT'));
  });

  it('claims from the balance and shows the balance read again afterwards', async () => {
    server.optins = OPTED_IN;
    server.progress = [progressOf(7)];
    routes({
      [`POST ${API}/reward`]: (body) => {
        server.optins = { ...OPTED_IN, balance: '3.25', held: '3' };
        return json({ ...CLAIM, ...(body as object), amountClaimed: '2' }, 201);
      },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim QNT' });
    const address = within(dialog).getByRole('textbox', { name: /^Ethereum address/ });
    fireEvent.change(address, { target: { value: CLAIM.address } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Confirm claim' }));
    expect(await within(dialog).findByTestId('tracking-code')).toHaveTextContent(CLAIM.trackingCode);
    expect(mock.bodies(`POST ${API}/reward`)).toEqual([
      { address: CLAIM.address, qnt: '2', idempotencyKey: expect.any(String) },
    ]);
    expect(screen.getByTestId('reward-balance')).toHaveTextContent('3.25 QNT');
    expect(screen.getByText('3 QNT held in pending claims')).toBeInTheDocument();
  });

  it('says when no campaign is open', async () => {
    server.campaigns = [];
    renderPage();
    expect(await screen.findByText('No campaign is open right now')).toBeInTheDocument();
  });
});
