// @vitest-environment jsdom
// (jsdom: a test here reads the computed outline of a focused control, which happy-dom does not cascade)
import { hexToRgb } from '@mui/material/styles';
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TSubscription } from '@connect/shared';
import { WalletError } from '../../../lib/wallet/errors.ts';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { formatDate } from '../../../lib/format.ts';
import { session } from '../../../lib/storage.ts';
import { createFetchMock, json, TEST_USER, type Handler } from '../../../test/fixtures.ts';
import {
  ANNUAL_STANDARD,
  ANNUAL,
  ORDER,
  BUNDLES,
  CATALOGUE,
  PAYG_ORDER,
  QNT_ORDER,
  QNT_PAYMENT,
  TRANSFER,
  TRIAL,
} from '../../../test/plans.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { theme } from '../../../theme.ts';
import { addMonths } from '../checkout.ts';
import { UpgradePage } from './upgrade.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

// The wallet layer, loaded by the QNT payment when the customer pays.
const wallet = vi.hoisted(() => ({
  connectWallet: vi.fn(async () => '0x1111111111111111111111111111111111111111'),
  ensureChain: vi.fn(async () => undefined),
  sendTokenTransfer: vi.fn(async () => `0x${'ef'.repeat(32)}`),
}));
vi.mock('../../../lib/wallet/index.ts', () => ({
  toWalletChain: (network: { chainId: number; name: string }) => ({ id: network.chainId, name: network.name }),
  walletConfigFor: (chains: unknown) => ({ chains }),
  ...wallet,
}));

const { fetchMock, route, bodies } = createFetchMock(() => ({
  'GET /api/account-plan/v2/fetch-plans': () => json(CATALOGUE),
  'GET /api/account-plan/subscription': () => json(TRIAL),
  [`GET /api/account-plan/rate-plan/${ANNUAL_STANDARD.id}/credit-bundles`]: () => json(BUNDLES),
  'GET /api/account-plan/user-plan': () => json({ name: 'Trial', status: 'ACTIVE', credits: 100, renewsAt: null }),
  'POST /api/account-plan/order/plan': () => json(ORDER),
  'POST /api/account-plan/order/track': () => json(ORDER),
}));

function renderPage(handlers: Record<string, Handler> = {}) {
  route(handlers);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  session.setMarker(TEST_USER.id, TEST_USER.role);
  queryClient.setQueryData(currentUserQuery(TEST_USER.id).queryKey, TEST_USER);
  const result = renderWithProviders(<UpgradePage />, { route: '/account-plan/upgrade', queryClient });
  return { ...result, queryClient };
}

const click = (name: string | RegExp) => fireEvent.click(screen.getByRole('button', { name }));
const calls = (key: string) => bodies(key).length;

/** From the plans table to the payment step with the annual standard plan and its 1,000-credit bundle. */
async function toPayment() {
  fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Annual Subscription — Standard' }));
  fireEvent.click(await screen.findByRole('radio', { name: /1,000 credits/ }));
  click('Continue to summary');
  await screen.findByRole('heading', { name: 'Plan summary' });
  click('Continue to payment');
  await screen.findByRole('heading', { name: 'Payment' });
}

function agreeToAll() {
  for (const name of [/terms and conditions/, /acceptable use policy/, /privacy policy/]) {
    fireEvent.click(screen.getByRole('checkbox', { name }));
  }
}

