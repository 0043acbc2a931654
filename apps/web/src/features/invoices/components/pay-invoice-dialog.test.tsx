import { QueryClient } from '@tanstack/react-query';
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QNT_MESSAGES, type TOrder } from '@connect/shared';
import { formatDateTime } from '../../../lib/format.ts';
import { WalletError } from '../../../lib/wallet/errors.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import {
  createFetchMock,
  INVOICE_QNT_ORDER,
  json,
  MONTHLY,
  paymentRate,
  qnt,
  RECEIPT,
  USER,
} from '../test/fixtures.ts';
import { PayInvoiceDialog } from './pay-invoice-dialog.tsx';

vi.mock('../../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

// The wallet layer, loaded when the customer pays: its transfer is what these tests look at.
const wallet = vi.hoisted(() => ({
  sendTokenTransfer: vi.fn(async (..._args: unknown[]) => `0x${'ef'.repeat(32)}`),
}));
vi.mock('../../../lib/wallet/index.ts', () => ({
  toWalletChain: (network: { chainId: number }) => ({ id: network.chainId }),
  walletConfigFor: () => ({}),
  connectWallet: vi.fn(async () => '0x1111111111111111111111111111111111111111'),
  ensureChain: vi.fn(async () => undefined),
  sendTokenTransfer: wallet.sendTokenTransfer,
}));

configure({ asyncUtilTimeout: 8_000 });

const RATE_PATH = `GET /api/payment/user/invoice/payment-rate/${MONTHLY.id}`;
const PAY_PATH = `POST /api/payment/user/invoice/${MONTHLY.id}/pay-qnt`;
const AMOUNT = qnt('141.735');

const SETTLED: TOrder = {
  ...INVOICE_QNT_ORDER,
  status: 'PAID',
  paidAt: '2026-11-20T10:06:00.000Z',
  qnt: { ...INVOICE_QNT_ORDER.qnt!, status: 'SETTLED', paid: AMOUNT, settledAt: '2026-11-20T10:06:00.000Z' },
};

const DETAIL_PATH = `GET /api/payment/user/invoice/${MONTHLY.id}`;
const PAID_MONTHLY = {
  ...MONTHLY,
  status: 'PAID' as const,
  paymentReceived: MONTHLY.totalGbp,
  amountDue: 0,
  dateReceived: '2026-11-20T10:06:00.000Z',
  paymentMethod: 'QNT' as const,
};

const mock = createFetchMock(() => ({
  [DETAIL_PATH]: () => json(MONTHLY),
  'POST /api/account-plan/order/track': () => json(INVOICE_QNT_ORDER),
  'POST /api/connect/user/invoice/create-receipt': () => json({ ...RECEIPT, invoiceId: MONTHLY.id }),
}));

function renderDialog() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const onClose = vi.fn();
  renderWithProviders(
    <PayInvoiceDialog
      invoice={{ id: MONTHLY.id, number: MONTHLY.number }}
      accountId={USER.accountId}
      open
      onClose={onClose}
    />,
    { queryClient },
  );
  return { onClose, queryClient };
}

