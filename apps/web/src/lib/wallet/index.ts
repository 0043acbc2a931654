/**
 * The wallet layer (wagmi + viem, injected connector with EIP-6963 discovery). Import it only from
 * lazily loaded routes that need a wallet, or load it with `import()` at the moment of paying: it
 * carries ~100 KB of gzipped code. `errors.ts` and `picker.tsx` import nothing of wagmi or viem, so
 * a page may import those two directly.
 */
export { toWalletChain, toWalletChains, type WalletNetwork } from './chains.ts';
export { createWalletConfig, walletConfigFor } from './config.ts';
export {
  connectWallet,
  ensureChain,
  hasWallet,
  readThroughWallet,
  sendDeployment,
  sendTokenTransfer,
  walletOptions,
  writeFromWallet,
  type ConnectOptions,
} from './actions.ts';
export { classifyWalletError, walletErrorDetail, walletMessage, WalletError, type WalletErrorCode } from './errors.ts';
export { useWalletPicker, WalletPickerDialog, type WalletChooser, type WalletOption } from './picker.tsx';
export { WalletProvider, useWallet } from './provider.tsx';
