import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { WagmiProvider, useConfig, useConnection } from 'wagmi';
import { toWalletChains, type WalletNetwork } from './chains.ts';
import { walletConfigFor } from './config.ts';
import { useWalletPicker, type WalletChooser } from './picker.tsx';

const ChooserContext = createContext<WalletChooser | undefined>(undefined);

/**
 * Wraps a page that needs a wallet. Only the token creation and coin details routes render it,
 * so wagmi and viem load with those pages and never with /login or /dashboard.
 * It relies on the app's QueryClientProvider (wagmi keeps its queries there), and renders the
 * wallet picker the page's actions open when several wallets are installed.
 */
export function WalletProvider({ networks, children }: { networks: readonly WalletNetwork[]; children: ReactNode }) {
  const chainKey = networks.map((network) => network.chainId).join(',');
  // Keyed by the chain ids: a new array with the same networks keeps the same configuration.
  const config = useMemo(() => walletConfigFor(toWalletChains(networks)), [chainKey]); // networks: same chainKey
  const picker = useWalletPicker();
  return (
    <WagmiProvider config={config} reconnectOnMount>
      <ChooserContext.Provider value={picker.choose}>
        {children}
        {picker.dialog}
      </ChooserContext.Provider>
    </WagmiProvider>
  );
}

/**
 * The connected wallet as the screens show it, and what the wallet actions take: the
 * configuration and `choose`, the picker (pass it as `{ choose }`).
 */
export function useWallet() {
  const config = useConfig();
  const connection = useConnection();
  const choose = useContext(ChooserContext);
  return {
    config,
    choose,
    address: connection.address,
    chainId: connection.chainId,
    isConnected: connection.status === 'connected',
    isConnecting: connection.status === 'connecting' || connection.status === 'reconnecting',
    connectorName: connection.connector?.name,
  };
}