const valueOf = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('PayInvoiceDialog', { timeout: 40_000 }, () => {
  beforeEach(() => vi.stubGlobal('fetch', mock.fetchMock));
  afterEach(() => {
    vi.useRealTimers();
    mock.fetchMock.mockClear();
    wallet.sendTokenTransfer.mockReset();
    wallet.sendTokenTransfer.mockImplementation(async () => `0x${'ef'.repeat(32)}`);
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('settles from the QNT held when it covers the amount, then creates the receipt', async () => {
    // Fake timers moving with real time: the refresh at the end is followed to its last render by
    // moving them on, instead of waiting a fixed time.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mock.route({ [RATE_PATH]: () => json(paymentRate(qnt(200))), [PAY_PATH]: () => json(SETTLED) });
    const { queryClient } = renderDialog();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    expect(screen.getByRole('dialog', { name: 'Pay invoice INV-000042 with QNT' })).toBeInTheDocument();
    expect(await screen.findByTestId('pay-qnt-amount')).toHaveTextContent('141.735 QNT');
    expect(valueOf('Amount due')).toBe('£11,338.80');
    expect(valueOf('Rate')).toBe(
      `£80.00 per QNT, quoted ${formatDateTime('2026-11-20T10:00:00.000Z', { withZone: true })}`,
    );
    expect(valueOf('Quote valid until')).toBe(formatDateTime('2026-11-20T10:30:00.000Z', { withZone: true }));
    expect(valueOf('QNT you hold')).toBe('200 QNT');
    expect(screen.getByText(/You hold enough QNT to pay this invoice/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Pay from your QNT balance' }));
    expect(await screen.findByRole('heading', { name: 'Invoice paid' })).toBeInTheDocument();
    expect(mock.bodies(PAY_PATH)).toHaveLength(1);
    expect(wallet.sendTokenTransfer).not.toHaveBeenCalled();
    // The invoice lists and pages are read again: they show it paid.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['payment', 'invoices'] });

    // Paid: the rate is not asked again (a paid invoice has none: 409), whatever refreshes the invoices.
    await queryClient.invalidateQueries({ queryKey: ['payment', 'invoices'] });
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(mock.bodies(RATE_PATH)).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Create receipt' }));
    expect(await screen.findByText('Receipt RCT-000007 sent to your email')).toBeInTheDocument();
    expect(mock.bodies('POST /api/connect/user/invoice/create-receipt')).toEqual([{ invoiceId: MONTHLY.id }]);
    expect(screen.getByRole('button', { name: 'Download receipt' })).toBeInTheDocument();
  });

  it('without enough QNT held, pays the invoice’s order from the wallet to its deposit address and waits for it to settle', async () => {
    mock.route({
      [RATE_PATH]: () => json(paymentRate(qnt(10))),
      [PAY_PATH]: () => json(INVOICE_QNT_ORDER),
      'POST /api/payment/confirm-payment': () => json(SETTLED.qnt),
    });
    renderDialog();
    expect(await screen.findByText(/You hold 10 QNT, less than the 141.735 QNT due/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay from your QNT balance' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pay with your wallet' }));

    await waitFor(() => expect(wallet.sendTokenTransfer).toHaveBeenCalledTimes(1));
    expect(wallet.sendTokenTransfer).toHaveBeenCalledWith(
      {},
      {
        chainId: INVOICE_QNT_ORDER.qnt!.chainId,
        token: INVOICE_QNT_ORDER.qnt!.tokenAddress,
        to: INVOICE_QNT_ORDER.qnt!.depositAddress,
        amount: BigInt(AMOUNT),
      },
      expect.objectContaining({ choose: expect.any(Function) }),
    );
    expect(await screen.findByRole('heading', { name: 'Invoice paid' })).toBeInTheDocument();
    expect(mock.bodies('POST /api/payment/confirm-payment')).toEqual([
      { orderId: INVOICE_QNT_ORDER.id, txHash: `0x${'ef'.repeat(32)}` },
    ]);
    expect(screen.getByRole('button', { name: 'Create receipt' })).toBeInTheDocument();
  });

  it.each([
    ['USER_REJECTED', QNT_MESSAGES.denied],
    ['NO_WALLET', QNT_MESSAGES.noWallet],
    ['UNKNOWN', QNT_MESSAGES.failed],
  ] as const)('a wallet failure (%s) says spec §8’s words and lets the customer try again', async (code, message) => {
    wallet.sendTokenTransfer.mockImplementation(async () => {
      throw new WalletError(code);
    });
    mock.route({ [RATE_PATH]: () => json(paymentRate('0')), [PAY_PATH]: () => json(INVOICE_QNT_ORDER) });
    renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay with your wallet' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Pay 141.735 QNT with your wallet/ })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invoice paid' })).toBeNull();
  });

  it('says when the payment is refused', async () => {
    mock.route({
      [RATE_PATH]: () => json(paymentRate(qnt(200))),
      [PAY_PATH]: () =>
        json(
          { status: 409, code: 'INVOICE_NOT_PAYABLE', title: 'Conflict', detail: 'The invoice is paid already.' },
          409,
        ),
    });
    renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay from your QNT balance' }));
    expect(await screen.findByText('The payment could not be made. The invoice is paid already.')).toBeInTheDocument();
  });

  it('opened on an invoice paid meanwhile (a list read before): asks no rate and says it is paid', async () => {
    mock.route({ [DETAIL_PATH]: () => json(PAID_MONTHLY), [RATE_PATH]: () => json(paymentRate(qnt(200))) });
    renderDialog();
    expect(await screen.findByRole('heading', { name: 'Invoice paid' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create receipt' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay from your QNT balance' })).toBeNull();
    expect(mock.bodies(RATE_PATH)).toHaveLength(0);
  });

  it('the invoice paid while the dialog shows its rate (another payment, a receipt): no more rate, it says paid', async () => {
    mock.route({ [RATE_PATH]: () => json(paymentRate(qnt(10))) });
    const { queryClient } = renderDialog();
    expect(await screen.findByTestId('pay-qnt-amount')).toHaveTextContent('141.735 QNT');
    expect(mock.bodies(RATE_PATH)).toHaveLength(1);
    // The invoice's pages are refreshed (a push, a poll): the invoice is paid now.
    mock.route({
      [DETAIL_PATH]: () => json(PAID_MONTHLY),
      [RATE_PATH]: () =>
        json({ status: 409, code: 'INVOICE_NOT_PAYABLE', title: 'Conflict', detail: 'Not payable.' }, 409),
    });
    await queryClient.invalidateQueries({ queryKey: ['payment', 'invoices'] });
    expect(await screen.findByRole('heading', { name: 'Invoice paid' })).toBeInTheDocument();
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    expect(mock.bodies(RATE_PATH)).toHaveLength(1);
  });

  it('shows a failed quote with a retry', async () => {
    mock.route({ [RATE_PATH]: () => json({ status: 503, title: 'Unavailable', detail: 'No price now.' }, 503) });
    renderDialog();
    expect(await screen.findByText('The QNT rate could not be loaded. No price now.')).toBeInTheDocument();
    mock.route({ [RATE_PATH]: () => json(paymentRate(qnt(200))) });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Pay from your QNT balance' })).toBeInTheDocument();
  });
});
