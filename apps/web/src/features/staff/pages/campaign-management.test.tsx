import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '../test/fixtures.ts';
import {
  ACTIVE_CAMPAIGN,
  CAMPAIGNS_URL,
  campaignsAnswer,
  COMPLETED_CAMPAIGN,
  DRAFT_CAMPAIGN,
  problemBody,
  PUBLISHED_CAMPAIGN,
  TREASURY,
  TREASURY_URL,
} from '../test/reward-fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { CampaignManagementPage } from './campaign-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const OPEN_ROWS = [ACTIVE_CAMPAIGN, PUBLISHED_CAMPAIGN, DRAFT_CAMPAIGN];
const mock = createFetchMock(() => ({
  [`GET ${CAMPAIGNS_URL}`]: (_body, url) =>
    url.searchParams.getAll('status').includes('COMPLETED')
      ? json(campaignsAnswer([COMPLETED_CAMPAIGN], { totalElements: 12, page: Number(url.searchParams.get('page')) }))
      : json(campaignsAnswer(OPEN_ROWS, { totalElements: 3 })),
  [`GET ${TREASURY_URL}`]: () => json(TREASURY),
}));

/** The list requests' query strings, in order. */
const listQueries = () =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === CAMPAIGNS_URL)
    .map((url) => url.searchParams);
const openQueries = () => listQueries().filter((query) => !query.getAll('status').includes('COMPLETED'));
const completedQueries = () => listQueries().filter((query) => query.getAll('status').includes('COMPLETED'));

function renderPage(route = '/campaign-management') {
  return renderStaffPage(<CampaignManagementPage />, {
    route,
    path: '/campaign-management',
    routes: [{ path: '/campaign-management/:campaignId', element: <p>Task page</p> }],
  });
}

const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
const rowOf = async (name: string) => {
  const cells = await screen.findAllByRole('gridcell', { name });
  return cells.find((cell) => cell.dataset.field === 'name')!.closest<HTMLElement>('[role="row"]')!;
};
const openMenu = async (name: string) => {
  fireEvent.click(within(await rowOf(name)).getByRole('button', { name: `Actions for ${name}` }));
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
};

