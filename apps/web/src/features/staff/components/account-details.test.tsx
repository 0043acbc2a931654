import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAccountOverride, TAccountOverridesResponse, TAvailableFeatures, TUser } from '@connect/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { auditLogKey } from '../api/get-audit-log.ts';
import { managementAccountsKey } from '../api/get-management-accounts.ts';
import {
  ACCOUNT,
  ACCOUNT_FEATURES,
  ACCOUNT_OVERRIDES,
  accountsAnswer,
  auditAnswer,
  createFetchMock,
  json,
  PENDING_ACCOUNT,
  SALES,
} from '../test/fixtures.ts';
import { AccountDetails } from './account-details.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const FEATURES = `/api/connect/management/feature/account/${ACCOUNT.accountId}`;
const OVERRIDES = `/api/connect/management/accounts/${ACCOUNT.accountId}/overrides`;
const TRIAL = `/api/account-plan/management/accounts/${ACCOUNT.accountId}/trial-extension`;
const AT = '2026-11-22T10:00:00.000Z';

/*
 * A stand-in for the server's overrides: PUT and DELETE change what the next GETs answer, as the
 * entitlements module does (the override wins over the plan; a switch shows in the feature map).
 */
let overrides: TAccountOverridesResponse;
let features: TAvailableFeatures;
const PLAN_ALLOWANCES_IN_FORCE = { ...ACCOUNT_OVERRIDES.allowances!, applications: 5 };

function putOverride(key: string, body: unknown): Response {
  const value = body as TAccountOverride['value'];
  const override = { key, value, setBy: SALES.id, setAt: AT } as TAccountOverride;
  overrides = {
    overrides: [...overrides.overrides.filter((o) => o.key !== key), override],
    allowances:
      overrides.allowances && 'amount' in value
        ? { ...overrides.allowances, [key]: value.amount }
        : overrides.allowances,
  };
  if ('enabled' in value) {
    features = { ...features };
    if (value.enabled) features[key] = { t: null, a: 0 };
    else delete features[key];
  }
  return json(override);
}

function deleteOverride(key: string): Response {
  overrides = {
    overrides: overrides.overrides.filter((o) => o.key !== key),
    allowances:
      overrides.allowances && key in overrides.allowances
        ? {
            ...overrides.allowances,
            [key]: PLAN_ALLOWANCES_IN_FORCE[key as keyof typeof PLAN_ALLOWANCES_IN_FORCE],
          }
        : overrides.allowances,
  };
  return json(undefined, 204);
}

const urlOf = (key: string) => `${OVERRIDES}/${key}`;
const mock = createFetchMock(() => ({
  [`GET ${FEATURES}`]: () => json({ availableFeatures: features }),
  [`GET ${OVERRIDES}`]: () => json(overrides),
  [`PUT ${urlOf('mynetworks%3Av2')}`]: (body) => putOverride('mynetworks:v2', body),
  [`PUT ${urlOf('connectBeta')}`]: (body) => putOverride('connectBeta', body),
  [`DELETE ${urlOf('bridge')}`]: () => deleteOverride('bridge'),
  [`PUT ${urlOf('applications')}`]: (body) => putOverride('applications', body),
  [`PUT ${urlOf('tokens')}`]: (body) => putOverride('tokens', body),
  [`DELETE ${urlOf('applications')}`]: () => deleteOverride('applications'),
}));

const calls = () =>
  mock.fetchMock.mock.calls.map(([input, init]) => ({
    method: init?.method ?? 'GET',
    path: new URL(String(input), 'http://localhost').pathname,
  }));
const count = (method: string, path: string) =>
  calls().filter((call) => call.method === method && call.path === path).length;

function renderDetails(user: TUser = SALES, account = ACCOUNT) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  renderWithProviders(<AccountDetails account={account} onClose={() => undefined} />, { queryClient });
  return screen.getByRole('dialog', { name: account.organisationName! });
}

