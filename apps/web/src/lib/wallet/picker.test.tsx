// @vitest-environment jsdom
// (jsdom: a test here reads the computed outline of a focused control, which happy-dom does not cascade)
import { hexToRgb } from '@mui/material/styles';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { decodeFunctionData, erc20Abi, type Address } from 'viem';
import type { Config } from 'wagmi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { theme } from '../../theme.ts';
import { connectWallet, sendTokenTransfer } from './actions.ts';
import { toWalletChain } from './chains.ts';
import { createWalletConfig } from './config.ts';
import { classifyWalletError, walletMessage } from './errors.ts';
import { useWalletPicker } from './picker.tsx';

const CHAIN_ID = 31337;
const HASH = `0x${'cd'.repeat(32)}`;
const ICON = (colour: string) =>
  `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg"><rect fill="${colour}"/></svg>`)}`;

type Call = { method: string; params?: unknown };

/**
 * A browser wallet as the page sees it: an EIP-1193 provider that announces itself through
 * EIP-6963 (unless `isAnnounced` is false), answers the connection and sending requests, and
 * records them. `isRefusing` answers every request like a user pressing Reject (4001);
 * `isRefusingToSend` only the transaction.
 */
function installWallet(options: {
  name: string;
  rdns: string;
  account: Address;
  isAnnounced?: boolean;
  isRefusing?: boolean;
  isRefusingToSend?: boolean;
  asWindowEthereum?: boolean;
}) {
  const calls: Call[] = [];
  let isConnected = false;
  let chainId = CHAIN_ID;
  const refuse = () => {
    throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
  };
  const provider = {
    async request({ method, params }: Call): Promise<unknown> {
      calls.push({ method, params });
      switch (method) {
        case 'wallet_requestPermissions':
        case 'eth_requestAccounts':
          if (options.isRefusing) refuse();
          isConnected = true;
          return method === 'eth_requestAccounts' ? [options.account] : [{ parentCapability: 'eth_accounts' }];
        case 'eth_accounts':
          return isConnected ? [options.account] : [];
        case 'wallet_getPermissions':
          return isConnected ? [{ parentCapability: 'eth_accounts' }] : [];
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`;
        case 'wallet_switchEthereumChain':
          chainId = Number((params as [{ chainId: string }])[0].chainId);
          return null;
        case 'eth_sendTransaction':
          if (options.isRefusing || options.isRefusingToSend) refuse();
          return HASH;
        case 'eth_estimateGas':
          return '0x10000';
        case 'eth_gasPrice':
        case 'eth_maxPriorityFeePerGas':
          return '0x1';
        case 'eth_blockNumber':
          return '0x1';
        case 'eth_getTransactionCount':
          return '0x0';
        case 'eth_getBlockByNumber':
          return { number: '0x1', baseFeePerGas: '0x1', timestamp: '0x1', transactions: [] };
        default:
          throw Object.assign(new Error(`Unsupported ${method}`), { code: 4200 });
      }
    },
    on: () => provider,
    removeListener: () => provider,
  };
  const detail = Object.freeze({
    info: Object.freeze({ uuid: crypto.randomUUID(), name: options.name, icon: ICON('#123'), rdns: options.rdns }),
    provider,
  });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  if (options.isAnnounced !== false) {
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  }
  if (options.asWindowEthereum) Object.defineProperty(window, 'ethereum', { value: provider, configurable: true });
  cleanups.push(() => window.removeEventListener('eip6963:requestProvider', announce));
  return { calls, icon: detail.info.icon };
}

const cleanups: (() => void)[] = [];
const ALICE: Address = '0x1111111111111111111111111111111111111111';
const BOB: Address = '0x2222222222222222222222222222222222222222';

/** A fresh configuration, as a page creates it once the wallets have announced themselves. */
const newConfig = () => createWalletConfig([toWalletChain({ chainId: CHAIN_ID, name: 'Ethereum Testnet (local)' })]);

/** A page with a Connect button, the picker, and what came of connecting. */
function Harness({ config }: { config: Config }) {
  const picker = useWalletPicker();
  const [result, setResult] = useState('');
  const handleConnect = async () => {
    try {
      setResult(await connectWallet(config, { choose: picker.choose }));
    } catch (error) {
      setResult(walletMessage(classifyWalletError(error)) ?? 'Nothing chosen');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void handleConnect()}>
        Connect
      </button>
      <output>{result}</output>
      {picker.dialog}
    </>
  );
}

function connectThroughPage(config = newConfig()) {
  renderWithProviders(<Harness config={config} />);
  fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
  return config;
}

