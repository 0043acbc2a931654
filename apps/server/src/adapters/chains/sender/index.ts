import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import type { Database, PlatformTxStatus } from '@connect/db';
import type { PlatformTxRow } from '../../../repositories/platform.ts';
import type { ConfiguredNetwork } from '../catalogue.ts';
import { fundedOnce } from '../platform-deployer.ts';
import { rpcCall } from '../rpc.ts';
import { createSigner, type TxSigner } from '../signer.ts';
import { bumpStuck, type Bump } from './fee-bump.ts';
import { NonceBook } from './nonces.ts';
import { pollReceipt, type ReceiptWait } from './receipts.ts';
import { recoverPlatformTransactions, type RecoveryNetwork, type RecoveryResult } from './recovery.ts';
import { SenderTxRepository } from './repository.ts';
import { sendInTurn, type SendRequest, type Sent } from './send.ts';
import { platformTxRow } from './store-send.ts';
import type { ReferenceOwner, RpcCaller } from './types.ts';

export { marketFees } from './fees.ts';
export { platformTxRow } from './store-send.ts';
export type { Bump } from './fee-bump.ts';
export type { ReceiptWait } from './receipts.ts';
export type { RecoveryNetwork, RecoveryResult } from './recovery.ts';
export type { SendRequest, Sent } from './send.ts';
export type * from './types.ts';

/** Per-call RPC timeout of the sender's own calls (fee bumps, start-up recovery). */
const RPC_TIMEOUT_MS = 10_000;
/** A transaction not mined this long after it was signed is bumped (bumpStuck's default). */
export const DEFAULT_STUCK_AFTER_MS = 3 * 60_000;
/** A follower looks for replacements made by other nodes once it has waited this long, then this often. */
const REPLACEMENTS_AFTER_MS = 2_000;
const REPLACEMENTS_EVERY_MS = 5_000;

export type PlatformSenderOptions = {
  db: Database;
  /** The catalogue as configured, with the platform's keys (withLocalDeployer). */
  networks: readonly ConfiguredNetwork[];
  log: FastifyBaseLogger;
  stuckAfterMs?: number;
};

/**
 * Everything the platform signs goes through here, one instance per app (`deps.sender`): the
 * platform's keys, a nonce manager per key and network (nonces.ts), stored before sent
 * (store-send.ts, send.ts), receipts followed across fee-bump replacements (receipts.ts), what a
 * chain lost sent again at start-up (recovery.ts), and stuck transactions replaced with higher
 * fees (fee-bump.ts). A transaction's `reference` (`<owner>:<id>`) names who it is for; the owner
 * registers with `own` to hear of replacements and losses — the sender knows nothing else of it.
 */
export class PlatformSender {
  private readonly repo: SenderTxRepository;
  private readonly nonces = new NonceBook();
  private readonly owners = new Map<string, ReferenceOwner>();
  private readonly signers = new Map<Hex, TxSigner>();
  /** Keys registered with `trust`, by lower-case address. */
  private readonly trusted = new Map<string, TxSigner>();
  /** Replacements this process made or found (network|old hash → new hash), for its followers. */
  private readonly replacements = new Map<string, Hex>();
  private readonly abort = new AbortController();

  constructor(private readonly options: PlatformSenderOptions) {
    this.repo = new SenderTxRepository(options.db);
  }

  /** Registers the owner of references `<prefix>:…` (e.g. `token`). */
  own(prefix: string, owner: ReferenceOwner): void {
    this.owners.set(prefix, owner);
  }

  /**
   * A key the platform holds besides its deployers (the rewards treasury, services/campaign):
   * its stuck transactions are bumped like theirs (fee-bump.ts needs the key to sign again).
   */
  trust(signer: TxSigner): void {
    this.trusted.set(signer.address.toLowerCase(), signer);
  }

  /** The platform's key on a network (configured, or the installation's on a local chain). */
  signerFor(network: { code: string }): TxSigner | undefined {
    const key = this.options.networks.find((n) => n.code === network.code)?.deployerPrivateKey;
    return key && this.signer(key);
  }

