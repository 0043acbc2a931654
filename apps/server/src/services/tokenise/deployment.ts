import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { decodeErrorResult, toHex, type Hex } from 'viem';
import { tokens, type PlatformTxStatus } from '@connect/db';
import { deployData, getTier, type TokenParams } from '@connect/contracts';
import { tierCreditAmount, TOKEN_MESSAGES } from '@connect/shared';
import type { ConfiguredNetwork } from '../../adapters/chains/catalogue.ts';
import { nonceManagerFor } from '../../adapters/chains/nonce-manager.ts';
import { fundedOnce } from '../../adapters/chains/platform-deployer.ts';
import { storeThenSend, type SignedPlatformTx } from '../../adapters/chains/platform-sender.ts';
import { rpcCall, RpcError } from '../../adapters/chains/rpc.ts';
import { createSigner, type TxSigner } from '../../adapters/chains/signer.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { NetworkRow, TokenRepository, TokenRow, TokenWithRefs } from './repository.ts';

/** The pg-boss queue that drives deployments (send → receipt → ACTIVE or FAILED). */
export const DEPLOY_JOB = 'token-deploy';

export type Outcome = 'done' | 'waiting';

type Receipt = {
  status: Hex;
  contractAddress: Hex | null;
  blockNumber: Hex;
  from: Hex;
  to: Hex | null;
};
type ChainTx = { from: Hex; to: Hex | null; input: Hex; blockNumber: Hex | null };

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
  retryDelaySeconds: 15,
  jobAfterMs: 2_000,
  prepareWaitMs: 3_000,
};

/**
 * The first pauses between receipt polls. A local chain mines a transaction as it arrives, but may
 * answer the send just before the block is sealed; a poll that just missed it should not cost a
 * whole 15 ms pause. On a public chain these are two extra calls per deployment.
 */
const RECEIPT_QUICK_PAUSES_MS = [2, 5];

/** Per-call RPC timeout of the deployer. */
const RPC_TIMEOUT_MS = 10_000;
/** JSON-RPC error texts that mean "this nonce cannot be used": resync and send again. */
const NONCE_ERROR = /nonce too low|nonce too high|invalid nonce|replacement transaction underpriced|already imported/i;

/** The columns of a token its deployment data is built from (a row, or one about to be inserted). */
export type DeployableToken = Pick<
  TokenRow,
  | 'tokenType'
  | 'tierType'
  | 'name'
  | 'unit'
  | 'decimals'
  | 'initialSupply'
  | 'maxSupply'
  | 'remintable'
  | 'supplyHolderAddress'
  | 'minterAddress'
  | 'ownerAddress'
  | 'tokenUri'
>;

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

/** A platform deployment ready to sign: everything but the nonce. */
export type PreparedSend = { account: TxSigner; data: Hex; gas: bigint; fees: Fees };

/**
 * What a new platform deployment signs: `final` (asked of the chain: fresh fees, and a gas limit
 * the deployment is known to run with), and while that is under way, `guess` — the same
 * transaction with gas and fees from this network's last preparations, signed and stored at once,
 * and broadcast only once `final` has confirmed it does not revert and the guess covers its gas
 * and fees (else signed again). With a guess, `final` is the guess's own gas limit confirmed by one
 * run (DeploymentEngine.confirm); without one, or when that run fails, it is a gas estimate.
 */
export type SendPlan = { guess?: PreparedSend | undefined; final: Promise<PreparedSend> };

/** A guessed gas limit is this much above the last estimate for the same contract on the network. */
const GAS_GUESS_MARGIN = { num: 3n, den: 2n };
/** Fees seen longer ago than this are not guessed from. */
const FEE_HINT_MAX_AGE_MS = 60_000;

/**
 * Stores a signed transaction for a token before it is broadcast — its hash on the token, the
 * transaction itself in platform_transactions, in one statement or transaction — and answers the
 * token's id, or null when the token cannot take it (cancelled, settled, never inserted): then
 * nothing is stored and nothing is sent.
 */
type Claim = (tx: SignedPlatformTx) => Promise<string | null>;

type RpcCaller = <T>(method: string, params: unknown[]) => Promise<T>;

