import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { createFetchMock, json } from '../test/fixtures.ts';
import { ANNUAL_TIER } from '../test/tier-fixtures.ts';
import { TierDialog } from './tier-dialog.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const BASE = '/api/account-plan/management/subscription-tiers';
const CREATE = `POST ${BASE}`;
const UPDATE = `PUT ${BASE}/${ANNUAL_TIER.id}`;
const mock = createFetchMock();

function renderDialog(tier: typeof ANNUAL_TIER | null = null) {
  const onClose = vi.fn();
  renderWithProviders(<TierDialog tier={tier} onClose={onClose} />, { queryClient });
  const name = tier ? `Edit ${tier.name}` : 'New subscription tier';
  return { onClose, dialog: screen.getByRole('dialog', { name }) };
}

const field = (dialog: HTMLElement, name: RegExp) => within(dialog).getByRole('textbox', { name });
const type = (dialog: HTMLElement, name: RegExp, value: string) =>
  fireEvent.change(field(dialog, name), { target: { value } });
const submit = (dialog: HTMLElement, name = 'Create tier') =>
  fireEvent.click(within(dialog).getByRole('button', { name }));

async function choose(dialog: HTMLElement, select: RegExp, option: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: select }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

function fillAllowances(dialog: HTMLElement) {
  const values = { Applications: '10', Tokens: '25', Bridges: '10', Blockchains: '0', Mainnets: '3', Testnets: '10' };
  for (const [label, value] of Object.entries(values)) type(dialog, new RegExp(`^${label}`), value);
  type(dialog, /^Rate limit/, '1,000');
}

const problem = (status: number, code: string, detail: string, invalidParams?: { name: string; reason: string }[]) =>
  json({ status, code, title: 'Refused', detail, ...(invalidParams ? { invalidParams } : {}) }, status);