  /**
   * Signs with the key's next nonce on the network, stores, then sends (see SendRequest). Answers
   * what was sent, or null when the caller's `store` refused it (nothing sent, the nonce free);
   * throws the node's RpcError when it refuses the transaction.
   */
  async send(request: SendRequest): Promise<Sent | null> {
    const { network, signer } = request;
    await this.funded(network, signer.address);
    return sendInTurn(
      this.nonces.for(network.id, network.rpcUrl, signer.address),
      request.call ?? this.callerAt(network.rpcUrl),
      {
        ...request,
        store: request.store ?? ((tx) => this.repo.insert(platformTxRow(tx)).then(() => true)),
        release: request.release ?? ((tx) => this.repo.remove(tx.networkId, tx.hash)),
      },
    );
  }

  /**
   * Waits for the receipt of the transaction sent as `hash` — or of whichever stored transaction
   * with its sender and nonce is mined (a fee bump's replacement, made here or on another node).
   * When the one mined had been REPLACED (the original, mined before its replacement), its owner
   * is pointed back at it before this answers. `stored`: false for a transaction the platform did
   * not sign (a wallet's): only `hash` is asked.
   */
  async waitForReceipt(
    network: { id: string; rpcUrl: string },
    hash: Hex,
    wait: { maxWaitMs: number; signal?: AbortSignal | undefined; call?: RpcCaller | undefined; stored?: boolean },
  ): Promise<ReceiptWait> {
    const stored = wait.stored ?? true;
    const started = Date.now();
    let fromDb: Hex[] = [];
    let readAt = -Infinity;
    let replaced = false;
    const candidates = async (elapsed: number) => {
      if (stored && elapsed >= REPLACEMENTS_AFTER_MS && elapsed - readAt >= REPLACEMENTS_EVERY_MS) {
        readAt = elapsed;
        fromDb = await this.siblingHashes(network.id, hash).catch(() => fromDb);
      }
      const hashes = [...new Set([hash, ...this.replacementsOf(network.id, hash), ...fromDb])];
      replaced ||= hashes.length > 1;
      return hashes;
    };
    const found = await pollReceipt(wait.call ?? this.callerAt(network.rpcUrl), candidates, {
      maxWaitMs: wait.maxWaitMs,
      signal: wait.signal ?? this.abort.signal,
    });
    // Only after a replacement, or a wait long enough for one: a quick receipt costs no query.
    if (found.receipt && stored && (replaced || Date.now() - started >= REPLACEMENTS_AFTER_MS)) {
      for (const h of [hash, ...this.replacementsOf(network.id, hash)])
        this.replacements.delete(`${network.id}|${h.toLowerCase()}`);
      const row = (await this.repo.siblingsOf(network.id, found.hash)).find((r) => r.txHash === found.hash);
      if (row?.status === 'REPLACED') await this.moveTo(row, found.hash);
    }
    return found;
  }

  /**
   * A follower saw `hash` mined: when it is a stored transaction its sender had REPLACED (the
   * original, mined before its fee bump's replacement), it counts again and its owner's pointer
   * moves back to it, in the follower's transaction `db`. Answers whether it moved.
   */
  async adoptMined(db: Database, networkId: string, hash: Hex): Promise<boolean> {
    const repo = new SenderTxRepository(db);
    const siblings = await repo.siblingsOf(networkId, hash);
    const row = siblings.find((r) => r.txHash === hash);
    if (row?.status !== 'REPLACED') return false;
    const was = siblings.map((s) => s.txHash as Hex).filter((h) => h !== hash);
    await repo.replaceOthers(row, hash);
    await this.owners.get(prefixOf(row.reference))?.moved({ reference: row.reference, networkId, hash, was }, db);
    for (const old of was) this.replacements.set(`${networkId}|${old.toLowerCase()}`, hash);
    return true;
  }

  /** Marks a stored transaction (e.g. MINED once its owner acted on the receipt). */
  settle(networkId: string, hash: Hex, status: PlatformTxStatus): Promise<void> {
    return this.repo.setStatus(networkId, hash, status);
  }

  /** At start-up: sends again what the network's chain lost (recovery.ts); owners hear of conflicts. */
  recover(network: RecoveryNetwork): Promise<RecoveryResult> {
    return recoverPlatformTransactions({
      repo: this.repo,
      network,
      call: this.callerAt(network.rpcUrl, 5_000),
      log: this.options.log,
      fund: (from) => this.funded(network, from),
      resync: (from) => this.nonces.resync(network.id, from),
      onConflict: async (row, reason) => {
        await this.owners.get(prefixOf(row.reference))?.lost(row.reference, reason);
      },
      onReplaced: (row, known) => this.moveTo(row, known.txHash as Hex),
    });
  }