/** Constructor parameters of a token as stored: amounts scale by decimals for QRC20. */
export function tokenParams(token: DeployableToken): TokenParams {
  const scale = token.tokenType === 'QRC20' ? 10n ** BigInt(token.decimals) : 1n;
  const params: TokenParams = {
    name: token.name,
    symbol: token.unit,
    initialSupply: BigInt(token.initialSupply) * scale,
    supplyHolder: token.supplyHolderAddress as Hex,
  };
  if (token.tokenType === 'QRC20') params.decimals = token.decimals;
  else params.baseUri = token.tokenUri ?? '';
  if (token.tierType !== 'base') {
    params.minter = token.minterAddress as Hex;
    params.maxSupply = BigInt(token.maxSupply ?? '0') * scale;
    params.remintable = token.remintable;
  }
  if (token.tierType === 'vari') params.owner = token.ownerAddress as Hex;
  return params;
}

/** The exact data of the deployment transaction: creation bytecode + ABI-encoded constructor arguments. */
export function deploymentData(token: DeployableToken): Hex {
  return deployData(token.tokenType, token.tierType, tokenParams(token));
}

/** Thrown inside a send when the deployment cannot succeed: the token fails with this reason. */
export class DeploymentRefused extends Error {}

/**
 * Deploys tokens and follows their transactions to the end.
 *
 * A deployment runs at once in-process on the node that created or tracked it, so it does not wait
 * for a job poll; when that attempt has not ended within `jobAfterMs` (or ends waiting, or fails),
 * a pg-boss job takes over (durable, retried, any node), and every start-up queues the deployments
 * left PENDING. A new platform deployment is signed and sent before its request answers (`deployNew`).
 * Every path runs the same idempotent steps: a node runs one attempt per token at a time,
 * and across nodes the database decides — the transaction hash is stored (only if none is) before
 * the transaction is broadcast, so a sent transaction is never sent again, and the final status
 * change is conditional on PENDING, so credits are charged exactly once.
 */
