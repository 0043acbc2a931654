import { createPublicClient, custom, type Abi, type Address, type EIP1193Provider, type Hash, type Hex } from 'viem';
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

/**
 * The wallets to try, best first: those announced through EIP-6963 (they name themselves), then
 * the generic injected connector reading `window.ethereum`.
 */
function candidateConnectors(config: Config): Connector[] {
  const injectedOnes = config.connectors.filter((connector) => connector.type === 'injected');
  const announced = injectedOnes.filter((connector) => connector.id !== 'injected');
  const generic = injectedOnes.filter((connector) => connector.id === 'injected');
  return [...announced, ...generic];
}

async function firstAvailable(config: Config): Promise<Connector | undefined> {
  for (const connector of candidateConnectors(config)) {
    try {
      if (await connector.getProvider()) return connector;
    } catch {
      // A connector whose provider cannot be reached is not available; try the next one.
    }
  }
  return undefined;
}

/** Whether the page has any EIP-1193 wallet at all (without asking the user for anything). */
export async function hasWallet(config: Config): Promise<boolean> {
  return Boolean(await firstAvailable(config));
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

/** Connects the wallet (asking the user when needed) and returns the account address. */
export function connectWallet(config: Config): Promise<Address> {
  return asWalletAction(async () => {
    const connection = getConnection(config);
    if (connection.status === 'connected' && connection.address) return connection.address;
    const connector = await firstAvailable(config);
    if (!connector) throw new WalletError('NO_WALLET');
    const result = await connect(config, { connector });
    const address = result.accounts[0];
    if (!address) throw new WalletError('NO_WALLET');
    return address;
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
export function sendDeployment(config: Config, request: { chainId: number; data: Hex; gas?: bigint }): Promise<Hash> {
  return asWalletAction(async () => {
    const account = await connectWallet(config);
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
): Promise<Hash> {
  return asWalletAction(async () => {
    const account = await connectWallet(config);
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
