import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TOrder, TSubscription } from '@connect/shared';
import { createFetchMock, json } from '../../../../test/fixtures.ts';
import {
  ANNUAL,
  BUNDLES,
  CATALOGUE,
  CREDITS_ORDER,
  ORDER,
  PAYG,
  QNT_ORDER,
  QNT_PAYMENT,
  TRANSFER,
  TRIAL,
  qnt,
} from '../../../../test/plans.ts';
import { renderWithProviders } from '../../../../test/render.tsx';
import { PlanSection } from './plan-section.tsx';

vi.mock('../../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

/** The account's plan as the server holds it; the change calls move it on. */
let current: TSubscription = TRIAL;
const { fetchMock, route, bodies } = createFetchMock(() => ({
  'GET /api/account-plan/subscription': () => json(current),
  'GET /api/account-plan/v2/fetch-plans': () => json(CATALOGUE),
  [`GET /api/account-plan/rate-plan/${BUNDLES.ratePlanId}/credit-bundles`]: () => json(BUNDLES),
}));

function renderSection(subscription: TSubscription, route = '/my-account') {
  current = subscription;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return renderWithProviders(<PlanSection />, { route, path: '/my-account', queryClient });
}

const section = () => screen.getByRole('region', { name: 'Plan' });
/** The value of a row of the section's definition lists. */
const rowValue = (label: string) => within(section()).getByText(label, { selector: 'dt' }).nextElementSibling;

// Whole MUI sections render slowly in jsdom; a dialog journey takes seconds on a loaded runner.
describe('PlanSection', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    route({});
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the trial: status and reason in words, its end date, usage against the allowances, no cancel', async () => {
    renderSection(TRIAL);
    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Trial');
    expect(within(section()).getByText('Active')).toBeInTheDocument();
    expect(screen.getByTestId('plan-status-reason')).toHaveTextContent('Your free trial is active.');
    expect(rowValue('Billing')).toHaveTextContent('Free trial');
    expect(rowValue('Started')).toHaveTextContent('01.11.2026');
    expect(rowValue('Trial ends')).toHaveTextContent('01.12.2026');
    expect(screen.getByTestId('usage-applications')).toHaveTextContent('1 of 3');
    expect(screen.getByRole('progressbar', { name: 'Applications' })).toHaveAttribute('aria-valuenow', '33');
    // Blockchains 0 means all (spec §9).
    expect(screen.getByTestId('usage-blockchains')).toHaveTextContent('2 of all');
    expect(screen.getByText(/25 requests a second/)).toBeInTheDocument();
    // No mainnet on the trial.
    expect(screen.getByTestId('usage-mainnets')).toHaveTextContent('Not included');
    expect(screen.getByTestId('credits-available')).toHaveTextContent('100 credits');
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/account-plan/upgrade');
    // The trial is not cancelled or changed; it sells no credits.
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change plan at renewal' })).not.toBeInTheDocument();
    expect(await screen.findByText(/Your plan has no credit bundles/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy credits' })).not.toBeInTheDocument();
  });

  it('shows an active annual plan with its fee, renewal and upfront months, and cancels it after confirming the end date', async () => {
    route({
      'POST /api/account-plan/subscription/cancel': () => {
        current = { ...ANNUAL, cancelAtPeriodEnd: true };
        return json(current);
      },
    });
    renderSection(ANNUAL);
    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Annual Subscription — Standard');
    expect(screen.getByTestId('plan-status-reason')).toHaveTextContent('Your plan is active.');
    expect(rowValue('Plan fee')).toHaveTextContent('£6,000.00 a year');
    expect(rowValue('Renews on')).toHaveTextContent('10.11.2027');
    expect(rowValue('Paid upfront')).toHaveTextContent('12 months');
    expect(screen.getByTestId('credits-available')).toHaveTextContent('5,100 credits');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your Annual Subscription — Standard plan?' });
    expect(dialog).toHaveTextContent('Your plan stays active until 10.11.2027 and then ends');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel plan' }));

    expect(await screen.findByText(/Your plan is cancelled and ends on 10.11.2027/)).toBeInTheDocument();
    expect(bodies('POST /api/account-plan/subscription/cancel')).toHaveLength(1);
    expect(rowValue('Ends on')).toHaveTextContent('10.11.2027');
    expect(screen.getByRole('button', { name: 'Resume plan' })).toBeInTheDocument();
  });

  it('shows a cancelled plan with its end date, and resumes it', async () => {
    route({
      'POST /api/account-plan/subscription/resume': () => {
        current = ANNUAL;
        return json(current);
      },
    });
    renderSection({ ...ANNUAL, cancelAtPeriodEnd: true });
    expect(await screen.findByText(/Your plan is cancelled and ends on 10.11.2027/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Resume plan' }));
    expect(await screen.findByRole('button', { name: 'Cancel plan' })).toBeInTheDocument();
    expect(rowValue('Renews on')).toHaveTextContent('10.11.2027');
    expect(bodies('POST /api/account-plan/subscription/resume')).toHaveLength(1);
  });

  it('shows pay as you go with its credit price and the credit limit below zero', async () => {
    renderSection(PAYG);
    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Pay as you go — Advance');
    expect(rowValue('Billing')).toHaveTextContent('Billed monthly');
    expect(rowValue('Credit price')).toHaveTextContent('$1.15 a credit, billed at month end');
    expect(screen.getByTestId('credits-available')).toHaveTextContent('1,040 credits');
    expect(screen.getByTestId('credit-limit')).toHaveTextContent('1,000 credits below zero');
    expect(rowValue('Balance')).toHaveTextContent('40');
  });

  it('says what usage above a lower allowance means: keep them, add no more until under it', async () => {
    renderSection({
      ...ANNUAL,
      allowances: { ...ANNUAL.allowances, applications: 3 },
      usage: { ...ANNUAL.usage, applications: 5 },
    });
    expect(
      await screen.findByText(
        "5 of 3 applications — over your plan's allowance: you can keep them, but cannot add more until you are under it.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('usage-applications')).toHaveTextContent('5 of 3');
    expect(screen.getByRole('progressbar', { name: 'Applications' })).toHaveAttribute('aria-valuenow', '100');
  });

  it('says in words why an inactive plan cannot create anything', async () => {
    renderSection({ ...TRIAL, status: 'INACTIVE', statusReason: 'TRIAL_ENDED', inService: false });
    expect(await screen.findByTestId('plan-status-reason')).toHaveTextContent(
      'Your free trial has ended: nothing new can be created until you choose a plan.',
    );
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByText(/Your plan is not in service/)).toBeInTheDocument();
  });

  it('shows the order awaiting payment with its bank details, and cancels it', async () => {
    route({
      [`POST /api/account-plan/order/${ORDER.id}/cancel`]: () => {
        current = TRIAL;
        return json({ ...ORDER, status: 'CANCELLED' });
      },
    });
    renderSection({ ...TRIAL, status: 'PENDING', statusReason: 'AWAITING_PAYMENT', pendingOrder: ORDER });
    const order = await screen.findByRole('region', { name: 'Order awaiting payment' });
    expect(within(order).getByTestId('order-reference')).toHaveTextContent('CNX-7K2M9QXA');
    expect(within(order).getByTestId('order-amount')).toHaveTextContent('£6,880.00');
    expect(within(order).getByText('Annual Subscription — Standard with 1,000 credits')).toBeInTheDocument();
    expect(within(order).getByText('GB00SAND00000000000000')).toBeInTheDocument();
    expect(within(order).getByText('00-00-00')).toBeInTheDocument();
    expect(within(order).getAllByText('04.12.2026').length).toBeGreaterThan(0);
    // Pending: no second upgrade (spec §2.2).
    expect(screen.getByRole('button', { name: 'Upgrade pending' })).toBeDisabled();

    fireEvent.click(within(order).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order CNX-7K2M9QXA?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Order awaiting payment' })).not.toBeInTheDocument();
    expect(bodies(`POST /api/account-plan/order/${ORDER.id}/cancel`)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Upgrade plan' })).toBeInTheDocument();
  });

  it('lists a credits order awaiting payment beside the plan, with its own bank details (the plan stays active)', async () => {
    renderSection({ ...ANNUAL, openOrders: [CREDITS_ORDER] });
    const order = await screen.findByRole('region', { name: 'Order awaiting payment' });
    expect(within(order).getByTestId('order-reference')).toHaveTextContent('CNX-CR3D1TS0');
    expect(within(order).getByRole('button', { name: 'Cancel order' })).toBeInTheDocument();
  });

  it('offers to pay a month’s bill but not to cancel it', async () => {
    const bill: TOrder = { ...CREDITS_ORDER, id: '30000000-0000-4000-8000-000000000009', kind: 'USAGE', bundle: null };
    renderSection({ ...ANNUAL, openOrders: [bill] });
    const order = await screen.findByRole('region', { name: 'Order awaiting payment' });
    expect(within(order).getByTestId('order-reference')).toBeInTheDocument();
    expect(within(order).queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
  });

  it('shows the plan order once when it is also among the open orders', async () => {
    renderSection({
      ...TRIAL,
      status: 'PENDING',
      statusReason: 'AWAITING_PAYMENT',
      pendingOrder: ORDER,
      openOrders: [ORDER, CREDITS_ORDER],
    });
    expect(await screen.findAllByRole('region', { name: 'Order awaiting payment' })).toHaveLength(2);
  });

  it('shows the QNT held for the customer and their deposit address to copy, and nothing of QNT without any', async () => {
    renderSection({
      ...ANNUAL,
      qnt: {
        held: qnt('12.5'),
        depositAddress: QNT_PAYMENT.depositAddress,
        chainId: 31337,
        networkName: 'Ethereum Testnet (local)',
        tokenAddress: QNT_PAYMENT.tokenAddress,
      },
    });
    const holding = await screen.findByRole('region', { name: 'QNT' });
    expect(within(holding).getByTestId('qnt-held')).toHaveTextContent('12.5 QNT');
    // The whole address in the text and the title, and the copy button copies all of it.
    const address = within(holding).getByTestId('qnt-address');
    expect(address).toHaveTextContent(QNT_PAYMENT.depositAddress);
    expect(address).toHaveAttribute('title', QNT_PAYMENT.depositAddress);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(within(holding).getByRole('button', { name: 'Copy the deposit address' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(QNT_PAYMENT.depositAddress));
    expect(within(holding).getByText('Ethereum Testnet (local) · chain id 31337')).toBeInTheDocument();
    expect(within(holding).getByTestId('qnt-token')).toHaveTextContent(QNT_PAYMENT.tokenAddress);
    expect(within(holding).getByRole('button', { name: 'Copy the token contract address' })).toBeInTheDocument();
    expect(within(holding).getByText(/counts toward your next order paid in QNT/)).toBeInTheDocument();
  });

  it('shortens the deposit address in the middle where the column has no room for it', async () => {
    // jsdom lays nothing out: the row gives the address 200 px where it asks for 400.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly callback: () => void) {}
        observe() {
          this.callback();
        }
        disconnect() {}
      },
    );
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(400);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(200);
    const address = QNT_PAYMENT.depositAddress;
    renderSection({ ...ANNUAL, qnt: { held: '0', depositAddress: address, chainId: 31337 } });
    const shown = await screen.findByTestId('qnt-address');
    // 0x7099…79C8 on screen; the middle is only hidden from view, so the text is the whole address.
    expect(within(shown).getByText(address.slice(6, -4))).toHaveStyle({ position: 'absolute', width: '1px' });
    expect(shown).toHaveTextContent(address);
    expect(shown).toHaveAttribute('title', address);
  });

  it('shows no QNT block when nothing is held and there is no deposit address', async () => {
    renderSection({ ...ANNUAL, qnt: { held: '0', depositAddress: null, chainId: null } });
    await screen.findByTestId('plan-name');
    expect(screen.queryByRole('region', { name: 'QNT' })).not.toBeInTheDocument();
  });

  it('shows an open QNT order’s payment live, and no longer offers to cancel it once its transfer is moving', async () => {
    let moving = false;
    route({
      'POST /api/account-plan/order/track': () =>
        json(
          moving ? { ...QNT_ORDER, qnt: { ...QNT_PAYMENT, status: 'PROCESSING', transfers: [TRANSFER] } } : QNT_ORDER,
        ),
    });
    renderSection({ ...TRIAL, status: 'PENDING', statusReason: 'AWAITING_PAYMENT', pendingOrder: QNT_ORDER });
    const order = await screen.findByRole('region', { name: 'Order awaiting payment' });
    const payment = within(order).getByRole('region', { name: 'QNT payment' });
    expect(within(payment).getByRole('heading', { name: 'Waiting for your transfer' })).toBeInTheDocument();
    expect(within(payment).getByTestId('qnt-amount-due')).toHaveTextContent('86 QNT');
    expect(within(payment).getByTestId('qnt-deposit')).toHaveTextContent(QNT_PAYMENT.depositAddress);
    expect(within(payment).getByRole('button', { name: 'Pay 86 QNT with your wallet' })).toBeInTheDocument();
    expect(within(order).getByRole('button', { name: 'Cancel order' })).toBeInTheDocument();

    moving = true;
    expect(await within(payment).findByText('1 of 3 confirmations', {}, { timeout: 6_000 })).toBeInTheDocument();
    expect(within(payment).getByRole('heading', { name: 'Your transfer is being confirmed' })).toBeInTheDocument();
    expect(within(order).queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
  });

  it('offers the lower plans at renewal, says where usage is above them, and saves the choice', async () => {
    route({
      'POST /api/account-plan/subscription/downgrade': (body) => {
        current = {
          ...ANNUAL,
          nextPlan: { id: (body as { ratePlanId: string }).ratePlanId, name: 'Pay as you go — Standard' },
        };
        return json(current);
      },
    });
    renderSection({ ...ANNUAL, usage: { ...ANNUAL.usage, applications: 7 } });
    fireEvent.click(await screen.findByRole('button', { name: 'Change plan at renewal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change plan at renewal' });
    const standard = await within(dialog).findByRole('radio', { name: /Pay as you go — Standard/ });
    expect(within(dialog).getByRole('radio', { name: /Pay as you go — Advance/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Keep Annual Subscription — Standard' })).toBeChecked();
    // Not the current plan or anything higher.
    expect(within(dialog).queryByRole('radio', { name: /^Annual Subscription — Standard/ })).not.toBeInTheDocument();
    expect(standard).toHaveAccessibleDescription(/7 of 5 applications/);
    fireEvent.click(standard);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies('POST /api/account-plan/subscription/downgrade')).toEqual([
      { ratePlanId: CATALOGUE.groups[0]!.tiers[0]!.id },
    ]);
    expect(await screen.findByText('Pay as you go — Standard (chosen at renewal)')).toBeInTheDocument();
  });

  describe('buy credits', () => {
    it('requires a bundle and the three policies, sends one order on a double click, and shows the bank details', async () => {
      route({ 'POST /api/account-plan/order/credits': () => json(CREDITS_ORDER, 201) });
      renderSection(ANNUAL);
      fireEvent.click(await screen.findByRole('button', { name: 'Buy credits' }));
      const dialog = await screen.findByRole('dialog', { name: 'Buy credits' });
      const bundle = await within(dialog).findByRole('radio', {
        name: '5,000 credits — $5,250.00 ($1.05 a credit, including VAT)',
      });
      // Bank transfer is the one method both the plan and the installation take: chosen already.
      expect(within(dialog).getByRole('radio', { name: 'Bank transfer' })).toBeChecked();
      expect(within(dialog).queryByRole('radio', { name: 'QNT' })).not.toBeInTheDocument();

      fireEvent.click(within(dialog).getByRole('button', { name: 'Place order' }));
      expect(await within(dialog).findByText('Please choose a credit bundle.')).toBeInTheDocument();
      expect(
        within(dialog).getByText(
          'Please agree to the terms and conditions, the acceptable use policy and the privacy policy.',
        ),
      ).toBeInTheDocument();

      fireEvent.click(bundle);
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I agree to the terms and conditions' }));
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I agree to the acceptable use policy' }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Place order' }));
      // Two of three policies: still refused, nothing sent.
      expect(bodies('POST /api/account-plan/order/credits')).toHaveLength(0);
      fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I agree to the privacy policy' }));
      const submit = within(dialog).getByRole('button', { name: 'Place order' });
      fireEvent.click(submit);
      fireEvent.click(submit);

      const placed = await screen.findByRole('dialog', { name: 'Your order CNX-CR3D1TS0 has been placed' });
      const sent = bodies('POST /api/account-plan/order/credits') as { idempotencyKey: string }[];
      expect(sent).toHaveLength(1);
      expect(sent[0]).toEqual({
        idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
        creditBundleId: BUNDLES.bundles[1]!.id,
        paymentMethod: 'BANK_TRANSFER',
        terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
      });
      expect(within(placed).getByText('5,000 credits')).toBeInTheDocument();
      expect(within(placed).getByTestId('order-amount')).toHaveTextContent('£4,133.86');
      expect(within(placed).getByText('GB00SAND00000000000000')).toBeInTheDocument();
      expect(within(placed).getAllByText('CNX-CR3D1TS0').length).toBeGreaterThan(0);
      fireEvent.click(within(placed).getByRole('button', { name: 'Done' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('keeps the same idempotency key when the order is sent again after a failure', async () => {
      let failures = 1;
      route({
        'POST /api/account-plan/order/credits': () =>
          failures-- > 0 ? json({ status: 503, title: 'Service Unavailable' }, 503) : json(CREDITS_ORDER, 201),
      });
      renderSection(ANNUAL, '/my-account?buy-credits');
      // The address opens the dialog (the dashboard and the banner link to it).
      const dialog = await screen.findByRole('dialog', { name: 'Buy credits' });
      fireEvent.click(await within(dialog).findByRole('radio', { name: /^1,000 credits/ }));
      for (const name of [
        'I agree to the terms and conditions',
        'I agree to the acceptable use policy',
        'I agree to the privacy policy',
      ]) {
        fireEvent.click(within(dialog).getByRole('checkbox', { name }));
      }
      fireEvent.click(within(dialog).getByRole('button', { name: 'Place order' }));
      expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Place order' }));
      await screen.findByRole('dialog', { name: 'Your order CNX-CR3D1TS0 has been placed' });
      const keys = (bodies('POST /api/account-plan/order/credits') as { idempotencyKey: string }[]).map(
        (body) => body.idempotencyKey,
      );
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    });
  });

  it('shows an error with a retry when the plan cannot be loaded', async () => {
    route({ 'GET /api/account-plan/subscription': () => json({ status: 500, title: 'Internal Server Error' }, 500) });
    renderSection(TRIAL);
    expect(await screen.findByText('Your plan could not be loaded.')).toBeInTheDocument();
    route({});
    fireEvent.click(within(section()).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Trial');
  });
});
