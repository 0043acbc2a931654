import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ZManagementAccountDetail, type TManagementAccountDetail, type TUser } from '@connect/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/storage.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import {
  ACCOUNT,
  ACCOUNT_FEATURES,
  ACCOUNT_OVERRIDES,
  ADMIN,
  createFetchMock,
  INVITED_ENTRY,
  json,
  SALES,
} from '../test/fixtures.ts';
import { AccountDetails } from './account-details.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const ID = ACCOUNT.accountId;
const DETAIL = `/api/connect/management/accounts/${ID}`;
const BANK_ORDER = '7c000000-0000-4000-8000-000000000001';
const CARD_ORDER = '7c000000-0000-4000-8000-000000000002';
const BANK_PAID_ORDER = '7c000000-0000-4000-8000-000000000003';
const RECEIPTS = `/api/account-plan/management/orders/${BANK_ORDER}/receipts`;
const REFUNDS = `/api/payment/management/orders/${CARD_ORDER}/refunds`;
const PLAN_CHANGE = `/api/account-plan/management/accounts/${ID}/plan-change`;

const order = (id: string, extra: object) => ({
  id,
  reference: 'CNX-0000',
  kind: 'PLAN',
  status: 'PAID',
  paymentMethod: 'FIAT',
  planName: 'Annual Standard',
  credits: 0,
  totalGbpMinor: 120_000,
  paidGbpMinor: 120_000,
  refundedGbpMinor: 0,
  paidBy: ['FIAT'],
  createdAt: '2026-11-10T10:00:00.000Z',
  dueAt: '2026-11-24T10:00:00.000Z',
  paidAt: '2026-11-10T10:05:00.000Z',
  invoiceId: '7d000000-0000-4000-8000-000000000002',
  invoiceNumber: 'INV-000002',
  ...extra,
});

/** Ada's panel: an annual plan paid by card, a bank transfer still open, one staff action so far. */
const ACCOUNT_DETAIL: TManagementAccountDetail = ZManagementAccountDetail.parse({
  accountId: ID,
  organisationName: ACCOUNT.organisationName,
  status: 'ACTIVE',
  createdAt: ACCOUNT.createdAt,
  owner: {
    userId: ACCOUNT.accountOwner!.userId,
    email: ACCOUNT.accountOwner!.email,
    name: 'Ada Lovelace',
    phone: '+44 20 7946 0000',
  },
  business: { industry: 'Finance', companySize: '11-50' },
  location: 'London',
  plan: {
    name: 'Annual Standard',
    type: 'SUBSCRIPTION',
    status: 'ACTIVE',
    statusReason: null,
    trialEndsAt: null,
    periodEnd: '2027-11-10T10:05:00.000Z',
    cancelAtPeriodEnd: false,
    nextPlanName: null,
    paymentPreference: 'FIAT',
  },
  trialExtensions: 2,
  balances: { credits: '1250', qntWei: '2500000000000000000', rewardQntWei: '0' },
  orders: [
    order(BANK_ORDER, {
      reference: 'CNX-BANK0001',
      kind: 'CREDITS',
      status: 'AWAITING_PAYMENT',
      paymentMethod: 'BANK_TRANSFER',
      planName: null,
      credits: 1000,
      totalGbpMinor: 50_000,
      paidGbpMinor: 10_000,
      paidBy: ['BANK_TRANSFER'],
      paidAt: null,
      invoiceId: '7d000000-0000-4000-8000-000000000001',
      invoiceNumber: 'INV-000003',
    }),
    order(CARD_ORDER, { reference: 'CNX-CARD0001' }),
    order(BANK_PAID_ORDER, {
      reference: 'CNX-BANK0002',
      paymentMethod: 'BANK_TRANSFER',
      paidBy: ['BANK_TRANSFER'],
      refundedGbpMinor: 20_000,
      invoiceNumber: 'INV-000001',
    }),
  ],
  invoices: [
    {
      id: '7d000000-0000-4000-8000-000000000001',
      number: 'INV-000003',
      status: 'OPEN',
      totalMinor: 50_000,
      currency: 'GBP',
      issuedAt: '2026-11-20T10:00:00.000Z',
      dueAt: '2026-12-04T10:00:00.000Z',
      paidAt: null,
    },
  ],
  payments: [
    {
      id: '7e000000-0000-4000-8000-000000000001',
      orderId: CARD_ORDER,
      orderReference: 'CNX-CARD0001',
      method: 'FIAT',
      externalId: 'pi_123',
      amountGbpMinor: 120_000,
      receivedAt: '2026-11-10T10:05:00.000Z',
    },
  ],
  creditNotes: [],
  recentAudit: [{ ...INVITED_ENTRY, action: 'TRIAL_EXTENDED', recordType: 'account', recordId: ID }],
});