describe('CampaignManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);

  it('opens on All statuses, asking for ACTIVE, PUBLISHED and DRAFT, with each tab’s count and spec §3’s columns', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Campaign management' })).toBeInTheDocument();
    const active = await rowOf('November builders');
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Name',
      'Visible name',
      'QNT value',
      'Tasks',
      'Start',
      'End',
      'Participants',
      'Status',
      'Actions',
    ]);
    expect(Object.fromEntries(openQueries()[0]!)).toEqual({
      status: 'DRAFT',
      page: '0',
      size: '5',
      sort: 'startDate:desc',
    });
    expect(openQueries()[0]!.getAll('status')).toEqual(['ACTIVE', 'PUBLISHED', 'DRAFT']);
    expect(completedQueries()[0]!.getAll('status')).toEqual(['COMPLETED']);
    expect(active).toHaveTextContent('Build in November');
    expect(active).toHaveTextContent('1,234.5 QNT');
    expect(active).toHaveTextContent('01.11.2026');
    expect(active).toHaveTextContent('30.11.2026');
    expect(active).toHaveTextContent('1,250 / 2,000');
    expect(active).toHaveTextContent('Active');
    expect(screen.getByRole('tab', { name: /All statuses/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: /All statuses/ })).toHaveTextContent('3');
    await waitFor(() => expect(screen.getByRole('tab', { name: /Completed/ })).toHaveTextContent('12'));
    expect(header('Start')).toHaveAttribute('aria-sort', 'descending');
    // The treasury the budgets come from: 10,000 held, 750 promised, 9,250 free.
    const treasury = screen.getByRole('region', { name: 'Treasury on Local QNT chain' });
    expect(treasury).toHaveTextContent('10,000 QNT');
    expect(treasury).toHaveTextContent('9,250 QNT');
  });

  it('pages each tab on its own: the completed tab asks for COMPLETED only, zero-based on the wire', async () => {
    const { router } = renderPage();
    await rowOf('November builders');
    fireEvent.click(screen.getByRole('tab', { name: /Completed/ }));
    await rowOf('October builders');
    expect(router.state.location.search).toBe('?tab=completed');
    expect(screen.getByText('1–5 of 12')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(completedQueries().at(-1)!.get('page')).toBe('1'));
    expect(completedQueries().at(-1)!.getAll('status')).toEqual(['COMPLETED']);
    expect(router.state.location.search).toBe('?tab=completed&page=2');
    await screen.findByText('6–10 of 12');
    // Back on All statuses: its own first page, and its list asked for the open statuses again.
    fireEvent.click(screen.getByRole('tab', { name: /All statuses/ }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(openQueries().every((query) => query.get('page') === '0')).toBe(true);
  });

  it('cycles a column’s sort none → ascending → descending → none on the wire', async () => {
    renderPage();
    await rowOf('November builders');
    const lastOpen = () => openQueries().at(-1)!;
    fireEvent.click(header('Name'));
    await waitFor(() => expect(lastOpen().get('sort')).toBe('name:asc'));
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Start')).toHaveAttribute('aria-sort', 'none');
    fireEvent.click(header('Name'));
    await waitFor(() => expect(lastOpen().get('sort')).toBe('name:desc'));
    const before = openQueries().length;
    fireEvent.click(header('Name'));
    await waitFor(() => expect(openQueries().length).toBe(before + 1));
    expect(lastOpen().get('sort') ?? '').toBe('');
    // The visible name and the value do not sort.
    fireEvent.click(header('Visible name'));
    fireEvent.click(header('QNT value'));
    expect(screen.getAllByRole('columnheader').filter((cell) => cell.getAttribute('aria-sort') !== 'none')).toEqual([]);
  });

  it('creates a campaign: the shared schema’s errors under the fields, the server’s field errors too, then its tasks', async () => {
    let answer = json(
      {
        ...problemBody('INVALID_REQUEST', 'The request is not valid.', 400),
        invalidParams: [{ name: 'name', reason: 'A campaign with this name exists.' }],
      },
      400,
    );
    mock.route({ [`POST ${CAMPAIGNS_URL}`]: () => answer });
    const { router } = renderPage();
    await rowOf('November builders');
    fireEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'New campaign' });
    // Next month by default (campaigns are monthly).
    expect(within(dialog).getByLabelText(/Start date/)).not.toHaveValue('');

    fireEvent.change(within(dialog).getByLabelText(/End date/), { target: { value: '2020-01-01' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Participants/ }), { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create campaign' }));
    expect(await within(dialog).findAllByText('This field is required.')).toHaveLength(2);
    expect(within(dialog).getByText('A whole number of participants.')).toBeInTheDocument();
    expect(mock.bodies(`POST ${CAMPAIGNS_URL}`)).toEqual([]);

    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'February builders' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Visible name/ }), {
      target: { value: 'Build in February' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Participants/ }), { target: { value: '50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create campaign' }));
    expect(await within(dialog).findByText('The end date is on or after the start date.')).toBeInTheDocument();
    expect(mock.bodies(`POST ${CAMPAIGNS_URL}`)).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(/Start date/), { target: { value: '2027-02-01' } });
    fireEvent.change(within(dialog).getByLabelText(/End date/), { target: { value: '2027-02-28' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create campaign' }));
    // The server's reason under the field it names.
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await waitFor(() => expect(name).toHaveAccessibleDescription('A campaign with this name exists.'));
    expect(mock.bodies(`POST ${CAMPAIGNS_URL}`)).toEqual([
      {
        name: 'February builders',
        visibleName: 'Build in February',
        startDate: '2027-02-01',
        endDate: '2027-02-28',
        participants: 50,
      },
    ]);

    const created = { ...DRAFT_CAMPAIGN, id: '7e000000-0000-4000-8000-000000000009', name: 'February builders 2' };
    answer = json(created, 201);
    fireEvent.change(name, { target: { value: 'February builders 2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create campaign' }));
    // A new campaign opens on its tasks.
    await waitFor(() => expect(router.state.location.pathname).toBe(`/campaign-management/${created.id}`));
  });

  it('offers each status’s actions, and deletes a draft after a confirmation naming it, saying spec §8’s text on failure', async () => {
    mock.route({
      [`DELETE ${CAMPAIGNS_URL}/${DRAFT_CAMPAIGN.id}`]: () =>
        json(problemBody('CAMPAIGN_NOT_DRAFT', 'Only a draft campaign can be changed or deleted.'), 409),
    });
    renderPage();
    expect(await openMenu('November builders')).toEqual(['Tasks', 'End now']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(await openMenu('January builders')).toEqual(['Tasks', 'Back to draft']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(await openMenu('December builders')).toEqual(['Tasks', 'Edit campaign', 'Publish', 'Delete']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete December builders?' });
    expect(mock.bodies(`DELETE ${CAMPAIGNS_URL}/${DRAFT_CAMPAIGN.id}`)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('Campaign deletion failed. Only a draft campaign can be changed or deleted.'),
    ).toBeInTheDocument();
    expect(mock.bodies(`DELETE ${CAMPAIGNS_URL}/${DRAFT_CAMPAIGN.id}`)).toHaveLength(1);
  });

  it('publishes through update-status after saying the budget, and shows the server’s refusal in its words', async () => {
    const refusal = 'The treasury does not hold this campaign’s budget beside what is already promised.';
    mock.route({
      [`PUT ${CAMPAIGNS_URL}/${DRAFT_CAMPAIGN.id}/update-status`]: () =>
        json(problemBody('TREASURY_SHORT', refusal), 409),
    });
    renderPage();
    await openMenu('December builders');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish December builders?' });
    // 7.5 QNT for each of 100 participants.
    expect(dialog).toHaveTextContent('Its budget, 750 QNT (7.5 QNT for each of 100 participants)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(mock.bodies(`PUT ${CAMPAIGNS_URL}/${DRAFT_CAMPAIGN.id}/update-status`)).toEqual([{ status: 'PUBLISHED' }]);
  });

  it('opens a campaign’s tasks from its row', async () => {
    const { router } = renderPage();
    fireEvent.click(await rowOf('December builders'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/campaign-management/${DRAFT_CAMPAIGN.id}`));
  });

  it('says so when the treasury cannot be read, and the list still works', async () => {
    mock.route({
      [`GET ${TREASURY_URL}`]: () =>
        json(problemBody('TREASURY_UNAVAILABLE', 'Reward payouts are not configured.', 503), 503),
    });
    renderPage();
    await rowOf('November builders');
    expect(await screen.findByText(/The treasury could not be read/)).toHaveTextContent(
      'Reward payouts are not configured.',
    );
  });
});
