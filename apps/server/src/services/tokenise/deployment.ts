import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import type { PlatformTxStatus } from '@connect/db';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import type { PlatformSender, RpcCaller, SignedPlatformTx } from '../../adapters/chains/sender/index.ts';
import type { TxSigner } from '../../adapters/chains/signer.ts';
import { broadcastDeployment, type Claim, type SendTarget } from './broadcast.ts';
import type { DeployableToken } from './deployment-data.ts';
import { DeploymentPreparer, DeploymentRefused, type SendPlan } from './preparation.ts';
import { followReceipt } from './receipts.ts';
import type { NetworkRow, TokenRepository, TokenRow, TokenWithRefs } from './repository.ts';
import { tokenTxReference } from './repository-insert.ts';
import { moveTokenTxHash } from './repository-tx.ts';
import { settleDeployed, settleFailed, settleLost } from './settlement.ts';

/*
 * The deployment engine: what one attempt at a deployment does. When and where attempts run
 * (in-process at once, then a durable job) is the scheduler's (scheduler.ts). The steps themselves
 * are in their own modules: preparation.ts (gas, fees and the guess signed ahead), broadcast.ts
 * (through the platform's sender: nonce, store, send), receipts.ts (following the receipt) and
 * settlement.ts (ACTIVE and charged, UNPAID or FAILED). The sender tells the engine, as the owner
 * of `token:<id>` references, when a fee bump replaced a deployment's transaction or a chain lost
 * it for good.
 */

export type Outcome = 'done' | 'waiting';

/** Where the engine hands attempts over to be run and backed up (DeploymentScheduler). */
export interface DeploymentSchedule {
  /** Aborted when the app stops: waits and RPC calls end. */
  readonly signal: AbortSignal;
  /** Runs a token's attempt at once in this process (the durable job follows if it does not end soon). */
  kick(tokenId: string): void;
  /** An attempt the engine started itself: one per token in this process, backed up by the job. */
  track(tokenId: string, attempt: Promise<Outcome>): void;
}

export type DeploymentTimings = {
  /** How long one in-process attempt waits for a receipt before handing over to a job retry. */
  maxWaitMs: number;
  /** How long a job's attempt waits (the queue's graceful stop waits for running jobs). */
  jobWaitMs: number;
  /** A transaction the network has never seen is given up after this long (spec §4: up to 30 minutes). */
  giveUpAfterMs: number;
  /** Delay between job attempts. */
  retryDelaySeconds: number;
  /**
   * The durable job of a deployment is queued when its in-process attempt has not ended after
   * this long (or ends waiting, or fails); a deployment done sooner never needs one.
   */
  jobAfterMs: number;
  /** How long a new platform deployment's request waits for its gas and fees before answering. */
  prepareWaitMs: number;
};

export const DEFAULT_TIMINGS: DeploymentTimings = {
  maxWaitMs: 60_000,
  jobWaitMs: 4_000,
  giveUpAfterMs: 30 * 60_000,
  retryDelaySeconds: 10,
  jobAfterMs: 2_000,
  prepareWaitMs: 3_000,
};

/** Per-call RPC timeout of the deployer. */
const RPC_TIMEOUT_MS = 10_000;

/**
 * Deploys tokens and follows their transactions to the end.
 *
 * A new platform deployment is signed and sent before its request answers (`deployNew`); every
 * other path runs `attempt`, scheduled by the DeploymentSchedule. Every path runs the same
 * idempotent steps: across nodes the database decides — the transaction hash is stored (only if
 * none is) before the transaction is broadcast, so a sent transaction is never sent again, and the
 * final status change is conditional on PENDING, so credits are charged exactly once.
 */
export class DeploymentEngine {
  private readonly preparer: DeploymentPreparer;