describe('the wallet picker', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    cleanups.splice(0).forEach((cleanup) => cleanup());
    Reflect.deleteProperty(window, 'ethereum');
    sessionStorage.clear();
    localStorage.clear();
  });

  it('asks which wallet when several announce themselves, by name and icon, and connects the one chosen', async () => {
    const alpha = installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE, asWindowEthereum: true });
    const beta = installWallet({ name: 'Beta Wallet', rdns: 'com.beta', account: BOB });
    connectThroughPage();

    const dialog = await screen.findByRole('dialog', { name: 'Choose a wallet' });
    // window.ethereum is Alpha itself: it is not offered a second time as a "Browser wallet".
    const options = within(dialog)
      .getAllByRole('button')
      .filter((button) => button.dataset.walletOption !== undefined);
    expect(options.map((button) => button.textContent)).toEqual(['Alpha Wallet', 'Beta Wallet']);
    expect(options[1]!.querySelector('img')).toHaveAttribute('src', beta.icon);
    expect(options[0]!.querySelector('img')).toHaveAttribute('src', alpha.icon);
    // Keyboard: the first wallet has the focus, the arrow moves to the next.
    expect(options[0]).toHaveFocus();
    fireEvent.keyDown(options[0]!, { key: 'ArrowDown' });
    expect(options[1]).toHaveFocus();

    fireEvent.click(options[1]!);
    expect(await screen.findByText(BOB)).toBeInTheDocument();
    expect(beta.calls.some((call) => call.method === 'eth_requestAccounts')).toBe(true);
    expect(alpha.calls.some((call) => call.method === 'eth_requestAccounts')).toBe(false);
  });

  it('shows a ring in the primary colour around the wallet that has the keyboard focus', async () => {
    installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE });
    installWallet({ name: 'Beta Wallet', rdns: 'com.beta', account: BOB });
    // jsdom knows no keyboard modality: here the focused element always counts as focused by the
    // keyboard (:focus-visible), as after the arrow key in a browser.
    const matches = Element.prototype.matches;
    vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
      return selector === ':focus-visible' ? this === document.activeElement : matches.call(this, selector);
    });
    connectThroughPage();
    const dialog = await screen.findByRole('dialog', { name: 'Choose a wallet' });
    const alpha = within(dialog).getByRole('button', { name: 'Alpha Wallet' });
    const beta = within(dialog).getByRole('button', { name: 'Beta Wallet' });
    fireEvent.keyDown(alpha, { key: 'ArrowDown' });

    expect(beta).toHaveFocus();
    const primary = hexToRgb(theme.palette.primary.main);
    expect(getComputedStyle(beta).outline).toBe('2px solid');
    expect(getComputedStyle(beta).outlineColor).toBe(primary);
    expect(getComputedStyle(alpha).outlineColor).not.toBe(primary);
  });

  it('remembers the choice for the session: the next connection asks no more', async () => {
    installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE });
    installWallet({ name: 'Beta Wallet', rdns: 'com.beta', account: BOB });
    connectThroughPage();
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Beta Wallet' }));
    expect(await screen.findByText(BOB)).toBeInTheDocument();

    // Another page (another configuration) of the same session.
    expect(await connectWallet(newConfig(), { choose: () => Promise.reject(new Error('asked again')) })).toBe(BOB);
  });

  it('closing the picker chooses nothing and asks no wallet', async () => {
    const alpha = installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE });
    installWallet({ name: 'Beta Wallet', rdns: 'com.beta', account: BOB });
    connectThroughPage();
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Nothing chosen')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(alpha.calls.filter((call) => call.method === 'eth_requestAccounts')).toEqual([]);
  });

  it('connects the only wallet without asking', async () => {
    installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE, asWindowEthereum: true });
    connectThroughPage();
    expect(await screen.findByText(ALICE)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('uses window.ethereum when no wallet announces itself', async () => {
    installWallet({ name: 'Old Wallet', rdns: 'com.old', account: ALICE, isAnnounced: false, asWindowEthereum: true });
    connectThroughPage();
    expect(await screen.findByText(ALICE)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says "Please install and activate your MetaMask!" when there is no wallet', async () => {
    connectThroughPage();
    expect(await screen.findByText('Please install and activate your MetaMask!')).toBeInTheDocument();
  });

  it('says "User denied transaction signature." when the user refuses in the wallet', async () => {
    installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE, isRefusing: true });
    connectThroughPage();
    expect(await screen.findByText('User denied transaction signature.')).toBeInTheDocument();
  });
});

describe('sendTokenTransfer', () => {
  afterEach(() => {
    cleanups.splice(0).forEach((cleanup) => cleanup());
    sessionStorage.clear();
    localStorage.clear();
  });

  it('has the wallet send an ERC-20 transfer of the amount to the address, and answers its hash', async () => {
    const wallet = installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE });
    const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const hash = await sendTokenTransfer(newConfig(), { chainId: CHAIN_ID, token, to: BOB, amount: 86n * 10n ** 18n });
    expect(hash).toBe(HASH);
    const sent = wallet.calls.find((call) => call.method === 'eth_sendTransaction');
    const [tx] = sent!.params as [{ from: string; to: string; data: `0x${string}` }];
    expect(tx.from.toLowerCase()).toBe(ALICE);
    expect(tx.to.toLowerCase()).toBe(token.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data })).toEqual({
      functionName: 'transfer',
      args: [BOB, 86n * 10n ** 18n],
    });
  });

  it('fails with the refusal when the user rejects the transfer in the wallet', async () => {
    installWallet({ name: 'Alpha Wallet', rdns: 'com.alpha', account: ALICE, isRefusingToSend: true });
    await expect(
      sendTokenTransfer(newConfig(), { chainId: CHAIN_ID, token: ALICE, to: BOB, amount: 1n }),
    ).rejects.toMatchObject({ code: 'USER_REJECTED', message: 'User denied transaction signature.' });
  });
});
