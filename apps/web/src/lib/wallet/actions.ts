import {
  createPublicClient,
  custom,
  erc20Abi,
  type Abi,
  type Address,
  type EIP1193Provider,
  type Hash,
  type Hex,
} from 'viem';
import {
  connect,
  getConnection,
  sendTransaction,
  switchChain,
  waitForTransactionReceipt,
  writeContract,
} from 'wagmi/actions';
import type { Config, Connector } from 'wagmi';
import { classifyWalletError, WalletError } from './errors.ts';
import { GENERIC_WALLET_ID, type WalletChooser, type WalletOption } from './picker.tsx';

/** How a screen lets the user choose among several wallets (lib/wallet/picker.tsx). */
export type ConnectOptions = { choose?: WalletChooser | undefined };

/** The wallet chosen in the picker, remembered for the browser session (cleared with it at sign-out). */
const CHOICE_KEY = 'connect.wallet.choice';

/**
 * The wallets the page can use, in the order they announced themselves: every wallet announced
 * through EIP-6963 (each names itself, with an icon), then the generic connector of
 * `window.ethereum` only when it is not one of those (a wallet that does not announce itself).
 * Connectors without a provider are left out.
 */
async function availableConnectors(config: Config): Promise<Connector[]> {
  const found = await Promise.all(
    config.connectors
      .filter((connector) => connector.type === 'injected')
      .map(async (connector) => {
        try {
          return { connector, provider: await connector.getProvider() };
        } catch {
          // A connector whose provider cannot be reached is not available.
          return { connector, provider: undefined };
        }
      }),
  );
  const present = found.filter((entry) => entry.provider);
  const announced = present.filter((entry) => entry.connector.id !== GENERIC_WALLET_ID);
  const generic = present.filter(
    (entry) =>
      entry.connector.id === GENERIC_WALLET_ID && !announced.some((other) => other.provider === entry.provider),
  );
  return [...announced, ...generic].map((entry) => entry.connector);
}

/** The wallets the page can use, as the picker shows them. */
export async function walletOptions(config: Config): Promise<WalletOption[]> {
  return (await availableConnectors(config)).map(({ id, name, icon }) => ({ id, name, icon }));
}

/** Whether the page has any EIP-1193 wallet at all (without asking the user for anything). */
export async function hasWallet(config: Config): Promise<boolean> {
  return (await availableConnectors(config)).length > 0;
}

/**
 * The wallet to connect: none → NO_WALLET; one → that one; several → the one chosen earlier in
 * this session, else the user's choice in the picker (closing it is CANCELLED). A caller without
 * a picker gets the first one.
 */
async function pickConnector(config: Config, choose: WalletChooser | undefined): Promise<Connector> {
  const connectors = await availableConnectors(config);
  const [first] = connectors;
  if (!first) throw new WalletError('NO_WALLET');
  if (connectors.length === 1) return first;
  const remembered = connectors.find((connector) => connector.id === sessionStorage.getItem(CHOICE_KEY));
  if (remembered) return remembered;
  if (!choose) return first;
  const id = await choose(connectors.map(({ id, name, icon }) => ({ id, name, icon })));
  const chosen = connectors.find((connector) => connector.id === id);
  if (!chosen) throw new WalletError('CANCELLED');
  return chosen;
}

/** Rethrows any failure as a WalletError the screens can explain. */
async function asWalletAction<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WalletError) throw error;
    throw new WalletError(classifyWalletError(error), { cause: error });
  }
}

/** Connects a wallet (asking the user which one, and the wallet for access, when needed) and returns the account address. */
export function connectWallet(config: Config, options: ConnectOptions = {}): Promise<Address> {
  return asWalletAction(async () => {
    const connection = getConnection(config);
    if (connection.status === 'connected' && connection.address) return connection.address;
    const connector = await pickConnector(config, options.choose);
    try {
      const result = await connect(config, { connector });
      const address = result.accounts[0];
      if (!address) throw new WalletError('NO_WALLET');
      sessionStorage.setItem(CHOICE_KEY, connector.id);
      return address;
    } catch (error) {
      // Refused or failed: the next attempt asks again rather than insisting on this wallet.
      sessionStorage.removeItem(CHOICE_KEY);
      throw error;
    }
  });
}

/** Switches the wallet to the chain (the wallet asks the user when it needs to). */
export function ensureChain(config: Config, chainId: number): Promise<void> {
  return asWalletAction(async () => {
    if (getConnection(config).chainId === chainId) return;
    await switchChain(config, { chainId });
  });
}

/**
 * Sends a contract-creation transaction prepared by the platform (the exact bytecode and
 * constructor data) from the user's wallet, and returns its hash as soon as the wallet has sent it.
 */
export function sendDeployment(
  config: Config,
  request: { chainId: number; data: Hex; gas?: bigint },
  options: ConnectOptions = {},
): Promise<Hash> {
  return asWalletAction(async () => {
    const account = await connectWallet(config, options);
    await ensureChain(config, request.chainId);
    return sendTransaction(config, {
      account,
      chainId: request.chainId,
      data: request.data,
      ...(request.gas ? { gas: request.gas } : {}),
    });
  });
}

/** Calls a contract function from the wallet and waits for the receipt; a revert is REVERTED. */
export function writeFromWallet(
  config: Config,
  request: { chainId: number; address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
  options: ConnectOptions = {},
): Promise<Hash> {
  return asWalletAction(async () => {
    const account = await connectWallet(config, options);
    await ensureChain(config, request.chainId);
    const hash = await writeContract(config, {
      account,
      chainId: request.chainId,
      address: request.address,
      abi: request.abi,
      functionName: request.functionName,
      args: request.args,
    });
    const receipt = await waitForTransactionReceipt(config, { hash, chainId: request.chainId });
    if (receipt.status !== 'success') throw new WalletError('REVERTED');
    return hash;
  });
}

/**
 * Sends an ERC-20 `transfer(to, amount)` of `token` from the user's wallet on `chainId` (amount in
 * the token's smallest unit), and returns its hash as soon as the wallet has sent it: whoever asked
 * for it follows it from there (the QNT payment hands the hash to the platform's chain follower).
 */
export function sendTokenTransfer(
  config: Config,
  request: { chainId: number; token: Address; to: Address; amount: bigint },
  options: ConnectOptions = {},
): Promise<Hash> {
  return asWalletAction(async () => {
    const account = await connectWallet(config, options);
    await ensureChain(config, request.chainId);
    return writeContract(config, {
      account,
      chainId: request.chainId,
      address: request.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [request.to, request.amount],
    });
  });
}

/**
 * Reads a contract through the connected wallet's own RPC (the page has none of its own). Only
 * when the wallet is connected and on the chain; otherwise undefined, and the screen shows the
 * platform's figures alone.
 */
export async function readThroughWallet<T>(
  config: Config,
  request: { chainId: number; address: Address; abi: Abi; functionName: string; args?: readonly unknown[] },
): Promise<T | undefined> {
  const connection = getConnection(config);
  if (connection.status !== 'connected' || !connection.connector) return undefined;
  const provider = (await connection.connector.getProvider()) as EIP1193Provider | undefined;
  if (!provider) return undefined;
  if (Number(await provider.request({ method: 'eth_chainId' })) !== request.chainId) return undefined;
  const client = createPublicClient({ transport: custom(provider) });
  return (await client.readContract({
    address: request.address,
    abi: request.abi,
    functionName: request.functionName,
    args: request.args ?? [],
  })) as T;
}
