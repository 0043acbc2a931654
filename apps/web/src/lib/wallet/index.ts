/**
 * The wallet layer (wagmi + viem, injected connector with EIP-6963 discovery). Import it only from
 * lazily loaded routes that need a wallet: it carries ~100 KB of gzipped code.
 */
export { toWalletChain, toWalletChains, type WalletNetwork } from './chains.ts';
export { createWalletConfig, walletConfigFor } from './config.ts';
export {
  connectWallet,
  ensureChain,
  hasWallet,
  readThroughWallet,
  sendDeployment,
  writeFromWallet,
} from './actions.ts';
export { classifyWalletError, walletErrorDetail, WalletError, type WalletErrorCode } from './errors.ts';
export { WalletProvider, useWallet } from './provider.tsx';
