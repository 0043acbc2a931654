import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION,
  applicationsAnswer,
  NETWORK_CATALOGUE,
  POLYGON,
  REMOVED_APPLICATION,
  ROLES,
} from '../test/application-fixtures.ts';
import { createFetchMock, json } from '../test/fixtures.ts';
import { renderStaffPage, setUpStaffPageSuite } from '../test/staff-page.ts';
import { ApplicationManagementPage } from './application-management.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const LIST = '/api/application-manager/management/applications/';
/** The list's rows; a test may change what the server answers next. */
let rows = [APPLICATION, REMOVED_APPLICATION];
const mock = createFetchMock(() => ({
  [`GET ${LIST}`]: () => json(applicationsAnswer(rows, { totalItems: rows.length ? 12 : 0 })),
  'GET /api/application-manager/management/networks': () => json(NETWORK_CATALOGUE),
  'GET /api/application-manager/management/application-roles/': () => json(ROLES),
}));

/** The list requests' query strings, in order. */
const listQueries = () =>
  mock.fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === LIST)
    .map((url) => url.searchParams);
const lastQuery = () => listQueries().at(-1)!;

function renderPage(route = '/application-management') {
  return renderStaffPage(<ApplicationManagementPage />, { route, path: '/application-management' });
}

const header = (name: string) => screen.getAllByRole('columnheader').find((cell) => cell.textContent === name)!;
const rowOf = async (name: string) => {
  const cells = await screen.findAllByRole('gridcell', { name: new RegExp(`^${name}`) });
  return cells.find((cell) => cell.dataset.field === 'name')!.closest<HTMLElement>('[role="row"]')!;
};
const cellOf = (row: HTMLElement, field: string) => row.querySelector<HTMLElement>(`[data-field="${field}"]`)!;

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

describe('ApplicationManagementPage', { timeout: 60_000 }, () => {
  setUpStaffPageSuite(mock);
  beforeEach(() => {
    rows = [APPLICATION, REMOVED_APPLICATION];
  });

  it('lists every account’s applications, newest first, with owner, networks and the account’s status', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Application management' })).toBeInTheDocument();
    const row = await rowOf(APPLICATION.name);
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Application',
      'Client id',
      'Owner',
      'Networks',
      'Status',
      'Created',
      'Actions',
    ]);
    expect(Object.fromEntries(listQueries()[0]!)).toEqual({ page: '0', size: '5', sort: 'createdAt:desc' });
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');
    expect(cellOf(row, 'name')).toHaveTextContent('Payments APIDeveloper');
    // The client id shortened in the middle, in full in its title, with its copy button.
    expect(cellOf(row, 'clientId')).toHaveTextContent('abcdef…wxyz');
    expect(
      within(cellOf(row, 'clientId')).getByRole('button', { name: 'Copy the client id of Payments API' }),
    ).toBeVisible();
    expect(cellOf(row, 'ownerEmail')).toHaveTextContent('ada@example.comAnalytical Engines Ltd');
    expect(cellOf(row, 'networks')).toHaveTextContent('Ethereum testnet, Polygon testnetTestnet');
    expect(cellOf(row, 'status')).toHaveTextContent('Active');
    expect(cellOf(row, 'createdAt')).toHaveTextContent('02.11.2026, 10:30');
    const removed = await rowOf(REMOVED_APPLICATION.name);
    expect(cellOf(removed, 'status')).toHaveTextContent('Removed');
    expect(cellOf(removed, 'name')).toHaveTextContent('Old botIntegration');
  });

  it('searches, filters by network and status, and sorts by name, all on the server', async () => {
    const { router } = renderPage();
    await rowOf(APPLICATION.name);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name, client id or owner email' }), {
      target: { value: '  pay  ' },
    });
    await waitFor(() => expect(lastQuery().get('searchTerm')).toBe('pay'));

    await choose('Network', POLYGON.name);
    await waitFor(() => expect(lastQuery().get('networkId')).toBe(POLYGON.id));
    expect(router.state.location.search).toContain(`network=${POLYGON.id}`);

    await choose('Status', 'Removed');
    await waitFor(() => expect(lastQuery().getAll('status')).toEqual(['REMOVED']));
    expect(router.state.location.search).toContain('status=removed');

    fireEvent.click(within(header('Application')).getByText('Application'));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('name:asc'));
  });

  it('narrows the list to an owner’s applications from a row’s menu', async () => {
    renderPage();
    const row = await rowOf(APPLICATION.name);
    fireEvent.click(within(cellOf(row, 'actions')).getByRole('button', { name: 'Actions for Payments API' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: "Show the owner's applications" }));
    await waitFor(() => expect(lastQuery().get('searchTerm')).toBe(APPLICATION.owner!.email));
  });

  it('says when nothing matches and offers to clear; with no application at all, offers to create one', async () => {
    rows = [];
    renderPage('/application-management?search=zzz');
    expect(await screen.findByText('No application matches this search.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    expect(await screen.findByText('No applications yet.')).toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: 'Create application' });
    fireEvent.click(buttons[buttons.length - 1]!);
    expect(await screen.findByRole('dialog', { name: 'Create an application for a user' })).toBeInTheDocument();
  });
});
