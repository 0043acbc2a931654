import type { Page } from '@playwright/test';
import { createPublicClient, createWalletClient, erc20Abi, http, numberToHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * A test wallet for the journeys: an EIP-1193 provider injected into the page as
 * `window.ethereum` and announced through EIP-6963, whose requests are answered in Node by a viem
 * wallet client holding a local anvil key and talking to the e2e server's local chains. It signs
 * and sends real transactions, so what the page deploys or mints is really on the chain.
 *
 * `setRejecting(true)` makes it answer every signing request like a user pressing "Reject"
 * (EIP-1193 code 4001). A page without `install()` has no wallet at all.
 *
 * `install(page, { others: [{ name, rdns }] })` announces more wallets through EIP-6963 (each with
 * its own name and icon, none of them `window.ethereum`), so the page's wallet picker has a choice
 * to offer. They are answered by the same key; `requests` says which wallet each request went to.
 * An ERC-20 transfer (a QNT payment) is an `eth_sendTransaction` like any other: `balanceOf` reads
 * what an address holds of a token, for the journey's assertions.
 */
export type TestChain = { chainId: number; rpcUrl: string };

/** A wallet as EIP-6963 announces it; `icon` is a data URI (a coloured square when absent). */
export type TestWalletInfo = { name: string; rdns: string; icon?: string };

/** The wallet `install()` puts in the page as `window.ethereum` and announces first. */
export const PRIMARY_WALLET: TestWalletInfo = { name: 'Connect Test Wallet', rdns: 'network.connect.testwallet' };

type RpcRequest = { method: string; params?: unknown[]; wallet?: string };
type RpcAnswer = { result?: unknown; error?: { code: number; message: string } };

const SIGNING_METHODS = new Set([
  'eth_sendTransaction',
  'personal_sign',
  'eth_sign',
  'eth_signTypedData_v4',
  'wallet_addEthereumChain',
  'wallet_switchEthereumChain',
]);

export class TestWallet {
  readonly address: Address;
  private connected = false;
  private rejecting = false;
  private chainId: number;
  /** Every signing request the page made, for assertions. */
  readonly requests: RpcRequest[] = [];

  constructor(
    private readonly privateKey: Hex,
    private readonly chains: readonly TestChain[],
  ) {
    if (chains.length === 0) throw new Error('The test wallet needs at least one chain');
    this.address = privateKeyToAccount(privateKey).address;
    this.chainId = chains[0]!.chainId;
  }

  /** Answer signing requests with "User rejected the request." (4001) from now on, or stop doing so. */
  setRejecting(rejecting: boolean): void {
    this.rejecting = rejecting;
  }

  /**
   * Injects the provider into every document the page loads from now on, and announces it; with
   * `others`, announces those wallets too (the picker then asks which one to use).
   */
  async install(page: Page, options: { others?: readonly TestWalletInfo[] } = {}): Promise<void> {
    await page.exposeFunction('__testWalletRequest', (request: RpcRequest) => this.handle(request));
    await page.addInitScript(injectProviders, [PRIMARY_WALLET, ...(options.others ?? [])]);
  }

  /** What `owner` (the wallet's own address by default) holds of an ERC-20 token, in its smallest unit. */
  async balanceOf(token: Address, { owner = this.address, chainId = this.chainId } = {}): Promise<bigint> {
    const client = createPublicClient({ transport: http(this.chain(chainId).rpcUrl) });
    return client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  }

  private chain(chainId = this.chainId): TestChain {
    const chain = this.chains.find((c) => c.chainId === chainId);
    if (!chain) throw Object.assign(new Error(`Unrecognized chain ID ${chainId}`), { code: 4902 });
    return chain;
  }

  private async handle(request: RpcRequest): Promise<RpcAnswer> {
    try {
      return { result: await this.answer(request) };
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -32603;
      const message = error instanceof Error ? error.message : String(error);
      return { error: { code, message } };
    }
  }

  private async answer({ method, params = [], wallet = PRIMARY_WALLET.rdns }: RpcRequest): Promise<unknown> {
    if (SIGNING_METHODS.has(method)) {
      this.requests.push({ method, params, wallet });
      if (this.rejecting) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
    }
    switch (method) {
      case 'eth_requestAccounts':
        this.connected = true;
        return [this.address];
      case 'eth_accounts':
        return this.connected ? [this.address] : [];
      case 'eth_chainId':
        return numberToHex(this.chainId);
      case 'net_version':
        return String(this.chainId);
      case 'wallet_requestPermissions':
        this.connected = true;
        return [{ parentCapability: 'eth_accounts' }];
      case 'wallet_getPermissions':
        return this.connected ? [{ parentCapability: 'eth_accounts' }] : [];
      case 'wallet_revokePermissions':
        this.connected = false;
        return null;
      case 'wallet_switchEthereumChain': {
        const [{ chainId }] = params as [{ chainId: Hex }];
        this.chainId = this.chain(Number(chainId)).chainId;
        return null;
      }
      case 'wallet_addEthereumChain': {
        const [{ chainId }] = params as [{ chainId: Hex }];
        this.chain(Number(chainId));
        return null;
      }
      case 'eth_sendTransaction': {
        const [tx] = params as [{ to?: Address; data?: Hex; value?: Hex; gas?: Hex }];
        const chain = this.chain();
        const client = createWalletClient({
          account: privateKeyToAccount(this.privateKey),
          transport: http(chain.rpcUrl),
        });
        return client.sendTransaction({
          chain: null,
          ...(tx.to ? { to: tx.to } : {}),
          ...(tx.data ? { data: tx.data } : {}),
          ...(tx.value ? { value: BigInt(tx.value) } : {}),
          ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
        });
      }
      case 'personal_sign': {
        const [message] = params as [Hex];
        return privateKeyToAccount(this.privateKey).signMessage({ message: { raw: message } });
      }
      default:
        // Reads (eth_call, eth_getTransactionReceipt, eth_estimateGas, …) go to the chain as they are.
        return this.forward(method, params);
    }
  }

  private async forward(method: string, params: unknown[]): Promise<unknown> {
    const response = await fetch(this.chain().rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (body.error)
      throw Object.assign(new Error(body.error.message), { code: body.error.code, data: body.error.data });
    return body.result;
  }
}

/**
 * Runs in the page before its scripts: one EIP-1193 provider per wallet, each announced through
 * EIP-6963 (answering the page's requests for announcements too); the first is `window.ethereum`.
 */
function injectProviders(wallets: readonly { name: string; rdns: string; icon?: string }[]) {
  type Listener = (...args: unknown[]) => void;
  // The page's window (typed by hand: the e2e project has no DOM types).
  const page = globalThis as unknown as {
    __testWalletRequest: (request: unknown) => Promise<RpcAnswer>;
    addEventListener: (type: string, listener: () => void) => void;
    dispatchEvent: (event: Event) => boolean;
  };
  const bridge = page.__testWalletRequest;
  const COLOURS = ['#1f3a93', '#c2410c', '#047857', '#7c3aed'];

  wallets.forEach((info, index) => {
    const listeners = new Map<string, Set<Listener>>();
    const emit = (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((listener) => listener(...args));
    const provider = {
      isMetaMask: true,
      isConnectTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await bridge({ method, params: params ?? [], wallet: info.rdns });
        if (answer.error) {
          const error = new Error(answer.error.message) as Error & { code: number };
          error.code = answer.error.code;
          throw error;
        }
        if (method === 'wallet_switchEthereumChain') {
          const chainId = (params?.[0] as { chainId: string }).chainId;
          emit('chainChanged', chainId);
        }
        if (method === 'eth_requestAccounts' || method === 'wallet_requestPermissions') {
          emit('connect', { chainId: await provider.request({ method: 'eth_chainId' }) });
          emit('accountsChanged', await provider.request({ method: 'eth_accounts' }));
        }
        return answer.result;
      },
      on(event: string, listener: Listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener);
        return provider;
      },
      removeListener(event: string, listener: Listener) {
        listeners.get(event)?.delete(listener);
        return provider;
      },
    };
    if (index === 0) Object.defineProperty(page, 'ethereum', { value: provider, configurable: true });
    const icon =
      info.icon ??
      'data:image/svg+xml;base64,' +
        btoa(
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="${COLOURS[index % COLOURS.length]}"/></svg>`,
        );
    const detail = Object.freeze({
      info: Object.freeze({ uuid: crypto.randomUUID(), name: info.name, icon, rdns: info.rdns }),
      provider,
    });
    const announce = () => page.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
    page.addEventListener('eip6963:requestProvider', announce);
    announce();
  });
}