describe('UpgradePage', { timeout: 30_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    fetchMock.mockClear();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows the four steps and the plans table: prices, allowances, the current plan and lower plans not offered', async () => {
    renderPage({ 'GET /api/account-plan/subscription': () => json(ANNUAL) });
    const table = await screen.findByRole('table', { name: 'Choose your plan' });
    for (const label of ['Plan selection', 'Summary', 'Payment', 'Confirmation']) {
      expect(screen.getByText(label)).toBeInTheDocument();
    }
    const t = within(table);
    expect(t.getByText('Pay as you go')).toBeInTheDocument();
    expect(t.getByText('Billed monthly; credits billed monthly')).toBeInTheDocument();
    expect(t.getByText('Annual Subscription')).toBeInTheDocument();
    expect(t.getByText('Billed annually; credit bundles can be pre-purchased')).toBeInTheDocument();
    expect(t.getByText('£6,000.00 per year')).toBeInTheDocument();
    expect(t.getByText('£18,000.00 per year')).toBeInTheDocument();
    expect(t.getByText('$1.20 per credit, billed monthly')).toBeInTheDocument();
    // 0 blockchains means all (the advance tiers).
    expect(t.getAllByText('All')).toHaveLength(2);
    expect(t.getByText('200 requests a second per network')).toBeInTheDocument();
    for (const row of ['Applications', 'Tokens', 'Bridges', 'Blockchains', 'Mainnets', 'Testnets']) {
      expect(t.getByRole('rowheader', { name: row })).toBeInTheDocument();
    }
    expect(t.getByRole('rowheader', { name: /^Gateway rate limit/ })).toBeInTheDocument();
    // The current plan is marked and cannot be ordered; the plans below it are not offered.
    expect(t.getByRole('button', { name: 'Current plan' })).toBeDisabled();
    expect(t.queryByRole('button', { name: /Upgrade Pay as you go/ })).not.toBeInTheDocument();
    expect(t.getAllByText('Below your current plan')).toHaveLength(2);
    expect(t.getByRole('button', { name: 'Upgrade Annual Subscription — Advance' })).toBeEnabled();
    expect(t.getAllByRole('button', { name: /^Contact Us/ })).toHaveLength(4);
  });

  it('says No Plans appearing yet when nothing is on sale', async () => {
    renderPage({ 'GET /api/account-plan/v2/fetch-plans': () => json({ groups: [] }) });
    expect(await screen.findByText('No Plans appearing yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to summary' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Contact Us' })).toBeInTheDocument();
  });

  it('asks for a plan before the summary', async () => {
    renderPage();
    await screen.findByRole('table');
    click('Continue to summary');
    expect(await screen.findByText('Choose a plan to continue.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Plan summary' })).not.toBeInTheDocument();
  });

  it('sums the plan and its bundle up in the summary, with every label of the spec', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Annual Subscription — Standard' }));
    expect(screen.getByRole('button', { name: 'Upgrade Annual Subscription — Standard' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await screen.findByRole('radio', { name: 'No credit bundle' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: '1,000 credits — $1,100.00 ($1.10 per credit)' }));
    click('Continue to summary');
    await screen.findByRole('heading', { name: 'Plan summary' });

    const value = (label: string) => {
      const term = screen.getByText(label, { selector: 'dt' });
      return term.nextElementSibling?.textContent;
    };
    const today = new Date();
    expect(value('Subscription type')).toBe('Annual Subscription');
    expect(value('Plan name')).toBe('Annual Subscription — Standard');
    expect(value('Start date')).toBe(formatDate(today));
    expect(value('Start date')).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(value('End or renewal date')).toBe(formatDate(addMonths(today, 12)));
    expect(value('Renewal cost')).toBe('£6,000.00 per year');
    expect(value('Upfront cost')).toBe('£6,000.00 + $1,100.00');
    expect(value('Number of mainnets')).toBe('3');
    expect(value('Number of testnets')).toBe('10');
    expect(value('Credit bundle')).toBe('1,000 credits');
    expect(value('Credit unit price')).toBe('$1.10');
    // The plan accepts QNT, bank transfer and card; this installation takes bank transfer only today.
    expect(value('Accepted payment methods')).toBe('Bank transfer');
    expect(value('Plan cost')).toBe('£6,000.00');
    expect(value('Bundle cost')).toBe('$1,100.00');
    expect(value('Subtotal')).toBe('£6,000.00 + $1,100.00');
    expect(value('Total cost')).toBe('£6,000.00 + $1,100.00');

    // Edit goes back to the plan step with the choice kept.
    click('Edit Plan selection');
    expect(await screen.findByRole('radio', { name: /1,000 credits/ })).toBeChecked();
  });

  it('keeps the payment step’s legends in the text colour while a control inside has the focus', async () => {
    renderPage();
    await toPayment();
    const terms = screen.getByText('Terms', { selector: 'legend' });
    act(() => screen.getByRole('checkbox', { name: /privacy policy/ }).focus());
    expect(terms).toHaveClass('Mui-focused');
    expect(getComputedStyle(terms).color).toBe(hexToRgb(theme.palette.text.primary));
  });

  it('requires the three policies, offers only the methods available today, and places the bank-transfer order', async () => {
    const { queryClient } = renderPage();
    await toPayment();
    // Card and QNT are accepted by the plan but not available yet: only bank transfer is offered.
    expect(screen.getByRole('radio', { name: 'Bank transfer' })).toBeChecked();
    expect(screen.queryByRole('radio', { name: 'Card' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'QNT' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'acceptable use policy' })).toHaveAttribute('target', '_blank');

    click('Place order');
    expect(await screen.findByText('Please agree to the terms and conditions.')).toBeInTheDocument();
    expect(screen.getByText('Please agree to the acceptable use policy.')).toBeInTheDocument();
    expect(screen.getByText('Please agree to the privacy policy.')).toBeInTheDocument();
    expect(calls('POST /api/account-plan/order/plan')).toBe(0);

    queryClient.setQueryData(['account-plan', 'user-plan'], {
      name: 'Trial',
      status: 'ACTIVE',
      credits: 100,
      renewsAt: null,
    });
    queryClient.setQueryData(['connect', 'available', TEST_USER.id], {});
    agreeToAll();
    click('Place order');

    expect(await screen.findByRole('heading', { name: 'Pay by bank transfer' })).toBeInTheDocument();
    const [sent] = bodies('POST /api/account-plan/order/plan');
    expect(sent).toEqual({
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ratePlanId: ANNUAL_STANDARD.id,
      upfrontMonths: null,
      creditBundleId: BUNDLES.bundles[0]!.id,
      paymentMethod: 'BANK_TRANSFER',
      terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
    });
    expect(screen.getByText('Your plan will be active once we receive your payment')).toBeInTheDocument();
    expect(screen.getAllByText('CNX-7K2M9QXA').length).toBeGreaterThan(0);
    expect(screen.getAllByText('£6,880.00').length).toBeGreaterThan(0);
    expect(screen.getByText('GB00SAND00000000000000')).toBeInTheDocument();
    expect(screen.getByText('04.12.2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeInTheDocument();
    // The top bar's plan and the features are stale at once (the top bar, watching, reads Pending).
    await waitFor(() => expect(queryClient.getQueryState(['account-plan', 'user-plan'])?.isInvalidated).toBe(true));
    expect(queryClient.getQueryState(['connect', 'available', TEST_USER.id])?.isInvalidated).toBe(true);
  });

  it('shows the server’s refusal and sends the same idempotency key when the order is tried again', async () => {
    let attempt = 0;
    renderPage({
      'POST /api/account-plan/order/plan': () =>
        ++attempt === 1
          ? json(
              { status: 409, title: 'Conflict', code: 'ORDER_PENDING', detail: 'An order is waiting for its payment.' },
              409,
            )
          : json(ORDER),
    });
    await toPayment();
    agreeToAll();
    click('Place order');
    expect(await screen.findByText('An order is waiting for its payment.')).toBeInTheDocument();
    click('Place order');
    await screen.findByRole('heading', { name: 'Pay by bank transfer' });
    const [first, second] = bodies('POST /api/account-plan/order/plan') as { idempotencyKey: string }[];
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
  });

  it('places a pay-as-you-go order with nothing to pay and lands on the success screen', async () => {
    renderPage({ 'POST /api/account-plan/order/plan': () => json(PAYG_ORDER) });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Pay as you go — Standard' }));
    click('Continue to summary');
    await screen.findByRole('heading', { name: 'Plan summary' });
    expect(screen.getByText('Total cost', { selector: 'dt' }).nextElementSibling?.textContent).toBe('£0.00');
    expect(screen.getByText('Credit unit price', { selector: 'dt' }).nextElementSibling?.textContent).toBe('$1.20');
    click('Continue to payment');
    expect(await screen.findByText(/Nothing to pay now/)).toBeInTheDocument();
    agreeToAll();
    click('Place order');
    expect(await screen.findByRole('heading', { name: 'Welcome to the blockchain economy' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Networks' })).toHaveAttribute('href', '/my-networks');
    expect(bodies('POST /api/account-plan/order/plan')[0]).toMatchObject({
      paymentMethod: 'FIAT',
      creditBundleId: null,
    });
  });

  it('resumes an order that waits for its payment at the confirmation', async () => {
    const pending: TSubscription = { ...TRIAL, status: 'PENDING', pendingOrder: ORDER };
    renderPage({ 'GET /api/account-plan/subscription': () => json(pending) });
    expect(await screen.findByRole('heading', { name: 'Pay by bank transfer' })).toBeInTheDocument();
    expect(screen.getByText('Confirmation').closest('[aria-current="step"]')).not.toBeNull();
  });

  describe('paying in QNT', () => {
    const TAKES_QNT: TSubscription = { ...TRIAL, availablePaymentMethods: ['BANK_TRANSFER', 'QNT'] };
    const TX_HASH = `0x${'ef'.repeat(32)}`;
    afterEach(() => Object.values(wallet).forEach((fn) => fn.mockClear()));

    /** The annual plan to its payment step, paid with QNT ("Continue to MetaMask"). */
    async function payInQnt() {
      renderPage({
        'GET /api/account-plan/subscription': () => json(TAKES_QNT),
        'POST /api/account-plan/order/plan': () => json(QNT_ORDER),
        'POST /api/account-plan/order/track': () => json(QNT_ORDER),
      });
      await toPayment();
      agreeToAll();
      click('Continue to MetaMask');
    }

    it('offers QNT first for the annual plan; Continue to MetaMask places the order, the wallet sends the transfer and the platform is told', async () => {
      renderPage({
        'GET /api/account-plan/subscription': () => json(TAKES_QNT),
        'POST /api/account-plan/order/plan': () => json(QNT_ORDER),
        'POST /api/account-plan/order/track': () => json(QNT_ORDER),
        'POST /api/payment/confirm-payment': () =>
          json({
            ...QNT_PAYMENT,
            status: 'PROCESSING',
            transfers: [{ ...TRANSFER, txHash: TX_HASH, confirmations: 0 }],
          }),
      });
      await toPayment();
      // The plan's order of methods: QNT first, and chosen.
      const methods = screen.getAllByRole('radio').filter((radio) => radio.getAttribute('name') === 'paymentMethod');
      expect(methods.map((radio) => radio.closest('label')?.textContent)).toEqual(['QNT', 'Bank transfer']);
      expect(screen.getByRole('radio', { name: 'QNT' })).toBeChecked();
      expect(screen.getByText(/The amount in QNT is quoted when you continue/)).toBeInTheDocument();
      agreeToAll();
      click('Continue to MetaMask');

      // The transfer is confirming: the live state of the confirmation step.
      expect(await screen.findByRole('heading', { name: 'Your transfer is being confirmed' })).toBeInTheDocument();
      expect(screen.getByText('0 of 3 confirmations')).toBeInTheDocument();
      expect(bodies('POST /api/account-plan/order/plan')[0]).toMatchObject({
        paymentMethod: 'QNT',
        ratePlanId: ANNUAL_STANDARD.id,
        idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(wallet.connectWallet).toHaveBeenCalledWith(
        { chains: [{ id: 31337, name: 'Ethereum Testnet (local)' }] },
        expect.objectContaining({ choose: expect.any(Function) }),
      );
      expect(wallet.ensureChain).toHaveBeenCalledWith(expect.anything(), 31337);
      expect(wallet.sendTokenTransfer).toHaveBeenCalledWith(
        expect.anything(),
        { chainId: 31337, token: QNT_PAYMENT.tokenAddress, to: QNT_PAYMENT.depositAddress, amount: 86n * 10n ** 18n },
        expect.anything(),
      );
      expect(bodies('POST /api/payment/confirm-payment')).toEqual([{ orderId: QNT_ORDER.id, txHash: TX_HASH }]);
    });

    it('lists in the summary the methods the order can be paid with now', async () => {
      renderPage({ 'GET /api/account-plan/subscription': () => json(TAKES_QNT) });
      fireEvent.click(await screen.findByRole('button', { name: 'Upgrade Annual Subscription — Standard' }));
      expect(await screen.findByRole('radio', { name: 'No credit bundle' })).toBeChecked();
      click('Continue to summary');
      await screen.findByRole('heading', { name: 'Plan summary' });
      const methods = screen.getByText('Accepted payment methods', { selector: 'dt' }).nextElementSibling;
      expect(methods).toHaveTextContent(/^QNT, Bank transfer$/);
    });

    it('says "User denied transaction signature." when the transfer is refused, and keeps the order to pay again or elsewhere', async () => {
      wallet.sendTokenTransfer.mockRejectedValueOnce(new WalletError('USER_REJECTED'));
      await payInQnt();
      expect(await screen.findByText('User denied transaction signature.')).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Waiting for your transfer' })).toBeInTheDocument();
      expect(screen.getByText(QNT_PAYMENT.depositAddress)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Pay 86 QNT with your wallet' })).toBeInTheDocument();
      expect(bodies('POST /api/payment/confirm-payment')).toEqual([]);
    });

    it('says "Please install and activate your MetaMask!" without a wallet', async () => {
      wallet.connectWallet.mockRejectedValueOnce(new WalletError('NO_WALLET'));
      await payInQnt();
      expect(await screen.findByText('Please install and activate your MetaMask!')).toBeInTheDocument();
      // Where to get it, and the way to pay without it.
      const getMetaMask = screen.getByRole('link', { name: /^Get MetaMask/ });
      expect(getMetaMask).toHaveAttribute('href', 'https://metamask.io/download/');
      expect(getMetaMask).toHaveAttribute('target', '_blank');
      expect(getMetaMask.getAttribute('rel')).toContain('noopener');
      expect(
        screen.getByText(
          /send 86 QNT on Ethereum Testnet \(local\) to the deposit address above from any wallet or exchange/,
        ),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Pay 86 QNT with your wallet' })).toBeInTheDocument();
      expect(wallet.sendTokenTransfer).not.toHaveBeenCalled();
    });

    it('resumes an open QNT payment at its live state, without opening the wallet by itself', async () => {
      const processing = {
        ...QNT_ORDER,
        qnt: { ...QNT_PAYMENT, status: 'PROCESSING' as const, transfers: [TRANSFER] },
      };
      renderPage({
        'GET /api/account-plan/subscription': () => json({ ...TAKES_QNT, status: 'PENDING', pendingOrder: processing }),
        'POST /api/account-plan/order/track': () => json(processing),
      });
      expect(await screen.findByRole('heading', { name: 'Your transfer is being confirmed' })).toBeInTheDocument();
      expect(screen.getByText('1 of 3 confirmations')).toBeInTheDocument();
      expect(screen.getByText('Confirmation').closest('[aria-current="step"]')).not.toBeNull();
      expect(wallet.connectWallet).not.toHaveBeenCalled();
    });
  });

  it('sends a plan enquiry with the current plan from Contact Us, and says so when it fails', async () => {
    let fail = true;
    renderPage({
      'POST /api/connect/contact-us-form': () =>
        fail
          ? json({ status: 500, title: 'Internal Server Error' }, 500)
          : json({ reference: 'ENQ-1A2B3C4D', receivedAt: '2026-11-20T10:00:00.000Z' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Contact Us Annual Subscription — Advance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Us' });
    const d = within(dialog);
    expect(d.getByText(/answer within 24 working hours/)).toBeInTheDocument();
    expect(d.getByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace');
    expect(d.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    expect(d.getByRole('textbox', { name: 'Company' })).toHaveValue('Analytical Engines Ltd');
    expect(d.getByRole('textbox', { name: 'Current plan' })).toHaveValue('Trial');
    fireEvent.click(d.getByRole('button', { name: 'Confirm' }));
    expect(await d.findByText('This field is required.')).toBeInTheDocument();

    fireEvent.change(d.getByRole('textbox', { name: 'Description' }), { target: { value: 'We need 20 mainnets.' } });
    fireEvent.click(d.getByRole('button', { name: 'Confirm' }));
    expect(await d.findByText('Something went wrong, please close and try again.')).toBeInTheDocument();

    fail = false;
    fireEvent.click(d.getByRole('button', { name: 'Confirm' }));
    expect(await d.findByText('Your enquiry reference is ENQ-1A2B3C4D.')).toBeInTheDocument();
    expect(bodies('POST /api/connect/contact-us-form').at(-1)).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Analytical Engines Ltd',
      currentPlan: 'Trial',
      subject: 'Plan enquiry: Annual Subscription — Advance',
      description: 'We need 20 mainnets.',
    });
    fireEvent.click(d.getAllByRole('button', { name: 'Close' })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes Contact Us with Cancel without sending', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Contact Us Pay as you go — Standard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Us' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('POST /api/connect/contact-us-form')).toBe(0);
  });

  it('closes Contact Us with its close (X) button without sending', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Contact Us Annual Subscription — Advance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Us' });
    expect(within(dialog).getByText('About Annual Subscription — Advance')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls('POST /api/connect/contact-us-form')).toBe(0);
  });
});
