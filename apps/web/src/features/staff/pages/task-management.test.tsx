import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFetchMock, json } from '../test/fixtures.ts';
import {
  ACTIVE_CAMPAIGN,
  ACTIVITIES_URL,
  ACTIVITY_LIST,
  APP_TASK,
  CALLS_TASK,
  campaignDetail,
  CAMPAIGNS_URL,
  DRAFT_CAMPAIGN,
  problemBody,
} from '../test/reward-fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { TaskManagementPage } from './task-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const DETAIL = `${CAMPAIGNS_URL}/${DRAFT_CAMPAIGN.id}`;
const TASKS = `${DETAIL}/tasks`;
const mock = createFetchMock(() => ({
  [`GET ${DETAIL}`]: () => json(campaignDetail(DRAFT_CAMPAIGN)),
  [`GET ${CAMPAIGNS_URL}/${ACTIVE_CAMPAIGN.id}`]: () => json(campaignDetail(ACTIVE_CAMPAIGN)),
  [`GET ${ACTIVITIES_URL}`]: () => json(ACTIVITY_LIST),
  [`POST ${TASKS}`]: () => json(CALLS_TASK, 201),
  [`PUT ${TASKS}/${CALLS_TASK.externalId}`]: () => json(CALLS_TASK),
  [`DELETE ${CAMPAIGNS_URL}/tasks/${APP_TASK.taskId}`]: () => new Response(null, { status: 204 }),
}));

function renderPage(campaignId = DRAFT_CAMPAIGN.id) {
  return renderStaffPage(<TaskManagementPage />, {
    route: `/campaign-management/${campaignId}`,
    path: '/campaign-management/:campaignId',
  });
}

const tasksTable = () => screen.findByRole('table', { name: 'Tasks' });
const rowOf = async (name: string) => (await screen.findByText(name)).closest<HTMLElement>('tr')!;
/** Picks an activity in the task dialog's select. */
async function chooseActivity(dialog: HTMLElement, option: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Activity/ }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