  constructor(
    private readonly repo: TokenRepository,
    /** The platform's one transaction sender (deps.sender). */
    readonly sender: PlatformSender,
    private readonly log: FastifyBaseLogger,
    private readonly timings: DeploymentTimings,
    private readonly schedule: DeploymentSchedule,
  ) {
    this.preparer = new DeploymentPreparer(sender, (rpcUrl) => this.callerAt(rpcUrl));
    sender.own(TOKEN_OWNER, {
      moved: (change, db) => moveTokenTxHash(db, tokenIdOf(change.reference), change.hash, change.was),
      lost: (reference, reason) => this.failLost(tokenIdOf(reference), reason),
    });
  }

  /** The platform's deployer on a network (its key, as a signer), if configuration has one. */
  deployerFor(network: NetworkRow): TxSigner | undefined {
    return this.preparer.deployerFor(network);
  }

  /** The SendPlan of a new platform deployment (DeploymentPreparer.plan), for `deployNew`. */
  plan(token: DeployableToken, network: NetworkRow): SendPlan {
    return this.preparer.plan(token, network);
  }

  /**
   * A new platform deployment, sent before its request answers. `plan` (see SendPlan; started
   * while the request's checks ran) is signed with the next nonce, and `insert` creates
   * the token row carrying the transaction's hash inside that nonce's turn — so the row exists
   * before the transaction is broadcast. Answers the inserted row (null: `insert` inserted nothing,
   * e.g. the externalId was taken meanwhile); the receipt is followed in the background. When the
   * preparation fails or is slow, the token is inserted without a transaction and the ordinary
   * attempt (or its job) sends it; a deployment that cannot succeed is inserted and FAILED.
   */
  async deployNew(
    { network, tier }: Pick<TokenWithRefs, 'network' | 'tier'>,
    plan: SendPlan,
    insert: (sent?: SignedPlatformTx) => Promise<TokenRow | null>,
  ): Promise<TokenRow | null> {
    const rpcUrl = network.rpcUrl!;
    // Written by the claim, inside the nonce's turn.
    const state: { row: TokenRow | null; insertError: unknown } = { row: null, insertError: null };
    const claim: Claim = async (tx) => {
      if (state.row) return (await this.repo.claimTxHash(state.row.id, tx)) ? state.row.id : null;
      try {
        state.row = await insert(tx);
      } catch (err) {
        state.insertError = err;
      }
      return state.row?.id ?? null;
    };
    let txHash: Hex | null = null;
    try {
      const final = withDeadline(plan.final, this.timings.prepareWaitMs);
      // Awaited in the nonce's turn (or not at all when the insert is refused): never unhandled.
      final.catch(() => undefined);
      txHash = await broadcastDeployment(
        this.sender,
        this.target(network, rpcUrl),
        { guess: plan.guess, final },
        claim,
        (tx) => this.repo.releaseTxHash(state.row!.id, tx),
      );
    } catch (err) {
      if (state.insertError) throw state.insertError;
      // Not sent: the token exists all the same (unless `insert` refuses), settled as it must be.
      const row = state.row ?? (await insert());
      if (!row) return null;
      if (err instanceof DeploymentRefused) await this.fail(row, err.message);
      else {
        if (!(err instanceof DeadlineExceeded)) this.log.warn({ err, tokenId: row.id }, 'deployment not sent yet');
        this.schedule.kick(row.id);
      }
      return row;
    }
    if (state.insertError) throw state.insertError;
    const inserted = state.row;
    if (!inserted) return null;
    if (!txHash) {
      this.schedule.kick(inserted.id); // claimed by another attempt meanwhile: follow it the ordinary way
      return inserted;
    }
    this.schedule.track(
      inserted.id,
      this.follow({ token: inserted, network, tier }, rpcUrl, txHash, this.timings.maxWaitMs),
    );
    return inserted;
  }

