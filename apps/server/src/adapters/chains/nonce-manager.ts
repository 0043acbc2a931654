import { rpcCall } from './rpc.ts';

/**
 * Hands out the nonces of one sender on one chain, one send at a time.
 *
 * Sends of a deployer on a network are serialised through a promise chain: each send gets the
 * next nonce, and the local counter only moves on when the send says it used the nonce (a
 * transaction the node accepted, or may have accepted). So concurrent deployments never pick the
 * same nonce and never leave a gap. The counter starts from, and after any error is resynced
 * with, the chain's `pending` transaction count — which also heals after another process
 * (a second server node, a restart) sent with the same key.
 */
export class NonceManager {
  private tail: Promise<unknown> = Promise.resolve();
  private next: bigint | undefined;

  constructor(
    readonly rpcUrl: string,
    readonly address: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /**
   * Runs `send` with the next nonce, after every earlier send of this sender has finished.
   * `send` answers whether the nonce is now taken (`used`); when it throws, the next send first
   * re-reads the pending nonce from the chain.
   */
  async withNonce<T>(send: (nonce: bigint) => Promise<{ used: boolean; value: T }>): Promise<T> {
    const run = this.tail.then(async () => {
      const nonce = this.next ?? (await this.pendingNonce());
      try {
        const result = await send(nonce);
        this.next = result.used ? nonce + 1n : nonce;
        return result.value;
      } catch (err) {
        this.next = undefined;
        throw err;
      }
    });
    // The chain continues whether this send worked or not.
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Forget the local counter: the next send reads the chain's pending nonce. */
  resync(): void {
    this.next = undefined;
  }

  private async pendingNonce(): Promise<bigint> {
    const hex = await rpcCall<string>(this.rpcUrl, 'eth_getTransactionCount', [this.address, 'pending'], {
      timeoutMs: this.timeoutMs,
    });
    return BigInt(hex);
  }
}

const managers = new Map<string, NonceManager>();

/** The one nonce manager of a sender on a network in this process. */
export function nonceManagerFor(networkKey: string, rpcUrl: string, address: string): NonceManager {
  const key = `${networkKey}|${rpcUrl}|${address.toLowerCase()}`;
  let manager = managers.get(key);
  if (!manager) {
    manager = new NonceManager(rpcUrl, address);
    managers.set(key, manager);
  }
  return manager;
}