const section = (panel: HTMLElement, name: 'Features' | 'Allowances') => within(panel).getByRole('region', { name });
/** The row (a dt with its dds) whose dt reads `name`, once loaded. */
async function rowOf(region: HTMLElement, name: string) {
  const term = await within(region).findByText(name, { selector: 'dt' });
  return term.parentElement!;
}
const stateOf = (row: HTMLElement) => row.querySelector('dt')!.nextElementSibling!.textContent;
const pressed = (group: HTMLElement) =>
  within(group)
    .getAllByRole('button')
    .filter((button) => button.getAttribute('aria-pressed') === 'true')
    .map((button) => button.textContent);
/** The snackbar saying `title` (its Alert holds the title, then any description). */
const snackbar = async (title: string) =>
  (await screen.findByText(title, { selector: '.MuiAlertTitle-root' })).closest('[role="alert"]');

describe('AccountDetails overrides', { timeout: 30_000 }, () => {
  beforeEach(() => {
    overrides = structuredClone(ACCOUNT_OVERRIDES);
    features = structuredClone(ACCOUNT_FEATURES.availableFeatures);
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({});
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('shows per switch its state, its override (Plan default when none) and an Overridden chip for the overridden ones', async () => {
    const panel = renderDetails();
    const featuresRegion = section(panel, 'Features');

    const bridges = await rowOf(featuresRegion, 'Bridges');
    const bridgesGroup = await within(bridges).findByRole('group', { name: 'Bridges override' });
    expect(pressed(bridgesGroup)).toEqual(['On']);
    expect(within(bridges).getByText('Overridden')).toBeInTheDocument();

    const rewards = await rowOf(featuresRegion, 'Rewards');
    expect(pressed(within(rewards).getByRole('group', { name: 'Rewards override' }))).toEqual(['Plan default']);
    expect(within(rewards).queryByText('Overridden')).toBeNull();
    expect(stateOf(rewards)).toBe('On');
    expect(stateOf(await rowOf(featuresRegion, 'Connect Beta'))).toBe('Off');
    // Only the two overrides are marked: Bridges here, Applications among the allowances.
    expect(within(featuresRegion).getAllByText('Overridden')).toHaveLength(1);
    // The usage counters have no switch.
    expect(within(await rowOf(featuresRegion, 'Tokens')).queryByRole('group')).toBeNull();

    const allowances = section(panel, 'Allowances');
    const applications = await rowOf(allowances, 'Applications');
    expect(within(applications).getByText('10')).toBeInTheDocument();
    expect(within(applications).getByText('Overridden')).toBeInTheDocument();
    expect(within(allowances).getAllByText('Overridden')).toHaveLength(1);
    const texts = (name: string) => rowOf(allowances, name).then((row) => row.textContent);
    expect(await texts('Tokens')).toBe('Tokens3Edit');
    expect(await texts('Blockchains (0 = all)')).toBe('Blockchains (0 = all)0Edit');
    expect(await texts('Rate limit (requests per second)')).toBe('Rate limit (requests per second)1,500Edit');
    expect(
      within(allowances)
        .getAllByRole('button', { name: /^Edit / })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([
      'Edit Applications',
      'Edit Tokens',
      'Edit Bridges',
      'Edit Blockchains (0 = all)',
      'Edit Mainnets',
      'Edit Testnets',
      'Edit Rate limit (requests per second)',
    ]);
  });

  it('switches a feature on with PUT {enabled: true} to the encoded key, disabled while saving, then refetches the overrides and features', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    mock.route({
      [`PUT ${urlOf('mynetworks%3Av2')}`]: ((body: unknown) =>
        held.then(() => putOverride('mynetworks:v2', body))) as unknown as (body: unknown) => Response,
    });
    const panel = renderDetails();
    const row = await rowOf(section(panel, 'Features'), 'My networks');
    const group = await within(row).findByRole('group', { name: 'My networks override' });
    const [overridesBefore, featuresBefore] = [count('GET', OVERRIDES), count('GET', FEATURES)];

    fireEvent.click(within(group).getByRole('button', { name: 'On' }));
    await waitFor(() => expect(mock.bodies(`PUT ${urlOf('mynetworks%3Av2')}`)).toEqual([{ enabled: true }]));
    // The choice being saved shows, and nothing can be pressed until it is done.
    expect(pressed(group)).toEqual(['On']);
    for (const button of within(group).getAllByRole('button')) expect(button).toBeDisabled();

    release();
    expect(await snackbar('My networks switched on for Analytical Engines Ltd')).toBeInTheDocument();
    expect(count('GET', OVERRIDES)).toBe(overridesBefore + 1);
    expect(count('GET', FEATURES)).toBe(featuresBefore + 1);
    await waitFor(() => expect(within(group).getByRole('button', { name: 'Off' })).toBeEnabled());
    expect(within(row).getByText('Overridden')).toBeInTheDocument();
    expect(pressed(group)).toEqual(['On']);
  });

  it('switches a feature off with PUT {enabled: false}, and its state follows the refetched features', async () => {
    const panel = renderDetails();
    const row = await rowOf(section(panel, 'Features'), 'Connect Beta');
    const group = await within(row).findByRole('group', { name: 'Connect Beta override' });
    fireEvent.click(within(group).getByRole('button', { name: 'On' }));
    await waitFor(() => expect(stateOf(row)).toBe('On'));
    expect(await snackbar('Connect Beta switched on for Analytical Engines Ltd')).toBeInTheDocument();

    fireEvent.click(within(group).getByRole('button', { name: 'Off' }));
    await waitFor(() => expect(stateOf(row)).toBe('Off'));
    expect(mock.bodies(`PUT ${urlOf('connectBeta')}`)).toEqual([{ enabled: true }, { enabled: false }]);
    expect(pressed(group)).toEqual(['Off']);
    expect(within(row).getByText('Overridden')).toBeInTheDocument();
  });

  it('gives a switch back to the plan with DELETE when Plan default is chosen, and drops its chip', async () => {
    const panel = renderDetails();
    const row = await rowOf(section(panel, 'Features'), 'Bridges');
    const group = await within(row).findByRole('group', { name: 'Bridges override' });
    // Choosing what is already chosen sends nothing.
    fireEvent.click(within(group).getByRole('button', { name: 'On' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Plan default' }));
    await waitFor(() => expect(count('DELETE', urlOf('bridge'))).toBe(1));
    expect(await snackbar('Override cleared')).toBeInTheDocument();
    await waitFor(() => expect(within(row).queryByText('Overridden')).toBeNull());
    expect(pressed(group)).toEqual(['Plan default']);
    expect(calls().filter((call) => call.method !== 'GET')).toEqual([{ method: 'DELETE', path: urlOf('bridge') }]);
  });

  it('shows the server’s message under a switch that could not be changed, and keeps the previous choice', async () => {
    mock.route({
      [`PUT ${urlOf('connectBeta')}`]: () =>
        json({ status: 409, code: 'CONFLICT', title: 'Conflict', detail: 'The account was removed.' }, 409),
    });
    const panel = renderDetails();
    const row = await rowOf(section(panel, 'Features'), 'Connect Beta');
    const group = await within(row).findByRole('group', { name: 'Connect Beta override' });
    fireEvent.click(within(group).getByRole('button', { name: 'Off' }));
    expect(await within(row).findByRole('alert')).toHaveTextContent('The account was removed.');
    expect(pressed(group)).toEqual(['Plan default']);
    expect(within(group).getByRole('button', { name: 'Off' })).toBeEnabled();
  });

  it('edits an allowance: refuses negatives, fractions, words and too large numbers, then sends PUT {amount}', async () => {
    const panel = renderDetails();
    const allowances = section(panel, 'Allowances');
    const row = await rowOf(allowances, 'Tokens');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Tokens' }));
    const field = within(row).getByRole('textbox', { name: /^Tokens/ });
    expect(field).toHaveValue('3');
    expect(field).toHaveFocus();
    // Not overridden: nothing to give back to the plan.
    expect(within(row).queryByRole('button', { name: 'Use plan value' })).toBeNull();

    for (const [typed, message] of [
      ['-1', 'Enter a whole number, 0 or more.'],
      ['abc', 'Enter a whole number, 0 or more.'],
      ['2.5', 'Enter a whole number, 0 or more.'],
      ['', 'Enter a whole number, 0 or more.'],
      ['3000000000', 'Enter at most 2,147,483,647.'],
    ] as const) {
      fireEvent.change(field, { target: { value: typed } });
      fireEvent.blur(field);
      fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
      expect(await within(row).findByText(message)).toBeInTheDocument();
    }
    expect(mock.bodies(`PUT ${urlOf('tokens')}`)).toEqual([]);

    const overridesBefore = count('GET', OVERRIDES);
    fireEvent.change(field, { target: { value: ' 25 ' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mock.bodies(`PUT ${urlOf('tokens')}`)).toEqual([{ amount: 25 }]));
    expect(await snackbar('Tokens set to 25')).toBeInTheDocument();
    // The form closes on the refetched value, now marked, and Edit has the focus back.
    await waitFor(() => expect(within(row).queryByRole('textbox')).toBeNull());
    expect(count('GET', OVERRIDES)).toBe(overridesBefore + 1);
    expect(row.textContent).toBe('TokensOverridden25Edit');
    expect(within(row).getByRole('button', { name: 'Edit Tokens' })).toHaveFocus();
  });

  it('gives an overridden allowance back to the plan with DELETE from “Use plan value”', async () => {
    const panel = renderDetails();
    const row = await rowOf(section(panel, 'Allowances'), 'Applications');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Applications' }));
    fireEvent.click(within(row).getByRole('button', { name: 'Use plan value' }));
    await waitFor(() => expect(count('DELETE', urlOf('applications'))).toBe(1));
    expect(await snackbar('Override cleared')).toBeInTheDocument();
    await waitFor(() => expect(row.textContent).toBe('Applications5Edit'));
    expect(mock.bodies(`PUT ${urlOf('applications')}`)).toEqual([]);
  });

  it('shows the server’s message in the allowance form and keeps it open with what was typed', async () => {
    mock.route({
      [`PUT ${urlOf('applications')}`]: () =>
        json({ status: 404, code: 'NOT_FOUND', title: 'Not Found', detail: 'The account was not found.' }, 404),
    });
    const panel = renderDetails();
    const row = await rowOf(section(panel, 'Allowances'), 'Applications');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Applications' }));
    const field = within(row).getByRole('textbox', { name: /^Applications/ });
    fireEvent.change(field, { target: { value: '12' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
    expect(await within(row).findByRole('alert')).toHaveTextContent('The account was not found.');
    expect(field).toHaveValue('12');
    expect(within(row).getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('closes the allowance form with Escape, leaving the panel open', async () => {
    const panel = renderDetails();
    const row = await rowOf(section(panel, 'Allowances'), 'Mainnets');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit Mainnets' }));
    fireEvent.keyDown(within(row).getByRole('textbox', { name: /^Mainnets/ }), { key: 'Escape' });
    await waitFor(() => expect(within(row).queryByRole('textbox')).toBeNull());
    expect(screen.getByRole('dialog', { name: ACCOUNT.organisationName! })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Edit Mainnets' })).toHaveFocus();
  });

  it('says “No plan in service” when the account has no plan', async () => {
    overrides = { overrides: [], allowances: null };
    const panel = renderDetails();
    const allowances = section(panel, 'Allowances');
    expect(await within(allowances).findByText('No plan in service')).toBeInTheDocument();
    expect(within(allowances).queryByRole('button', { name: /^Edit/ })).toBeNull();
  });
});

describe('AccountDetails trial extension', { timeout: 30_000 }, () => {
  const TITLE = 'Extend the trial of Analytical Engines Ltd';
  const extended = (trialEndsAt: string) => json({ accountId: ACCOUNT.accountId, planStatus: 'ACTIVE', trialEndsAt });

  beforeEach(() => {
    overrides = structuredClone(ACCOUNT_OVERRIDES);
    features = structuredClone(ACCOUNT_FEATURES.availableFeatures);
    // Only Date: the account's plan ends 02.12.2026, 10:30, three days from this "now".
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T09:00:00.000Z'));
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({});
  });
  afterEach(() => {
    vi.useRealTimers();
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  /** Opens the dialog from the panel's Extend trial button. */
  function openDialog(account = ACCOUNT) {
    const panel = renderDetails(SALES, account);
    const open = within(panel).getByRole('button', { name: 'Extend trial' });
    // A pointer's press focuses the button first (a fired click does not).
    open.focus();
    fireEvent.click(open);
    const dialog = screen.getByRole('dialog', { name: `Extend the trial of ${account.organisationName!}` });
    return {
      panel,
      dialog,
      days: within(dialog).getByRole('textbox', { name: /^Days/ }),
      reason: within(dialog).getByRole('textbox', { name: /^Reason/ }),
      submit: within(dialog).getByRole('button', { name: 'Extend trial' }),
    };
  }
  const posts = () => calls().filter((call) => call.method === 'POST');

  it('sends {days, reason} to the account’s trial-extension, disabled while sending, then says the new end, closes and refreshes the list and the audit log', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    mock.route({
      [`POST ${TRIAL}`]: (() => held.then(() => extended('2027-01-01T10:30:00.000Z'))) as unknown as () => Response,
    });
    // A list page and an audit-log page already loaded: both must be asked again.
    const listKey = [...managementAccountsKey, 'list', { page: 0 }];
    const auditKey = [...auditLogKey, 'list', { page: 0 }];
    queryClient.setQueryData(listKey, accountsAnswer([ACCOUNT]));
    queryClient.setQueryData(auditKey, auditAnswer([]));

    const { panel, dialog, days, reason, submit } = openDialog();
    expect(days).toHaveValue('14');
    expect(days).toHaveFocus();
    // The later of today and the plan's end (02.12.2026, 10:30), plus the days.
    expect(dialog).toHaveTextContent('New end: 16.12.2026, 10:30');
    fireEvent.change(days, { target: { value: '30' } });
    expect(dialog).toHaveTextContent('New end: 01.01.2027, 10:30');
    fireEvent.change(reason, { target: { value: '  Evaluating the mainnet tier  ' } });

    fireEvent.click(submit);
    await waitFor(() =>
      expect(mock.bodies(`POST ${TRIAL}`)).toEqual([{ days: 30, reason: 'Evaluating the mainnet tier' }]),
    );
    expect(posts()).toEqual([{ method: 'POST', path: TRIAL }]);
    // Nothing can be changed or sent again until the answer.
    expect(submit).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(days).toBeDisabled();
    expect(reason).toBeDisabled();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: TITLE })).toBeInTheDocument();

    release();
    expect(await snackbar('Trial extended to 01.01.2027, 10:30')).toHaveTextContent('For Analytical Engines Ltd.');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull());
    expect(queryClient.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(auditKey)?.isInvalidated).toBe(true);
    expect(screen.getByRole('dialog', { name: ACCOUNT.organisationName! })).toBe(panel);
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Extend trial' })).toHaveFocus());
  });

  it('counts the new end from today when the plan has ended, and gives no new end when the plan’s end is unknown', async () => {
    vi.setSystemTime(new Date('2026-12-10T08:00:00.000Z'));
    const { dialog, days } = openDialog();
    expect(dialog).toHaveTextContent('New end: 24.12.2026, 08:00');
    // No new end while the days are not 1–365 whole days.
    fireEvent.change(days, { target: { value: '0' } });
    expect(dialog).not.toHaveTextContent('New end');
    fireEvent.change(days, { target: { value: '366' } });
    expect(dialog).not.toHaveTextContent('New end');
    fireEvent.change(days, { target: { value: '7' } });
    expect(dialog).toHaveTextContent('New end: 17.12.2026, 08:00');
    cleanup();

    // The pending account's plan has no end in the row: the dialog says how the days count instead.
    const other = openDialog(PENDING_ACCOUNT);
    expect(other.dialog).not.toHaveTextContent('New end');
    expect(other.dialog).toHaveTextContent('From 1 to 365 days');
  });

  it('refuses 0 days, 400 days, a number that is not whole and an empty or blank reason without sending anything', async () => {
    const { dialog, days, reason, submit } = openDialog();
    const errorUnder = (field: HTMLElement) =>
      document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent;
    fireEvent.change(reason, { target: { value: 'Evaluating' } });

    for (const [typed, message] of [
      ['0', 'At least 1 day.'],
      ['400', 'At most 365 days.'],
      ['2.5', 'Enter a whole number of days.'],
      ['', 'Enter a whole number of days.'],
    ] as const) {
      fireEvent.change(days, { target: { value: typed } });
      fireEvent.click(submit);
      await waitFor(() => expect(errorUnder(days)).toBe(message));
      expect(days).toHaveAttribute('aria-invalid', 'true');
    }

    fireEvent.change(days, { target: { value: '14' } });
    for (const typed of ['', '   ']) {
      fireEvent.change(reason, { target: { value: typed } });
      fireEvent.click(submit);
      await waitFor(() => expect(errorUnder(reason)).toBe('A reason is required.'));
    }
    fireEvent.change(reason, { target: { value: 'x'.repeat(501) } });
    fireEvent.click(submit);
    await waitFor(() => expect(errorUnder(reason)).toBe('Must be at most 500 characters.'));
    expect(errorUnder(days)).toBe('New end: 16.12.2026, 10:30');

    expect(posts()).toEqual([]);
    expect(screen.getByRole('dialog', { name: TITLE })).toBe(dialog);
  });

  it('shows the server’s 409 in the dialog, keeping what was typed, and sends again once asked', async () => {
    mock.route({
      [`POST ${TRIAL}`]: () =>
        json(
          {
            status: 409,
            code: 'TRIAL_NOT_EXTENDABLE',
            title: 'Conflict',
            detail: 'Only an account on the trial can have its trial extended.',
          },
          409,
        ),
    });
    const { dialog, days, reason, submit } = openDialog();
    fireEvent.change(reason, { target: { value: 'Evaluating' } });
    fireEvent.click(submit);
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The trial could not be extended');
    expect(alert).toHaveTextContent('Only an account on the trial can have its trial extended.');
    expect(screen.getByRole('dialog', { name: TITLE })).toBe(dialog);
    expect(days).toHaveValue('14');
    expect(reason).toHaveValue('Evaluating');
    expect(submit).toBeEnabled();
    expect(screen.queryByText(/^Trial extended/)).toBeNull();

    fireEvent.click(submit);
    await waitFor(() => expect(posts()).toHaveLength(2));
  });

  it('puts the server’s field refusal (400 invalidParams) under its field', async () => {
    mock.route({
      [`POST ${TRIAL}`]: () =>
        json(
          {
            status: 400,
            code: 'INVALID_REQUEST',
            title: 'Bad Request',
            detail: 'Too vague.',
            invalidParams: [{ name: 'reason', reason: 'Too vague.' }],
          },
          400,
        ),
    });
    const { dialog, reason, submit } = openDialog();
    fireEvent.change(reason, { target: { value: 'Because' } });
    fireEvent.click(submit);
    await waitFor(() => expect(reason).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getByText('Too vague.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('closes with Cancel or Escape without sending, leaving the panel open', async () => {
    const { panel, dialog } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull());

    fireEvent.click(within(panel).getByRole('button', { name: 'Extend trial' }));
    fireEvent.keyDown(screen.getByRole('dialog', { name: TITLE }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull());
    expect(screen.getByRole('dialog', { name: ACCOUNT.organisationName! })).toBe(panel);
    expect(posts()).toEqual([]);
  });
});