  /**
   * One attempt at moving a token's deployment forward; run by the scheduler, one at a time per
   * token in this process. Waits for a receipt at most `maxWaitMs` ('waiting' after it).
   */
  async attempt(tokenId: string, maxWaitMs: number): Promise<Outcome> {
    const row = await this.repo.tokenForWorker(tokenId);
    if (!row || row.token.status !== 'PENDING') return 'done';
    const { token, network } = row;
    const rpcUrl = network.rpcUrl;
    if (!rpcUrl) return 'waiting'; // the network lost its RPC URL; try again later
    let txHash = token.txHash as Hex | null;
    if (!txHash) {
      if (token.deploymentType !== 'QUANT') return 'done'; // the wallet has not sent it yet
      try {
        const prepared = await this.preparer.prepare(token, network);
        txHash = await broadcastDeployment(
          this.sender,
          this.target(network, rpcUrl),
          { final: Promise.resolve(prepared) },
          async (tx) => ((await this.repo.claimTxHash(token.id, tx)) ? token.id : null),
          (tx) => this.repo.releaseTxHash(token.id, tx),
        );
      } catch (err) {
        if (err instanceof DeploymentRefused) {
          await this.fail(token, err.message);
          return 'done';
        }
        throw err;
      }
      if (!txHash) return 'done'; // another sender claimed it, or the token was cancelled
    }
    return this.follow(row, rpcUrl, txHash, maxWaitMs);
  }

  private target(network: NetworkRow, rpcUrl: string): SendTarget {
    return {
      network: { id: network.id, code: network.code, chainId: network.chainId, rpcUrl },
      call: this.callerAt(rpcUrl),
    };
  }

  /** JSON-RPC calls to a network's node, ended by the scheduler's stop. */
  private callerAt(rpcUrl: string): RpcCaller {
    return (method, params) =>
      rpcCall(rpcUrl, method, params, { timeoutMs: RPC_TIMEOUT_MS, signal: this.schedule.signal });
  }

  /** Waits for the receipt, checks it, and settles the token. */
  private async follow(
    { token, network, tier }: TokenWithRefs,
    rpcUrl: string,
    txHash: Hex,
    maxWaitMs: number,
  ): Promise<Outcome> {
    const verdict = await followReceipt(this.sender, { id: network.id, rpcUrl }, this.callerAt(rpcUrl), token, txHash, {
      maxWaitMs,
      giveUpAfterMs: this.timings.giveUpAfterMs,
      signal: this.schedule.signal,
    });
    if (verdict.outcome === 'waiting') return 'waiting';
    if (verdict.outcome === 'failed') {
      await this.fail(token, verdict.reason, verdict.sent);
      return 'done';
    }
    const status = await settleDeployed(this.repo, token, tier, verdict.result);
    if (status) this.log.info({ tokenId: token.id, status }, 'token deployed');
    return 'done';
  }

  /**
   * FAILED with a reason (only from PENDING); the tokens:create unit is given back, nothing is
   * charged. `sent`: what became of the deployment transaction the platform stored.
   */
  fail(token: TokenRow, reason: string, sent?: { txHash: Hex; status: PlatformTxStatus }): Promise<void> {
    return settleFailed(this.repo, token, reason, sent);
  }

  /**
   * A token whose deployment transaction can never be mined now (the chain lost it and its nonce
   * went to another transaction): FAILED with the reason whatever it was (PENDING, or ACTIVE on
   * the strength of a receipt the chain has since forgotten), its charge refunded and its
   * tokens:create unit given back (settlement.ts settleLost).
   */
  async failLost(tokenId: string, reason: string): Promise<void> {
    const [row] = await this.repo.tokensByIds([tokenId]);
    if (!row || row.token.status === 'FAILED') return;
    const { token } = row;
    if (await settleLost(this.repo, token, reason)) {
      this.log.warn({ tokenId, was: token.status }, 'token failed: its deployment was lost by the chain');
    }
  }
}

/** The sender's references of deployments: `token:<id>`. */
const TOKEN_OWNER = 'token';
const tokenIdOf = (reference: string) => reference.slice(tokenTxReference('').length);

class DeadlineExceeded extends Error {}

/** The promise's value, or DeadlineExceeded after `ms` (the promise goes on; its rejection is handled). */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`not ready within ${ms} ms`)), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