describe('TierDialog', { timeout: 60_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({
      [CREATE]: (body) => json({ ...ANNUAL_TIER, ...(body as object), creditBundles: [], id: ANNUAL_TIER.id }, 201),
      [UPDATE]: (body) => json({ ...ANNUAL_TIER, ...(body as object), creditBundles: ANNUAL_TIER.creditBundles }),
    });
  });
  afterEach(() => {
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('checks every field with the request’s own rules before sending anything', async () => {
    const { dialog } = renderDialog();
    expect(dialog).toHaveTextContent('Choose the plan type to set its prices.');
    submit(dialog);
    expect((await within(dialog).findAllByText('This field is required.')).length).toBeGreaterThanOrEqual(5);
    expect(field(dialog, /^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText('Choose at least one payment method.')).toBeInTheDocument();
    expect(within(dialog).getAllByText('Enter a whole number, 0 or greater.')).toHaveLength(7);
    expect(mock.bodies(CREATE)).toEqual([]);
  });

  it('creates an annual tier from pounds, QNT and dollars, with its bundles as rows', async () => {
    const { dialog, onClose } = renderDialog();
    type(dialog, /^Name/, ' Annual — Platinum ');
    await choose(dialog, /^Plan type/, 'Annual Subscription');
    await choose(dialog, /^Tier/, 'Advance');
    type(dialog, /^Short description/, 'Every blockchain.');
    type(dialog, /^Full description/, 'Billed annually in advance.');
    type(dialog, /^Annual fee/, '6,000.50');
    type(dialog, /^QNT price/, '75.5');
    type(dialog, /^Upfront months/, '6');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'QNT' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Bank transfer' }));
    fillAllowances(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add bundle' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add bundle' }));
    const [first, second] = within(dialog).getAllByRole('group', { name: /^Credit bundles/ });
    type(first!, /^Credits/, '5,000');
    type(first!, /^Price including VAT/, '5,250');
    type(second!, /^Credits/, '1000');
    type(second!, /^Price including VAT/, '1100');
    expect(second).toHaveTextContent('$1.10 a credit');
    expect(first).toHaveTextContent('$1.05 a credit');
    submit(dialog);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(mock.bodies(CREATE)).toEqual([
      {
        name: 'Annual — Platinum',
        type: 'SUBSCRIPTION',
        tier: 'advance',
        productId: null,
        shortDescription: 'Every blockchain.',
        fullDescription: 'Billed annually in advance.',
        feeGbpMinor: 600_050,
        qntPrice: '75500000000000000000',
        creditPriceUsdCents: null,
        upfrontMonths: 6,
        paymentMethods: ['QNT', 'BANK_TRANSFER'],
        allowances: {
          applications: 10,
          tokens: 25,
          bridges: 10,
          blockchains: 0,
          mainnets: 3,
          testnets: 10,
          rateLimit: 1000,
        },
        creditBundles: [
          { credits: 5_000, priceUsdCents: 525_000 },
          { credits: 1_000, priceUsdCents: 110_000 },
        ],
      },
    ]);
    expect(await screen.findByText('Annual — Platinum is on sale')).toBeInTheDocument();
  });

  it('asks pay as you go for the price of a credit only, within spec §9’s $1.20, and never by bank transfer', async () => {
    const { dialog } = renderDialog();
    await choose(dialog, /^Plan type/, 'Pay as you go');
    expect(within(dialog).queryByRole('textbox', { name: /^Annual fee/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Add bundle' })).toBeNull();
    expect(within(dialog).getByRole('checkbox', { name: 'Bank transfer' })).toBeDisabled();
    type(dialog, /^Price of a credit/, '1.25');
    fireEvent.blur(field(dialog, /^Price of a credit/));
    submit(dialog);
    expect(await within(dialog).findByText('A pay-as-you-go credit costs at most $1.20.')).toBeInTheDocument();
    type(dialog, /^Price of a credit/, '1.2x');
    expect(await within(dialog).findByText('Enter an amount with at most 2 decimals.')).toBeInTheDocument();
    expect(mock.bodies(CREATE)).toEqual([]);
  });

  it('says "Subscription tier creation failed" with the server’s reason, under the field it names', async () => {
    mock.route({
      [CREATE]: () =>
        problem(409, 'TIER_NAME_EXISTS', 'Another subscription tier has this name.', [
          { name: 'name', reason: 'Another subscription tier has this name.' },
        ]),
    });
    const { dialog, onClose } = renderDialog();
    type(dialog, /^Name/, 'Pay as you go — Standard');
    await choose(dialog, /^Plan type/, 'Pay as you go');
    await choose(dialog, /^Tier/, 'Standard');
    type(dialog, /^Short description/, 'Short.');
    type(dialog, /^Full description/, 'Full.');
    type(dialog, /^Price of a credit/, '1.20');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Card' }));
    fillAllowances(dialog);
    submit(dialog);
    const inDialog = await within(dialog).findByRole('alert');
    expect(inDialog).toHaveTextContent('Subscription tier creation failedAnother subscription tier has this name.');
    expect(field(dialog, /^Name/)).toHaveAttribute('aria-invalid', 'true');
    const notification = (await screen.findAllByRole('alert', { hidden: true })).find(
      (alert) => !dialog.contains(alert),
    )!;
    expect(notification).toHaveTextContent('Subscription tier creation failed');
    expect(mock.bodies(CREATE)[0]).toMatchObject({ type: 'PAY_AS_YOU_GO', feeGbpMinor: 0, creditPriceUsdCents: 120 });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('edits a tier in use: its type is fixed, an ordered bundle is repriced but kept, a failure is said', async () => {
    const { dialog, onClose } = renderDialog(ANNUAL_TIER);
    expect(dialog).toHaveTextContent('Changes apply to orders placed from now on.');
    expect(within(dialog).getByRole('combobox', { name: /^Plan type/ })).toHaveAttribute('aria-disabled', 'true');
    expect(field(dialog, /^Annual fee/)).toHaveValue('6000.00');
    expect(field(dialog, /^QNT price/)).toHaveValue('75');
    const [ordered, other] = within(dialog).getAllByRole('group', { name: /^Credit bundles/ });
    const keep = within(ordered!).getByRole('button', { name: 'Remove the bundle of 1000 credits' });
    expect(keep).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(keep);
    fireEvent.click(within(other!).getByRole('button', { name: 'Remove the bundle of 5000 credits' }));
    expect(within(dialog).getAllByRole('group', { name: /^Credit bundles/ })).toHaveLength(1);
    type(ordered!, /^Price including VAT/, '1,050.00');

    mock.route({
      [UPDATE]: () => problem(409, 'TIER_TYPE_FIXED', 'This tier is in use, so its plan type and tier cannot change.'),
    });
    submit(dialog, 'Save changes');
    expect(await within(dialog).findByText('Subscription tier update failed')).toBeInTheDocument();
    expect(mock.bodies(UPDATE)[0]).toMatchObject({
      name: ANNUAL_TIER.name,
      feeGbpMinor: 600_000,
      qntPrice: '75000000000000000000',
      creditBundles: [{ id: ANNUAL_TIER.creditBundles[0]!.id, credits: 1_000, priceUsdCents: 105_000 }],
    });
    expect(onClose).not.toHaveBeenCalled();
  });
});