const mock = createFetchMock(() => ({
  [`GET ${DETAIL}`]: () => json(ACCOUNT_DETAIL),
  [`GET /api/connect/management/feature/account/${ID}`]: () => json(ACCOUNT_FEATURES),
  [`GET /api/connect/management/accounts/${ID}/overrides`]: () => json(ACCOUNT_OVERRIDES),
  [`GET /api/connect/management/account/${ID}/eth-address`]: () =>
    json({ accountId: ID, ethAddress: '0x1111111111111111111111111111111111111111' }),
}));
const count = (key: string) =>
  mock.fetchMock.mock.calls.filter(
    ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}` === key,
  ).length;

function renderPanel(user: TUser) {
  session.setMarker(user.id, user.role);
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
  renderWithProviders(<AccountDetails account={ACCOUNT} onClose={() => undefined} />, { queryClient });
  return screen.getByRole('dialog', { name: ACCOUNT.organisationName! });
}
const orderRow = async (panel: HTMLElement, reference: string) =>
  (await within(panel).findByText(reference)).closest('li')!;
const snackbar = async (title: string) =>
  (await screen.findByText(title, { selector: '.MuiAlertTitle-root' })).closest('[role="alert"]');
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

describe('AccountDetails: the account panel of spec §3 (issue 33 §1)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', mock.fetchMock);
    mock.route({});
  });
  afterEach(() => {
    cleanup();
    mock.fetchMock.mockClear();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('shows the owner’s phone, business, location, payment preference, trial extensions, balances, orders and activity', async () => {
    const panel = renderPanel(SALES);
    const term = (name: string) => within(panel).findByText(name, { selector: 'dt' });
    const valueOf = async (name: string) => (await term(name)).nextElementSibling!.textContent;
    await within(panel).findByText('+44 20 7946 0000');
    expect(await valueOf('Business')).toBe('Finance · 11–50 employees');
    expect(await valueOf('Location')).toBe('London');
    expect(await valueOf('Payment preference')).toBe('Card');
    expect(await valueOf('Trial extensions')).toBe('2');
    const balances = within(panel).getByRole('region', { name: 'Balances' });
    expect(balances).toHaveTextContent('Credits1,250');
    expect(balances).toHaveTextContent(/QNT held2\.5/);
    const bank = await orderRow(panel, 'CNX-BANK0001');
    expect(bank).toHaveTextContent('Awaiting payment');
    expect(bank).toHaveTextContent('£100.00 received, £400.00 still due.');
    expect(within(panel).getByRole('list', { name: 'Payments' })).toHaveTextContent('Card for CNX-CARD0001£1,200.00');
    expect(within(panel).getByRole('list', { name: 'Recent activity' })).toHaveTextContent('Trial extended');
    // Sales may look but not take money: no receipt, no refund, no audit log link.
    expect(within(panel).queryByRole('button', { name: 'Record receipt' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(within(panel).queryByRole('link', { name: /audit log/ })).toBeNull();
  });

  it('records a bank transfer: refuses too much, a future day and no reference, confirms, then sends it and refreshes', async () => {
    mock.route({
      [`POST ${RECEIPTS}`]: () =>
        json({
          id: BANK_ORDER,
          reference: 'CNX-BANK0001',
          kind: 'CREDITS',
          status: 'PAID',
          paymentMethod: 'BANK_TRANSFER',
          ratePlan: null,
          upfrontMonths: null,
          bundle: null,
          feeGbpMinor: 0,
          bundleUsdCents: 63_500,
          usdPerGbp: '1.27',
          rateAt: '2026-11-20T10:00:00.000Z',
          totalGbpMinor: 50_000,
          paidGbpMinor: 50_000,
          periodStart: null,
          periodEnd: null,
          dueAt: '2026-12-04T10:00:00.000Z',
          createdAt: '2026-11-20T10:00:00.000Z',
          paidAt: '2026-11-27T12:00:00.000Z',
          invoiceId: '7d000000-0000-4000-8000-000000000001',
          bankTransfer: null,
        }),
    });
    const panel = renderPanel(ADMIN);
    const bank = await orderRow(panel, 'CNX-BANK0001');
    fireEvent.click(within(bank).getByRole('button', { name: 'Record receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record a bank transfer for CNX-BANK0001' });
    const amount = within(dialog).getByRole('textbox', { name: /Amount received/ });
    expect(amount).toHaveValue('400.00');
    type(amount, '400.01');
    type(within(dialog).getByLabelText(/Date received/), '2999-01-01');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('At most £400.00: what the order still needs.')).toBeInTheDocument();
    expect(within(dialog).getByText('A transfer cannot arrive in the future.')).toBeInTheDocument();
    expect(within(dialog).getByText("Enter the bank's reference.")).toBeInTheDocument();
    expect(mock.bodies(`POST ${RECEIPTS}`)).toEqual([]);

    type(amount, '400');
    type(within(dialog).getByLabelText(/Date received/), '2026-11-27');
    type(within(dialog).getByRole('textbox', { name: /Bank reference/ }), ' BARC-998 ');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(
      await within(dialog).findByText(
        /Record £400\.00 received on .* \(bank reference BARC-998\) for order CNX-BANK0001\?/,
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/This pays the order and its invoice/)).toBeInTheDocument();
    const before = count(`GET ${DETAIL}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    await waitFor(() =>
      expect(mock.bodies(`POST ${RECEIPTS}`)).toEqual([
        { receiptId: 'BARC-998', amountGbpMinor: 40_000, receivedAt: '2026-11-27T12:00:00.000Z' },
      ]),
    );
    expect(await snackbar('Receipt recorded for CNX-BANK0001')).toHaveTextContent(
      'The order is paid and the plan is active.',
    );
    await waitFor(() => expect(count(`GET ${DETAIL}`)).toBeGreaterThan(before));
    expect(screen.queryByRole('dialog', { name: /Record a bank transfer/ })).toBeNull();
  });

  it('shows the server’s refusal of a receipt under the field it names, back on the form', async () => {
    mock.route({
      [`POST ${RECEIPTS}`]: () =>
        json(
          {
            status: 400,
            code: 'INVALID_PARAMS',
            title: 'Bad Request',
            invalidParams: [{ name: 'receiptId', reason: 'This receipt is already recorded for another order.' }],
          },
          400,
        ),
    });
    const panel = renderPanel(ADMIN);
    fireEvent.click(within(await orderRow(panel, 'CNX-BANK0001')).getByRole('button', { name: 'Record receipt' }));
    const dialog = await screen.findByRole('dialog', { name: /Record a bank transfer/ });
    type(within(dialog).getByRole('textbox', { name: /Bank reference/ }), 'BARC-1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Record receipt' }));
    expect(await within(dialog).findByText('This receipt is already recorded for another order.')).toBeInTheDocument();
  });

  it('refunds a card order after a confirmation, then shows the credit note; a retry sends the same key', async () => {
    let attempts = 0;
    mock.route({
      [`POST ${REFUNDS}`]: (body) => {
        attempts += 1;
        if (attempts === 1)
          return json(
            {
              status: 502,
              code: 'CARD_PROVIDER_ERROR',
              title: 'Bad Gateway',
              detail: 'The card provider did not answer.',
            },
            502,
          );
        const refund = body as { amountGbpMinor: number; reason: string };
        return json({
          id: '7f000000-0000-4000-8000-000000000001',
          invoiceId: '7d000000-0000-4000-8000-000000000002',
          orderId: CARD_ORDER,
          refundId: '7f000000-0000-4000-8000-000000000002',
          amountGbpMinor: refund.amountGbpMinor,
          reason: refund.reason,
          status: 'succeeded',
          issuedAt: '2026-11-28T10:00:00.000Z',
        });
      },
    });
    const panel = renderPanel(ADMIN);
    const card = await orderRow(panel, 'CNX-CARD0001');
    expect(within(await orderRow(panel, 'CNX-BANK0001')).queryByRole('button', { name: 'Refund' })).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund order CNX-CARD0001' });
    type(within(dialog).getByRole('textbox', { name: /Amount to refund/ }), '150.5');
    type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Goodwill');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('A refund cannot be undone.')).toBeInTheDocument();
    expect(within(dialog).getByText(/against invoice INV-000002/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund £150.50' }));
    expect(await within(dialog).findByText('The card provider did not answer.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Refund £150.50' }));
    const done = await screen.findByRole('dialog', { name: 'Refund issued' });
    expect(within(done).getByText('Credit note amount').nextElementSibling).toHaveTextContent('£150.50');
    const [first, second] = mock.bodies(`POST ${REFUNDS}`) as { idempotencyKey: string }[];
    expect(first).toMatchObject({ amountGbpMinor: 15_050, reason: 'Goodwill' });
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
  });

  it('records a refund of an order paid by bank transfer with the reference of the transfer that paid it back', async () => {
    const url = `/api/payment/management/orders/${BANK_PAID_ORDER}/refunds`;
    mock.route({
      [`POST ${url}`]: (body) =>
        json({
          id: '7f000000-0000-4000-8000-000000000003',
          invoiceId: '7d000000-0000-4000-8000-000000000002',
          orderId: BANK_PAID_ORDER,
          refundId: '7f000000-0000-4000-8000-000000000004',
          amountGbpMinor: (body as { amountGbpMinor: number }).amountGbpMinor,
          reason: 'Cancelled in the first week',
          status: 'succeeded',
          issuedAt: '2026-11-28T10:00:00.000Z',
        }),
    });
    const panel = renderPanel(ADMIN);
    fireEvent.click(within(await orderRow(panel, 'CNX-BANK0002')).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund order CNX-BANK0002' });
    expect(
      within(dialog).getByText(/up to £1,000\.00 can be refunded\. Pay it back by bank transfer first/),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Amount to refund/ })).toHaveValue('1000.00');
    type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Cancelled in the first week');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('Enter the reference of your transfer.')).toBeInTheDocument();
    type(within(dialog).getByRole('textbox', { name: /Reference of your transfer/ }), 'OUT-77');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(
      await within(dialog).findByText(/paid back by bank transfer OUT-77 for order CNX-BANK0002/),
    ).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund £1,000.00' }));
    expect(await screen.findByRole('dialog', { name: 'Refund issued' })).toHaveTextContent(
      'recorded as paid back by bank transfer',
    );
    expect(mock.bodies(`POST ${url}`)).toEqual([
      expect.objectContaining({
        amountGbpMinor: 100_000,
        reason: 'Cancelled in the first week',
        bankReference: 'OUT-77',
      }),
    ]);
  });

  it('changes the plan with a reason through plan-change, and shows a refusal', async () => {
    let refuse = true;
    mock.route({
      [`POST ${PLAN_CHANGE}`]: () =>
        refuse
          ? json(
              {
                status: 409,
                code: 'SUBSCRIPTION_NOT_CANCELLABLE',
                title: 'Conflict',
                detail: 'Only a paid plan that renews can be cancelled.',
              },
              409,
            )
          : json({
              accountId: ID,
              planStatus: 'DISABLED',
              statusReason: 'STAFF',
              cancelAtPeriodEnd: false,
              nextPlanName: null,
            }),
    });
    const panel = renderPanel(SALES);
    fireEvent.click(await within(panel).findByRole('button', { name: 'Change plan' }));
    const dialog = await screen.findByRole('dialog', { name: `Change the plan of ${ACCOUNT.organisationName}` });
    const options = within(dialog)
      .getAllByRole('radio')
      .map((radio) => radio.closest('label')!.textContent);
    expect(options).toEqual([
      'Cancel at the end of the period',
      'Move to a lower plan from the next period',
      'Disable the plan: its allowances stop until it is enabled again',
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply change' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeInTheDocument();
    type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Customer asked');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply change' }));
    expect(await within(dialog).findByText('Only a paid plan that renews can be cancelled.')).toBeInTheDocument();
    refuse = false;
    fireEvent.click(within(dialog).getByRole('radio', { name: /Disable the plan/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply change' }));
    expect(await snackbar(`Plan disabled for ${ACCOUNT.organisationName}`)).toHaveTextContent(
      'The plan is now disabled',
    );
    expect(mock.bodies(`POST ${PLAN_CHANGE}`)).toEqual([
      { action: 'CANCEL', reason: 'Customer asked' },
      { action: 'DISABLE', reason: 'Customer asked' },
    ]);
  });
});
