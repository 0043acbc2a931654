import { rpcCall } from '../rpc.ts';

/**
 * Hands out the nonces of one sender on one chain, one send at a time.
 *
 * Sends of a key on a network are serialised through a promise chain: each send gets the next
 * nonce, and the local counter only moves on when the send says it used the nonce (a transaction
 * the node accepted, or may have accepted). So concurrent sends (two jobs, twenty deployments)
 * never pick the same nonce and never leave a gap. The counter starts from, and after any error is resynced
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

/** The nonce managers of one PlatformSender: one per sender address and network. */
export class NonceBook {
  private readonly managers = new Map<string, NonceManager>();

  /** The one manager of `address` on a network in this sender. */
  for(networkId: string, rpcUrl: string, address: string): NonceManager {
    const key = `${networkId}|${address.toLowerCase()}`;
    let manager = this.managers.get(key);
    if (!manager || manager.rpcUrl !== rpcUrl) {
      manager = new NonceManager(rpcUrl, address);
      this.managers.set(key, manager);
    }
    return manager;
  }

  /** After a doubt (another process used the key, the chain lost transactions): read the chain again. */
  resync(networkId: string, address: string): void {
    this.managers.get(`${networkId}|${address.toLowerCase()}`)?.resync();
  }
}