describe('TaskManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);

  it('shows the campaign and its tasks with spec §3’s columns', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'December builders' })).toBeInTheDocument();
    expect(screen.getByText('Build in December')).toBeInTheDocument();
    expect(screen.getByText('01.12.2026 – 31.12.2026')).toBeInTheDocument();
    expect(screen.getByText('0 / 100')).toBeInTheDocument();
    const table = await tasksTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Type name', 'Sub type', 'Name', 'Description', 'Value', 'Status', 'Actions']);
    const app = await rowOf('Register an app');
    expect(
      within(app)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Applications',
      'Register an application1 time',
      'Register an app',
      'Register your first application.',
      '2.5 QNT',
      'Published',
      expect.any(String),
    ]);
    const calls = await rowOf('Make 20 calls');
    expect(calls).toHaveTextContent('Make gateway calls20 times');
    expect(calls).toHaveTextContent('5 QNT');
    expect(calls).toHaveTextContent('Draft');
  });

  it('asks for a threshold only for an activity that counts, and adds the task as a draft', async () => {
    renderPage();
    await tasksTable();
    fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add task' });
    expect(within(dialog).queryByRole('textbox', { name: /How many/ })).toBeNull();

    await chooseActivity(dialog, 'Account · Verify your identity');
    expect(within(dialog).queryByRole('textbox', { name: /How many/ })).toBeNull();
    await chooseActivity(dialog, 'Applications · Make gateway calls');
    const threshold = within(dialog).getByRole('textbox', { name: /How many/ });
    // One by default; an emptied field is refused.
    expect(threshold).toHaveValue('1');
    fireEvent.change(threshold, { target: { value: '' } });

    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Make 100 calls' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Value/ }), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add task' }));
    expect(await within(dialog).findByText('At least 1.')).toBeInTheDocument();
    expect(within(dialog).getByText('The amount must be more than 0.')).toBeInTheDocument();
    expect(mock.bodies(`POST ${TASKS}`)).toEqual([]);

    fireEvent.change(threshold, { target: { value: '100' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Value/ }), { target: { value: '3.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.bodies(`POST ${TASKS}`)).toEqual([
      {
        name: 'Make 100 calls',
        description: '',
        activityType: 'GATEWAY_CALLS',
        threshold: 100,
        value: '3.5',
        status: 'DRAFT',
      },
    ]);
  });

  it('sends 1 as the threshold of a one-off activity, whatever the hidden field held', async () => {
    renderPage();
    await tasksTable();
    fireEvent.click(screen.getByRole('button', { name: 'Add task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add task' });
    await chooseActivity(dialog, 'Applications · Make gateway calls');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /How many/ }), { target: { value: '50' } });
    await chooseActivity(dialog, 'Billing · Pay an invoice');
    expect(within(dialog).queryByRole('textbox', { name: /How many/ })).toBeNull();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Pay a bill' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Value/ }), { target: { value: '1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(mock.bodies(`POST ${TASKS}`)).toHaveLength(1));
    expect(mock.bodies(`POST ${TASKS}`)[0]).toMatchObject({ activityType: 'INVOICE_PAID', threshold: 1 });
  });

  it('publishes a draft task with the whole task, and deletes one after a confirmation naming it', async () => {
    renderPage();
    await tasksTable();
    fireEvent.click(screen.getByRole('button', { name: 'Publish Make 20 calls' }));
    await waitFor(() => expect(mock.bodies(`PUT ${TASKS}/${CALLS_TASK.externalId}`)).toHaveLength(1));
    expect(mock.bodies(`PUT ${TASKS}/${CALLS_TASK.externalId}`)[0]).toEqual({
      name: 'Make 20 calls',
      description: '',
      activityType: 'GATEWAY_CALLS',
      threshold: 20,
      value: '5',
      status: 'PUBLISHED',
    });
    expect(await screen.findByText('Make 20 calls is published')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Register an app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Register an app?' });
    expect(dialog).toHaveTextContent('its value of 2.5 QNT');
    expect(mock.bodies(`DELETE ${CAMPAIGNS_URL}/tasks/${APP_TASK.taskId}`)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.bodies(`DELETE ${CAMPAIGNS_URL}/tasks/${APP_TASK.taskId}`)).toHaveLength(1);
  });

  it('edits a task with its current values and keeps its status', async () => {
    renderPage();
    await tasksTable();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Make 20 calls' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Make 20 calls' });
    const threshold = await within(dialog).findByRole('textbox', { name: /How many/ });
    expect(threshold).toHaveValue('20');
    fireEvent.change(threshold, { target: { value: '25' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(mock.bodies(`PUT ${TASKS}/${CALLS_TASK.externalId}`)).toHaveLength(1));
    expect(mock.bodies(`PUT ${TASKS}/${CALLS_TASK.externalId}`)[0]).toMatchObject({ threshold: 25, status: 'DRAFT' });
  });

  it('keeps a campaign that is not a draft as it is: every task action refused, its tooltip saying why', async () => {
    renderPage(ACTIVE_CAMPAIGN.id);
    await tasksTable();
    const add = screen.getByRole('button', { name: 'Add task' });
    expect(add).toHaveAttribute('aria-disabled', 'true');
    expect(add).toHaveAccessibleDescription('Tasks can be changed only while the campaign is a draft.');
    const remove = screen.getByRole('button', { name: 'Delete Register an app' });
    expect(remove).toHaveAttribute('aria-disabled', 'true');
    expect(remove).toHaveAccessibleDescription('Tasks can be changed only while the campaign is a draft.');
    fireEvent.click(remove);
    fireEvent.click(add);
    fireEvent.click(screen.getByRole('button', { name: 'Convert Register an app to draft' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(mock.fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET')).toEqual([]);
    // The campaign's own action: an active campaign can only be ended.
    expect(screen.getByRole('button', { name: 'End now' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit campaign' })).toBeNull();
  });

  it('says so when the campaign does not exist', async () => {
    mock.route({
      [`GET ${DETAIL}`]: () => json(problemBody('CAMPAIGN_NOT_FOUND', 'The campaign was not found.', 404), 404),
    });
    renderPage();
    expect(await screen.findByText('This campaign does not exist, or it was deleted.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All campaigns' })).toHaveAttribute('href', '/campaign-management');
  });
});