export class DeploymentEngine {
  private readonly inflight = new Map<string, Promise<Outcome>>();
  private readonly abort = new AbortController();
  private readonly accounts = new Map<Hex, TxSigner>();
  /** Per network and contract (network|type|tier): the last gas estimate. Per network: the last fees. */
  private readonly gasHints = new Map<string, bigint>();
  private readonly feeHints = new Map<string, { fees: Fees; at: number }>();
  private readonly jobTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly repo: TokenRepository,
    private readonly networks: readonly ConfiguredNetwork[],
    private readonly jobs: JobQueue,
    private readonly log: FastifyBaseLogger,
    private readonly timings: DeploymentTimings = DEFAULT_TIMINGS,
  ) {}

  private hasJobs = false;

  /** Registers the job worker; call while the app is built. */
  register(): void {
    this.hasJobs = true;
    this.jobs.register<{ tokenId: string }>(
      DEPLOY_JOB,
      async ({ tokenId }) => {
        // A job never holds the worker long: the queue stops (gracefully, waiting for running
        // jobs) before this engine hears of the shutdown, and one slow chain must not hold up
        // other deployments. A long wait belongs to the in-process attempt; the job comes back.
        const outcome = await this.process(tokenId, this.timings.jobWaitMs);
        // pg-boss retries the job later; the transaction may still be mined.
        if (outcome === 'waiting') throw new Error(`Token ${tokenId}: still waiting for its deployment transaction`);
      },
      { policy: 'stately', pollingIntervalSeconds: 1 },
    );
  }

  /** The platform's deployer key on a network, if configuration has one. */
  deployerKeyFor(network: NetworkRow): Hex | undefined {
    return this.networks.find((n) => n.code === network.code)?.deployerPrivateKey;
  }

  /** Starts processing at once in this process; the durable job follows if it does not end soon. */
  kick(tokenId: string): void {
    if (this.abort.signal.aborted) return;
    this.backUp(tokenId, this.process(tokenId));
  }

  /**
   * Queues the durable job of a deployment unless its in-process attempt ends done within
   * `jobAfterMs`: after that time, or as soon as the attempt ends waiting or fails.
   */
  private backUp(tokenId: string, attempt: Promise<Outcome>): void {
    let queued = false;
    const queue = () => {
      clearTimeout(timer);
      this.jobTimers.delete(timer);
      if (queued) return;
      queued = true;
      void this.queueJob(tokenId);
    };
    const timer = setTimeout(queue, this.timings.jobAfterMs);
    this.jobTimers.add(timer);
    attempt.then(
      (outcome) => {
        if (outcome === 'done') {
          clearTimeout(timer);
          this.jobTimers.delete(timer);
        } else queue();
      },
      (err: unknown) => {
        this.log.warn({ err, tokenId }, 'deployment attempt failed');
        queue();
      },
    );
  }

  private async queueJob(tokenId: string): Promise<void> {
    // No worker on this node, or shutting down: the start-up sweep is the safety net.
    if (!this.hasJobs || this.abort.signal.aborted) return;
    try {
      await this.jobs.send(
        DEPLOY_JOB,
        { tokenId },
        {
          singletonKey: tokenId,
          retryLimit: 240,
          retryDelaySeconds: this.timings.retryDelaySeconds,
          retryBackoff: false,
        },
      );
    } catch (err) {
      // The start-up sweep queues it again.
      this.log.warn({ err, tokenId }, 'could not queue the deployment job');
    }
  }

  /** Follows again every deployment that must still be followed (after a restart). */
  async resume(): Promise<number> {
    const pending = await this.repo.pendingTrackable();
    for (const { id } of pending) this.kick(id);
    return pending.length;
  }

  /** Stops waiting; in-flight attempts end as 'waiting' and resume from their jobs or the next start. */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const timer of this.jobTimers) clearTimeout(timer);
    this.jobTimers.clear();
    await Promise.allSettled([...this.inflight.values()]);
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
      txHash = await this.broadcast(network, rpcUrl, { guess: plan.guess, final }, claim, (tx) =>
        this.repo.releaseTxHash(state.row!.id, tx),
      );
    } catch (err) {
      if (state.insertError) throw state.insertError;
      // Not sent: the token exists all the same (unless `insert` refuses), settled as it must be.
      const row = state.row ?? (await insert());
      if (!row) return null;
      if (err instanceof DeploymentRefused) await this.fail(row, err.message);
      else {
        if (!(err instanceof DeadlineExceeded)) this.log.warn({ err, tokenId: row.id }, 'deployment not sent yet');
        this.kick(row.id);
      }
      return row;
    }
    if (state.insertError) throw state.insertError;
    const inserted = state.row;
    if (!inserted) return null;
    if (!txHash) {
      this.kick(inserted.id); // claimed by another attempt meanwhile: follow it the ordinary way
      return inserted;
    }
    const attempt = this.follow({ token: inserted, network, tier }, rpcUrl, txHash, this.timings.maxWaitMs).finally(
      () => this.inflight.delete(inserted.id),
    );
    this.inflight.set(inserted.id, attempt);
    this.backUp(inserted.id, attempt);
    return inserted;
  }

  /**
   * One attempt at moving a token's deployment forward; one at a time per token in this process.
   * `maxWaitMs` bounds how long the caller waits ('waiting' after it; the attempt goes on).
   */
  process(tokenId: string, maxWaitMs = this.timings.maxWaitMs): Promise<Outcome> {
    let attempt = this.inflight.get(tokenId);
    if (!attempt) {
      attempt = this.attempt(tokenId, maxWaitMs).finally(() => this.inflight.delete(tokenId));
      this.inflight.set(tokenId, attempt);
    }
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve('waiting'), maxWaitMs + 1_000);
    });
    return Promise.race([attempt, bound]).finally(() => clearTimeout(timer));
  }

  private async attempt(tokenId: string, maxWaitMs: number): Promise<Outcome> {
    const row = await this.repo.tokenForWorker(tokenId);
    if (!row || row.token.status !== 'PENDING') return 'done';
    const { token, network } = row;
    const rpcUrl = network.rpcUrl;
    if (!rpcUrl) return 'waiting'; // the network lost its RPC URL; try again later
    let txHash = token.txHash as Hex | null;
    if (!txHash) {
      if (token.deploymentType !== 'QUANT') return 'done'; // the wallet has not sent it yet
      try {
        const prepared = await this.prepare(token, network);
        txHash = await this.broadcast(
          network,
          rpcUrl,
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

  /**
   * The installation's deployer is topped up from a local chain's faucet before this process first
   * sends there (once: afterwards this is an already-settled promise).
   */
  funded(network: NetworkRow, rpcUrl: string, address: Hex): Promise<void> {
    const configured = this.networks.find((n) => n.code === network.code);
    return configured?.deployerFromFaucet ? fundedOnce(rpcUrl, address, this.log) : Promise.resolve();
  }

  /** The deployer's account on a network (deriving it costs a public-key computation: once). */
  private accountFor(key: Hex): TxSigner {
    let account = this.accounts.get(key);
    if (!account) {
      account = createSigner(key);
      this.accounts.set(key, account);
    }
    return account;
  }

  /** The SendPlan of a new platform deployment: its preparation started, and a guess when hints allow. */
  plan(token: DeployableToken, network: NetworkRow): SendPlan {
    let data: Hex | undefined;
    try {
      data = deploymentData(token);
    } catch {
      return { final: this.prepare(token, network) }; // refused there, with the reason
    }
    const guess = this.guess(token, network, data);
    return { guess, final: guess ? this.confirm(token, network, guess) : this.prepare(token, network, data) };
  }

  private guess(token: DeployableToken, network: NetworkRow, data: Hex): PreparedSend | undefined {
    const key = this.deployerKeyFor(network);
    const gas = this.gasHints.get(`${network.id}|${token.tokenType}|${token.tierType}`);
    const fees = this.feeHints.get(network.id);
    if (!key || !gas || !fees || Date.now() - fees.at > FEE_HINT_MAX_AGE_MS) return undefined;
    return { account: this.accountFor(key), data, gas, fees: fees.fees };
  }

  /**
   * A guess made final at less cost than `prepare`: the deployment runs once (eth_call) with five
   * sixths of the guess's gas limit, which shows it neither reverts nor runs out of gas with a fifth
   * to spare — what a fresh estimate × 1.2 would show — and the fees are asked afresh. An estimate
   * searches for the gas, running the deployment several times (2.7 ms on anvil, against 1.4 ms
   * for one run). When the run fails, `prepare` finds the reason or the gas the deployment needs.
   */
  private async confirm(token: DeployableToken, network: NetworkRow, guess: PreparedSend): Promise<PreparedSend> {
    const call = this.caller(network);
    const [runs, fees] = await Promise.all([
      call('eth_call', [
        { from: guess.account.address, data: guess.data, gas: toHex((guess.gas * 5n) / 6n) },
        'latest',
      ]).then(
        () => true,
        (err: unknown) => {
          if (err instanceof RpcError && err.kind === 'RPC') return false;
          throw err;
        },
      ),
      this.currentFees(network, call),
    ]);
    return runs ? { ...guess, fees } : this.prepare(token, network, guess.data);
  }

  /** Fees for a transaction sent now (EIP-1559 where the chain has a base fee), kept as the network's hint. */
  private async currentFees(network: NetworkRow, call: RpcCaller): Promise<Fees> {
    const [block, priority] = await Promise.all([
      call<{ baseFeePerGas?: Hex | null }>('eth_getBlockByNumber', ['latest', false]),
      call<Hex>('eth_maxPriorityFeePerGas', []).then(BigInt, () => 1_000_000_000n),
    ]);
    const fees: Fees = block?.baseFeePerGas
      ? { maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + priority, maxPriorityFeePerGas: priority }
      : { gasPrice: BigInt(await call<Hex>('eth_gasPrice', [])) };
    this.feeHints.set(network.id, { fees, at: Date.now() });
    return fees;
  }

  /** JSON-RPC calls to a network's node, ended by the engine's stop. */
  private caller(network: NetworkRow): RpcCaller {
    if (!network.rpcUrl) throw new Error(`Network ${network.code} has no RPC URL`);
    return this.callerAt(network.rpcUrl);
  }

  private callerAt(rpcUrl: string): RpcCaller {
    return (method, params) =>
      rpcCall(rpcUrl, method, params, { timeoutMs: RPC_TIMEOUT_MS, signal: this.abort.signal });
  }

  /**
   * Data, gas and fees of the platform's deployment of a token: nothing here depends on the nonce,
   * so it can run before the token row exists. A revert of the estimate refuses the deployment.
   */
  async prepare(token: DeployableToken, network: NetworkRow, built?: Hex): Promise<PreparedSend> {
    const key = this.deployerKeyFor(network);
    if (!key) throw new DeploymentRefused(TOKEN_MESSAGES.noPlatformDeployer);
    const call = this.caller(network);
    const account = this.accountFor(key);
    let data: Hex;
    try {
      data = built ?? deploymentData(token);
    } catch (err) {
      throw new DeploymentRefused(`The deployment data could not be built: ${(err as Error).message}`);
    }
    // Gas and fees do not depend on the nonce: found side by side, outside the per-sender queue.
    const [estimate, fees] = await Promise.all([
      call<Hex>('eth_estimateGas', [{ from: account.address, data }]).catch((err: unknown) => {
        if (err instanceof RpcError && err.kind === 'RPC') {
          const revert = describeRevert(token, err.data);
          throw new DeploymentRefused(`The contract cannot be deployed with these details: ${revert ?? err.message}`);
        }
        throw err;
      }),
      this.currentFees(network, call),
    ]);
    this.gasHints.set(
      `${network.id}|${token.tokenType}|${token.tierType}`,
      (BigInt(estimate) * GAS_GUESS_MARGIN.num) / GAS_GUESS_MARGIN.den,
    );
    return { account, data, gas: (BigInt(estimate) * 12n) / 10n, fees };
  }

  /**
   * Signs with the deployer's next nonce, claims (stores the hash through `claim`) and broadcasts.
   * With a guess, the guess is signed and claimed while `final` is awaited, and broadcast only if
   * it covers `final` (else `final` is signed and claimed instead); a `final` that fails releases
   * the claim and nothing is sent. Answers the hash, or null when a claim was refused (nothing
   * sent; the nonce stays free).
   */
  private async broadcast(
    network: NetworkRow,
    rpcUrl: string,
    plan: SendPlan,
    claim: Claim,
    release: (tx: SignedPlatformTx) => Promise<void>,
  ): Promise<Hex | null> {
    const call = this.callerAt(rpcUrl);
    const first = plan.guess ?? (await plan.final);
    const { account } = first;
    await this.funded(network, rpcUrl, account.address);
    const manager = nonceManagerFor(network.id, rpcUrl, account.address);
    const sign = async (prepared: PreparedSend, nonce: bigint): Promise<SignedPlatformTx> => ({
      networkId: network.id,
      from: account.address,
      nonce,
      reference: '', // the claim names the token
      ...(await signDeployment(network, prepared, nonce)),
    });
    for (let attempt = 1; ; attempt++) {
      const state: { ambiguous: boolean; failed?: { error: unknown } } = { ambiguous: false };
      try {
        const hash = await manager.withNonce<Hex | null>(async (nonce) => {
          // Stored before it is broadcast: whatever happens next, this transaction is never sent
          // twice, and a chain that loses it gets it again at start-up.
          const result = await storeThenSend(call, await sign(first, nonce), {
            store: async (tx) => (await claim(tx)) !== null,
            release,
            // A guess is sent only if it covers the final preparation; else that is signed instead.
            confirm: plan.guess
              ? async (tx) => {
                  const final = await plan.final;
                  return covers(plan.guess!, final) ? tx : sign(final, nonce);
                }
              : undefined,
          });
          if (result.outcome === 'refused') return { used: false, value: null };
          if (result.outcome === 'not-sent') {
            state.failed = { error: result.error };
            return { used: false, value: null };
          }
          // The node may have taken it: keep the hash and wait for it; recount the nonce.
          if (result.outcome === 'ambiguous') state.ambiguous = true;
          return { used: true, value: result.tx.hash };
        });
        if (state.failed) throw state.failed.error;
        if (state.ambiguous) manager.resync();
        return hash;
      } catch (err) {
        if (err instanceof RpcError && err.kind === 'RPC') {
          if (NONCE_ERROR.test(err.message) && attempt < 5) continue; // resynced by the manager
          throw new DeploymentRefused(`The network refused the deployment transaction: ${err.message}`);
        }
        throw err;
      }
    }
  }

  /** Waits for the receipt, checks it, and settles the token. */
  private async follow(
    { token, tier }: TokenWithRefs,
    rpcUrl: string,
    txHash: Hex,
    maxWaitMs: number,
  ): Promise<Outcome> {
    const call = this.callerAt(rpcUrl);
    const receipt = await this.waitForReceipt(call, txHash, maxWaitMs);
    // The moment the server learned the deployment is on the chain: the token's deployedAt.
    const confirmedAt = new Date();
    if (!receipt) {
      if (this.abort.signal.aborted) return 'waiting';
      const tx = await call<ChainTx | null>('eth_getTransactionByHash', [txHash]);
      if (!tx && Date.now() - token.updatedAt.getTime() > this.timings.giveUpAfterMs) {
        await this.fail(token, 'The deployment transaction was not found on the network.', {
          txHash,
          status: 'DROPPED',
        });
        return 'done';
      }
      return 'waiting';
    }
    const block = BigInt(receipt.blockNumber);
    if (receipt.status !== '0x1') {
      await this.fail(token, `The deployment transaction failed on the chain (reverted in block ${block}).`, {
        txHash,
        status: 'MINED',
      });
      return 'done';
    }
    let from = receipt.from;
    if (token.deploymentType === 'META_MASK') {
      // The wallet's transaction must be a contract creation carrying exactly the prepared data.
      // Runtime code is not compared: the contracts' immutables differ per deployment.
      const tx = await call<ChainTx | null>('eth_getTransactionByHash', [txHash]);
      if (!tx) return 'waiting';
      from = tx.from;
      if (tx.to) {
        await this.fail(token, 'The transaction is not a contract deployment.');
        return 'done';
      }
      if (tx.input.toLowerCase() !== deploymentData(token).toLowerCase()) {
        await this.fail(token, 'The transaction did not deploy the prepared contract: its data differs.');
        return 'done';
      }
    }
    if (!receipt.contractAddress) {
      await this.fail(token, 'The transaction created no contract.');
      return 'done';
    }
    if (token.deploymentType === 'META_MASK') {
      // The platform's own creation succeeded with a contract address; a wallet's is checked.
      const code = await call<Hex>('eth_getCode', [receipt.contractAddress, receipt.blockNumber]);
      if (!code || code === '0x') {
        await this.fail(token, 'No contract code exists at the deployed address.');
        return 'done';
      }
    }
    await this.succeed(token, tier, {
      txHash,
      contractAddress: receipt.contractAddress,
      blockNumber: block,
      from,
      confirmedAt,
    });
    return 'done';
  }

  /** Polls for a receipt, quickly at first (a local chain mines at once), then less often. */
  private async waitForReceipt(
    call: <T>(method: string, params: unknown[]) => Promise<T>,
    txHash: Hex,
    maxWaitMs: number,
  ): Promise<Receipt | null> {
    const started = Date.now();
    const signal = this.abort.signal;
    for (let poll = 0; !signal.aborted; poll++) {
      let receipt: Receipt | null = null;
      try {
        receipt = await call<Receipt | null>('eth_getTransactionReceipt', [txHash]);
      } catch (err) {
        if (signal.aborted) return null;
        if (!(err instanceof RpcError) || err.kind === 'RPC' || err.kind === 'INVALID_RESPONSE') throw err;
        // Unreachable or slow: keep trying within this attempt.
      }
      if (receipt) return receipt;
      const elapsed = Date.now() - started;
      if (elapsed >= maxWaitMs) return null;
      const pause = RECEIPT_QUICK_PAUSES_MS[poll] ?? (elapsed < 2_000 ? 15 : elapsed < 15_000 ? 200 : 1_000);
      await sleep(pause, signal);
    }
    return null;
  }

  private async succeed(
    token: TokenRow,
    tier: TokenWithRefs['tier'],
    result: { txHash: Hex; contractAddress: Hex; blockNumber: bigint; from: Hex; confirmedAt: Date },
  ): Promise<void> {
    const status = await this.repo.transaction(async (repo) => {
      await repo.settleTx(token, result.txHash, 'MINED');
      const updated = await repo.updateToken(
        token.id,
        {
          status: 'ACTIVE',
          contractAddress: result.contractAddress,
          blockNumber: result.blockNumber.toString(),
          deployerAddress: result.from,
          deployedAt: result.confirmedAt,
          failureReason: null,
        },
        eq(tokens.status, 'PENDING'),
      );
      if (!updated) return null; // settled before (another attempt, another node)
      const amount = tierCreditAmount(tier, token.deploymentType) ?? 0;
      if (amount <= 0) return 'ACTIVE';
      const charged = await chargeToken(repo, updated, amount);
      return charged ? 'ACTIVE' : 'UNPAID';
    });
    if (status) this.log.info({ tokenId: token.id, status }, 'token deployed');
  }

  /**
   * FAILED with a reason (only from PENDING); the tokens:create unit is given back, nothing is
   * charged. `sent`: what became of the deployment transaction the platform stored.
   */
  async fail(token: TokenRow, rawReason: string, sent?: { txHash: Hex; status: PlatformTxStatus }): Promise<void> {
    const reason = cleanReason(rawReason);
    await this.repo.transaction(async (repo) => {
      if (sent) await repo.settleTx(token, sent.txHash, sent.status);
      const updated = await repo.updateToken(
        token.id,
        { status: 'FAILED', failureReason: reason },
        eq(tokens.status, 'PENDING'),
      );
      if (updated) await repo.releaseQuota(token.accountId);
    });
  }

  /**
   * A token whose deployment transaction can never be mined now (the chain lost it and its nonce
   * went to another transaction): FAILED with the reason whatever it was (PENDING, or ACTIVE on
   * the strength of a receipt the chain has since forgotten), its charge refunded through the
   * ledger (reference `refund:token:<id>`, once) and its tokens:create unit given back.
   */
  async failLost(tokenId: string, reason: string): Promise<void> {
    const [row] = await this.repo.tokensByIds([tokenId]);
    if (!row || row.token.status === 'FAILED') return;
    const { token } = row;
    const failed = await this.repo.transaction(async (repo) => {
      const updated = await repo.updateToken(
        token.id,
        {
          status: 'FAILED',
          failureReason: cleanReason(`The deployment was lost by the network. ${reason}`),
          creditsCharged: 0,
        },
        eq(tokens.status, token.status),
      );
      if (!updated) return false;
      if (token.creditsCharged > 0) {
        await repo.applyCredits(
          token.accountId,
          token.creditsCharged,
          `Refund: token deployment lost: ${token.name} (${token.unit})`,
          `refund:token:${token.id}`,
        );
      }
      await repo.releaseQuota(token.accountId);
      return true;
    });
    if (failed) this.log.warn({ tokenId, was: token.status }, 'token failed: its deployment was lost by the chain');
  }
}

/**
 * Charges a token's deployment once (reference `token:<id>`): answers false when the balance does
 * not cover it, and then marks the token UNPAID. Runs inside the caller's transaction.
 */
export async function chargeToken(repo: TokenRepository, token: TokenRow, amount: number): Promise<boolean> {
  const result = await repo.applyCredits(
    token.accountId,
    -amount,
    `Token deployment: ${token.name} (${token.unit})`,
    `token:${token.id}`,
  );
  if (result === 'insufficient') {
    await repo.updateToken(token.id, { status: 'UNPAID' });
    return false;
  }
  await repo.updateToken(token.id, { status: 'ACTIVE', creditsCharged: amount });
  return true;
}

/** The contract's custom error of a revert (e.g. `ERC20InvalidReceiver(0x0000…)`), when it decodes. */
function describeRevert(token: DeployableToken, data: unknown): string | null {
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]{8}/.test(data)) return null;
  try {
    const { errorName, args } = decodeErrorResult({
      abi: getTier(token.tokenType, token.tierType).abi,
      data: data as Hex,
    });
    return `${errorName}(${(args ?? []).map(String).join(', ')})`;
  } catch {
    return null;
  }
}

/** Node error texts may carry raw revert bytes (NUL is not storable as text): printable and short. */
function cleanReason(text: string): string {
  const printable = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return printable.length > 500 ? `${printable.slice(0, 497)}...` : printable;
}

/** The signed deployment transaction with the given nonce, and its hash. */
function signDeployment(
  network: NetworkRow,
  { account, data, gas, fees }: PreparedSend,
  nonce: bigint,
): Promise<{ raw: Hex; hash: Hex }> {
  return account.signTransaction({
    chainId: network.chainId,
    nonce: Number(nonce),
    gas,
    data,
    ...('gasPrice' in fees ? { type: 'legacy' as const, ...fees } : { type: 'eip1559' as const, ...fees }),
  });
}

/** Whether a guessed transaction may be sent in place of the prepared one: as much gas, fees as high. */
export function covers(guess: PreparedSend, final: PreparedSend): boolean {
  if (guess.data !== final.data || guess.gas < final.gas) return false;
  const g = guess.fees;
  const f = final.fees;
  if ('gasPrice' in g) return 'gasPrice' in f && g.gasPrice >= f.gasPrice;
  return !('gasPrice' in f) && g.maxFeePerGas >= f.maxFeePerGas && g.maxPriorityFeePerGas >= f.maxPriorityFeePerGas;
}

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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
