import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TOrder, TQntPayment } from '@connect/shared';
import { formatDateTime } from '../../../lib/format.ts';
import { WalletError } from '../../../lib/wallet/errors.ts';
import { createFetchMock, json } from '../../../test/fixtures.ts';
import { QNT_ORDER, QNT_PAYMENT, TRANSFER, qnt } from '../../../test/plans.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { OrderConfirmation } from './order-confirmation.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

// The wallet layer, loaded when the customer pays: its transfer is what these tests look at.
const wallet = vi.hoisted(() => ({
  sendTokenTransfer: vi.fn(async () => `0x${'ef'.repeat(32)}`),
}));
vi.mock('../../../lib/wallet/index.ts', () => ({
  toWalletChain: (network: { chainId: number }) => ({ id: network.chainId }),
  walletConfigFor: () => ({}),
  connectWallet: vi.fn(async () => '0x1111111111111111111111111111111111111111'),
  ensureChain: vi.fn(async () => undefined),
  sendTokenTransfer: wallet.sendTokenTransfer,
}));

const orderWith = (qntPart: Partial<TQntPayment>, order: Partial<TOrder> = {}): TOrder => ({
  ...QNT_ORDER,
  ...order,
  qnt: { ...QNT_PAYMENT, ...qntPart },
});

const { fetchMock, route, bodies } = createFetchMock(() => ({
  'POST /api/account-plan/order/track': () => json(QNT_ORDER),
}));

function renderConfirmation(order: TOrder, intervalMs = 60_000) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  queryClient.setQueryData(['account-plan', 'user-plan'], { name: 'Trial', status: 'PENDING', credits: 0 });
  renderWithProviders(
    <OrderConfirmation
      order={order}
      planName="Annual Subscription — Standard"
      intervalMs={intervalMs}
      onRestart={vi.fn()}
    />,
    { queryClient },
  );
  return { queryClient };
}