  /**
   * Replaces every transaction stuck for `olderThanMs` (default: the configured time) at the head
   * of its sender's queue with the same one at higher fees (fee-bump.ts). Run by a recurring job.
   */
  bumpStuck(options: { olderThanMs?: number } = {}): Promise<Bump[]> {
    const olderThanMs = options.olderThanMs ?? this.options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
    return bumpStuck(
      {
        repo: this.repo,
        log: this.options.log,
        signerOf: (address) => this.signerOf(address),
        callerAt: (rpcUrl) => this.callerAt(rpcUrl),
        replaced: (row, hash) => this.moveTo(row, hash),
      },
      new Date(Date.now() - olderThanMs),
    );
  }

  /** After a doubt about a key's nonces (e.g. another process used it): read them from the chain again. */
  resync(networkId: string, address: Hex): void {
    this.nonces.resync(networkId, address);
  }

  /** Ends the sender's own waits and calls (the app closes). */
  stop(): void {
    this.abort.abort();
  }

  /**
   * The reference's transaction is now `hash`: the others of its sender and nonce still waiting
   * become REPLACED, and the owner moves its pointer — in one database transaction.
   */
  private async moveTo(row: PlatformTxRow, hash: Hex): Promise<void> {
    const siblings = await this.repo.siblingsOf(row.networkId, row.txHash);
    const was = siblings.map((s) => s.txHash as Hex).filter((h) => h !== hash);
    await this.repo.transaction(async (repo, db) => {
      await repo.replaceOthers(row, hash);
      await this.owners
        .get(prefixOf(row.reference))
        ?.moved({ reference: row.reference, networkId: row.networkId, hash, was }, db);
    });
    for (const old of was) this.replacements.set(`${row.networkId}|${old.toLowerCase()}`, hash);
  }

  /** The replacements of `hash` this process knows of, newest last. */
  private replacementsOf(networkId: string, hash: Hex): Hex[] {
    const found: Hex[] = [];
    for (let h = this.replacements.get(`${networkId}|${hash.toLowerCase()}`); h && !found.includes(h);) {
      found.push(h);
      h = this.replacements.get(`${networkId}|${h.toLowerCase()}`);
    }
    return found;
  }

  private async siblingHashes(networkId: string, hash: Hex): Promise<Hex[]> {
    const rows = await this.repo.siblingsOf(networkId, hash);
    return rows.filter((row) => row.status !== 'FAILED').map((row) => row.txHash as Hex);
  }

  /**
   * The installation's key is topped up from a local chain's faucet before this process first sends
   * there — that key only: another signer (a deposit address the sweep empties) gets its gas from
   * the platform, never 100 ETH of the faucet's each.
   */
  private funded(network: { code: string; rpcUrl: string }, address: Hex): Promise<void> {
    const configured = this.options.networks.find((n) => n.code === network.code);
    const isPlatformKey =
      configured?.deployerPrivateKey !== undefined &&
      this.signer(configured.deployerPrivateKey).address.toLowerCase() === address.toLowerCase();
    return configured?.deployerFromFaucet && isPlatformKey
      ? fundedOnce(network.rpcUrl, address, this.options.log)
      : Promise.resolve();
  }

  private signer(key: Hex): TxSigner {
    let signer = this.signers.get(key);
    if (!signer) {
      // Deriving the address costs a public-key computation: once per key.
      signer = createSigner(key);
      this.signers.set(key, signer);
    }
    return signer;
  }

  private signerOf(address: string): TxSigner | undefined {
    for (const network of this.options.networks) {
      if (!network.deployerPrivateKey) continue;
      const signer = this.signer(network.deployerPrivateKey);
      if (signer.address.toLowerCase() === address.toLowerCase()) return signer;
    }
    return this.trusted.get(address.toLowerCase());
  }

  private callerAt(rpcUrl: string, timeoutMs = RPC_TIMEOUT_MS): RpcCaller {
    return (method, params) => rpcCall(rpcUrl, method, params, { timeoutMs, signal: this.abort.signal });
  }
}

const prefixOf = (reference: string) => reference.slice(0, Math.max(0, reference.indexOf(':')));
