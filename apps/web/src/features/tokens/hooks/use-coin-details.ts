import type { TTokenDetails } from '@connect/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { classifyWalletError, connectWallet, useWallet } from '../../../lib/wallet/index.ts';
import { getTokenQueryOptions, useToken } from '../api/get-token.ts';
import { formatTokenAmount } from '../utils/amounts.ts';

/**
 * The state of coin details once the token has loaded: the token read again with the connected
 * wallet as holder (so the platform also reads that wallet's balance), connecting the wallet, and
 * reading the new supply after a mint.
 */
export function useCoinDetails(id: string, initial: TTokenDetails) {
  const { t } = useTranslation('quantPortfolio');
  const queryClient = useQueryClient();
  const wallet = useWallet();
  const [walletError, setWalletError] = useState<string | null>(null);
  const query = useToken(id, wallet.address);
  const token = query.data ?? initial;

  const handleConnect = async () => {
    try {
      await connectWallet(wallet.config, { choose: wallet.choose });
      setWalletError(null);
    } catch (error) {
      const code = classifyWalletError(error);
      // A closed wallet picker is no failure: nothing changes.
      setWalletError(
        code === 'CANCELLED' ? null : t(`wallet.errors.${code}`, { network: token.network, chainId: token.chainId }),
      );
    }
  };

  /** Re-reads the token after a mint; resolves with the new total supply, formatted. */
  const handleMinted = async () => {
    const fresh = await queryClient.fetchQuery({ ...getTokenQueryOptions(id, wallet.address), staleTime: 0 });
    return formatTokenAmount(fresh.onChain?.totalSupply, fresh.decimalPlaces);
  };

  return {
    token,
    walletAddress: wallet.address,
    walletError,
    isMintable: (token.tierType === 'flex' || token.tierType === 'vari') && token.status === 'ACTIVE',
    isRefreshing: query.isFetching,
    refresh: () => void query.refetch(),
    handleConnect,
    handleMinted,
  };
}