/** The value beside a label of the payment's details. */
const detail = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('OrderConfirmation of a QNT payment', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    vi.useRealTimers();
    fetchMock.mockClear();
    wallet.sendTokenTransfer.mockClear();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('New: what to send, where and until when, with the deposit address to copy and the wallet to pay from', () => {
    renderConfirmation(QNT_ORDER);
    expect(screen.getByRole('heading', { name: 'Waiting for your transfer' })).toBeInTheDocument();
    expect(screen.getByText('New')).toBeInTheDocument();
    // The quote's times name their zone, as the order's email does.
    const expiry = formatDateTime(QNT_PAYMENT.expiresAt, { withZone: true });
    expect(expiry).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} \S+$/);
    expect(
      screen.getByText(
        `Send 86 QNT on Ethereum Testnet (local) to the deposit address below. The quote is valid until ${expiry}.`,
      ),
    ).toBeInTheDocument();
    expect(detail('Amount due')).toHaveTextContent('86 QNT');
    expect(detail('Rate')).toHaveTextContent(
      `£80.00 per QNT, quoted ${formatDateTime(QNT_PAYMENT.rateAt, { withZone: true })}`,
    );
    expect(detail('Quote valid until')).toHaveTextContent(expiry);
    expect(detail('Network')).toHaveTextContent('Ethereum Testnet (local) · chain id 31337');
    expect(detail('Deposit address')).toHaveTextContent(QNT_PAYMENT.depositAddress);
    expect(screen.getByRole('button', { name: 'Copy the deposit address' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the exact amount' })).toBeInTheDocument();
    // Paying from an exchange needs the token's contract too.
    expect(detail('QNT token contract')).toHaveTextContent(QNT_PAYMENT.tokenAddress);
    expect(screen.getByRole('button', { name: 'Copy the token contract address' })).toBeInTheDocument();
    expect(screen.getByText(/pay from an exchange or another wallet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay 86 QNT with your wallet' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeInTheDocument();
    expect(screen.getByText('Order CNX-QNT00001, £6,880.00.')).toBeInTheDocument();
  });

  it('follows the payment live: Processing with each transfer’s confirmations, then Settled and the QNT success screen', async () => {
    const answers = [
      orderWith({ status: 'PROCESSING', transfers: [TRANSFER] }),
      orderWith({ status: 'PROCESSING', transfers: [{ ...TRANSFER, confirmations: 2 }] }),
      orderWith(
        {
          status: 'SETTLED',
          paid: qnt(86),
          transfers: [{ ...TRANSFER, status: 'CONFIRMED', confirmations: 3 }],
          settledAt: '2026-11-20T10:06:00.000Z',
        },
        { status: 'PAID', paidAt: '2026-11-20T10:06:00.000Z' },
      ),
    ];
    // The tracking interval runs on fake timers (moving with real time), so that it has stopped can be
    // checked over many intervals at the end without waiting for them.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The chain moves on when the test says so; until then every track answers the same.
    let step = 0;
    route({ 'POST /api/account-plan/order/track': () => json(answers[step]) });
    const { queryClient } = renderConfirmation(QNT_ORDER, 50);

    expect(await screen.findByRole('heading', { name: 'Your transfer is being confirmed' })).toBeInTheDocument();
    const transfer = screen.getByTestId('qnt-transfer');
    expect(within(transfer).getByText('1 of 3 confirmations')).toBeInTheDocument();
    expect(within(transfer).getByRole('progressbar', { name: '1 of 3 confirmations' })).toHaveAttribute(
      'aria-valuenow',
      '33',
    );
    expect(within(transfer).getByTitle(TRANSFER.txHash)).toHaveTextContent('0xabab…abab');
    expect(screen.getByText(/QNT payments are not instant/)).toBeInTheDocument();
    // The transfer is moving: nothing more to pay and the order can no longer be withdrawn.
    expect(screen.queryByRole('button', { name: /with your wallet/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();

    step = 1;
    expect(await screen.findByText('2 of 3 confirmations')).toBeInTheDocument();
    step = 2;
    expect(
      await screen.findByRole('heading', { name: 'Thank you for submitting your QNT payment' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Your payment is confirmed and your Annual Subscription — Standard plan is active.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/A confirmation email is on its way/)).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryState(['account-plan', 'user-plan'])?.isInvalidated).toBe(true));
    // Settled: tracking stops.
    const count = bodies('POST /api/account-plan/order/track').length;
    await act(() => vi.advanceTimersByTimeAsync(10 * 50));
    expect(bodies('POST /api/account-plan/order/track').length).toBeLessThanOrEqual(count + 1);
  });

  it('PaidPartial: what was received of what is due, and the rest to send from the wallet', async () => {
    const partial = orderWith({
      status: 'PROCESSING',
      reason: 'PAID_PARTIAL',
      transfers: [{ ...TRANSFER, status: 'CONFIRMED', amount: qnt(50), confirmations: 3 }],
    });
    route({
      'POST /api/account-plan/order/track': () => json(partial),
      'POST /api/payment/confirm-payment': () =>
        json({
          ...partial.qnt,
          transfers: [...partial.qnt!.transfers, { ...TRANSFER, amount: qnt(36), confirmations: 0 }],
        }),
    });
    renderConfirmation(partial);
    expect(screen.getByRole('heading', { name: 'Waiting for the rest of your transfer' })).toBeInTheDocument();
    expect(screen.getByText('Processing')).toBeInTheDocument();
    expect(screen.getByText('Paid partially')).toBeInTheDocument();
    expect(screen.getByTestId('qnt-reason')).toHaveTextContent(
      '50 QNT of 86 QNT received — send the rest to the same address.',
    );
    expect(detail('Received')).toHaveTextContent('50 QNT');

    fireEvent.click(screen.getByRole('button', { name: 'Pay 36 QNT with your wallet' }));
    expect(await screen.findByText('0 of 3 confirmations')).toBeInTheDocument();
    expect(wallet.sendTokenTransfer).toHaveBeenCalledWith(
      {},
      {
        chainId: 31337,
        token: QNT_PAYMENT.tokenAddress,
        to: QNT_PAYMENT.depositAddress,
        amount: 36n * 10n ** 18n,
      },
      expect.objectContaining({ choose: expect.any(Function) }),
    );
    expect(bodies('POST /api/payment/confirm-payment')).toEqual([
      { orderId: QNT_ORDER.id, txHash: `0x${'ef'.repeat(32)}` },
    ]);
  });

  it('a refusal in the wallet says "User denied transaction signature." and lets the customer try again', async () => {
    wallet.sendTokenTransfer.mockRejectedValueOnce(new WalletError('USER_REJECTED'));
    renderConfirmation(QNT_ORDER);
    fireEvent.click(screen.getByRole('button', { name: 'Pay 86 QNT with your wallet' }));
    expect(await screen.findByText('User denied transaction signature.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay 86 QNT with your wallet' })).toBeEnabled();
    expect(bodies('POST /api/payment/confirm-payment')).toEqual([]);

    wallet.sendTokenTransfer.mockRejectedValueOnce(new WalletError('UNKNOWN'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay 86 QNT with your wallet' }));
    expect(await screen.findByText('Something went wrong! please try again.')).toBeInTheDocument();
  });

  it('a transfer sent but not yet seen by the chain is not offered to be paid again', async () => {
    route({ 'POST /api/payment/confirm-payment': () => json(QNT_PAYMENT) });
    renderConfirmation(QNT_ORDER);
    fireEvent.click(screen.getByRole('button', { name: 'Pay 86 QNT with your wallet' }));
    expect(await screen.findByText(/Your wallet sent the transfer 0xefef…efef/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /with your wallet/ })).not.toBeInTheDocument();
  });

  it('Expired: the quote ran out; what was sent is held as QNT toward a new order, and the order can be cancelled', () => {
    renderConfirmation(orderWith({ status: 'EXPIRED', reason: 'PAID_PARTIAL', paid: qnt(50) }));
    expect(screen.getByRole('heading', { name: 'The quote has expired' })).toBeInTheDocument();
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(screen.getByText('Paid partially')).toBeInTheDocument();
    expect(screen.getByText(/held for you as QNT and counts toward a new order/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /with your wallet/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeInTheDocument();
  });

  it('PaidLate: the transfer arrived after the quote had expired', () => {
    renderConfirmation(orderWith({ status: 'EXPIRED', reason: 'PAID_LATE', paid: qnt(86) }));
    expect(screen.getByText('Paid late')).toBeInTheDocument();
    expect(screen.getByText('Your transfer arrived after the quote had expired.')).toBeInTheDocument();
  });

  it('PaidOver: settled, and the rest is held as QNT', () => {
    renderConfirmation(orderWith({ status: 'SETTLED', reason: 'PAID_OVER', paid: qnt(86) }, { status: 'PAID' }));
    expect(screen.getByRole('heading', { name: 'Thank you for submitting your QNT payment' })).toBeInTheDocument();
    expect(screen.getByText('You sent more than was due: the rest is held for you as QNT.')).toBeInTheDocument();
  });

  it('Invalid: says so, offers no payment and stops tracking', async () => {
    // The tracking interval runs on fake timers (moving with real time), so that it has stopped can be
    // checked over many intervals at the end without waiting for them.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const invalid = orderWith({ status: 'INVALID' });
    route({ 'POST /api/account-plan/order/track': () => json(invalid) });
    renderConfirmation(invalid, 20);
    expect(screen.getByRole('heading', { name: 'This payment could not be accepted' })).toBeInTheDocument();
    expect(screen.getByText('Invalid')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /with your wallet/ })).not.toBeInTheDocument();
    // At most the read as the page opens: no polling, over ten intervals.
    await act(() => vi.advanceTimersByTimeAsync(10 * 20));
    expect(bodies('POST /api/account-plan/order/track').length).toBeLessThanOrEqual(1);
  });
});
