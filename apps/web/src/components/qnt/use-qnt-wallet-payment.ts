import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { TOrder } from '@connect/shared';
import type { Address } from 'viem';
import { confirmPayment } from '../../lib/payment/api.ts';
import { outstandingWei, sentTransfers } from '../../lib/payment/qnt.ts';
import { trackOrderQuery } from '../../lib/plans/api.ts';
import { problemMessage } from '../../lib/problems.ts';
import { classifyWalletError, walletErrorDetail, type WalletErrorCode } from '../../lib/wallet/errors.ts';
import { useWalletPicker } from '../../lib/wallet/picker.tsx';

/** What the wallet payment is doing now. */
export type QntWalletPhase = 'idle' | 'connecting' | 'switching' | 'signing' | 'confirming';

/**
 * Pays what is outstanding on a QNT order from the customer's wallet: loads the wallet layer (only
 * now: it is ~100 KB), connects the wallet the customer picks, switches it to the order's network,
 * has it send the ERC-20 transfer of the amount to the deposit address, then hands the hash to the
 * platform (POST /confirm-payment), whose answer becomes the order's QNT state at once. The
 * platform's chain follower sees any transfer to the address, so a failed confirm-payment is only
 * a warning. Render `picker` in the page.
 */
export function useQntWalletPayment(order: TOrder) {
  const queryClient = useQueryClient();
  const picker = useWalletPicker();
  const [phase, setPhase] = useState<QntWalletPhase>('idle');
  const [walletError, setWalletError] = useState<{ code: WalletErrorCode; detail?: string | undefined } | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const isRunning = useRef(false);
  const { choose } = picker;

  const pay = useCallback(async () => {
    const qnt = order.qnt;
    const amount = qnt ? outstandingWei(qnt) : 0n;
    // A second click before the first attempt ends must not ask the wallet twice.
    if (!qnt || amount <= 0n || isRunning.current) return;
    isRunning.current = true;
    setWalletError(null);
    setConfirmError(null);
    try {
      let txHash: string;
      try {
        setPhase('connecting');
        const wallet = await import('../../lib/wallet/index.ts');
        const config = wallet.walletConfigFor([wallet.toWalletChain({ chainId: qnt.chainId, name: qnt.networkName })]);
        await wallet.connectWallet(config, { choose });
        setPhase('switching');
        await wallet.ensureChain(config, qnt.chainId);
        setPhase('signing');
        txHash = await wallet.sendTokenTransfer(
          config,
          { chainId: qnt.chainId, token: qnt.tokenAddress as Address, to: qnt.depositAddress as Address, amount },
          { choose },
        );
      } catch (error) {
        const code = classifyWalletError(error);
        if (code !== 'CANCELLED') setWalletError({ code, detail: walletErrorDetail(error) });
        return;
      }
      sentTransfers.add(order.id, txHash);
      setPhase('confirming');
      try {
        const payment = await confirmPayment({ orderId: order.id, txHash });
        queryClient.setQueryData(trackOrderQuery(order).queryKey, (current) =>
          current ? { ...current, qnt: payment } : current,
        );
      } catch (error) {
        setConfirmError(problemMessage(error));
      }
    } finally {
      isRunning.current = false;
      setPhase('idle');
    }
  }, [choose, order, queryClient]);

  return { phase, walletError, confirmError, pay, picker: picker.dialog };
}
