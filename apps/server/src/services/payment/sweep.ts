import type { FastifyBaseLogger } from 'fastify';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import {
  marketFees,
  platformTxRow,
  type Fees,
  type RpcCaller,
  type SenderNetwork,
  type SignedPlatformTx,
} from '../../adapters/chains/sender/index.ts';
import { createSigner, type TxSigner } from '../../adapters/chains/signer.ts';
import type { Deps } from '../../types.ts';
import type { DepositKeys } from './deposit-keys.ts';
import type { QntPayments } from './qnt-payments.ts';
import { SweepRepository, type DepositSweepRow, type SweepCandidate, type SweepInFlight } from './sweep-repository.ts';

/*
 * The sweep (issue 15 §2; docs/decisions/payments.md "The sweep"): QNT the follower confirmed at a deposit
 * address is moved to the treasury, with the deposit key this installation holds (the embedded
 * seed; with a configured xpub the operator sweeps with their own wallet, and this never runs).
 * One sweep of an address is a row of `deposit_sweeps`, and every step is a conditional change of
 * that row, so a rerun — after a crash, on another node, or at the same time — takes up where it
 * stands and never repeats a step:
 *
 * 1. PENDING is recorded first, for at most what the follower confirmed and no sweep has moved
 *    (never QNT still collecting confirmations) and at most what the chain shows.
 * 2. Gas: the platform's key sends the address just enough ETH for one ERC-20 transfer at the
 *    market's fees (`sweep-gas:<id>`; nothing when it holds enough). Stored with the row's
 *    gas_tx_hash in one database transaction before it is sent, so a second run finds it taken.
 * 3. The deposit key sends `transfer(treasury, amount)` (`sweep:<id>`), stored with tx_hash and
 *    SENT the same way.
 * 4. Its receipt: MINED, or FAILED when it reverted (the next run may record a new sweep).
 *
 * A crash between a store and its send leaves a transaction the chain never saw: the start-up
 * recovery sends the stored bytes (the same hash), and the sender tells the owners registered here
 * of replacements (fee bumps) and of transactions that can never be mined. Sweeping moves the
 * platform's custody only: the customer's QNT in the ledger is not touched.
 */

/** A sweep moves at least this much (1 QNT): below it the gas is not worth it. To be configurable. */
export const SWEEP_THRESHOLD = 10n ** 18n;
/** Addresses taken up by one run (the next run, ten minutes later, takes the rest). */
const SWEEPS_PER_RUN = 50;
/** Sweeps moved side by side (each waits for two receipts). */
const PARALLEL = 4;
/** How long a run waits for a receipt before leaving the sweep to the next run. */
const RECEIPT_WAIT_MS = 60_000;
/** An address whose sweep failed is not paid gas again for this long. */
const FAILED_BACKOFF_MS = 60 * 60_000;
/** A sweep still in flight after this long is logged as a warning (someone should look). */
const STALE_AFTER_MS = 60 * 60_000;
const RPC_TIMEOUT_MS = 10_000;
/** Gas of a plain ETH transfer to an externally owned account. */
const ETH_TRANSFER_GAS = 21_000n;

export const sweepReference = (id: string) => `sweep:${id}`;
export const sweepGasReference = (id: string) => `sweep-gas:${id}`;

/** What one run did. */
export type SweepReport = {
  /** Sweeps recorded by this run. */
  recorded: number;
  /** Sweeps this run saw mined: their QNT is in the treasury. */
  mined: number;
  /** Sweeps this run saw fail (a reverted or lost transaction): the QNT stays, for a later sweep. */
  failed: number;
  /** Sweeps left in flight for the next run (no receipt yet, or an error, logged). */
  waiting: number;
  /** Why this node swept nothing at all (no QNT network, no deposit keys, no platform key). */
  skipped?: string;
};

/** The payment service's runtime face (sweep-job.ts). */
export type PaymentRuntime = {
  /** Whether this node can sweep: QNT is taken here, the installation holds the deposit keys and a platform key. */
  readonly sweeps: boolean;
  sweep(now?: Date): Promise<SweepReport>;
};

type SweepDeps = Pick<Deps, 'db' | 'sender' | 'config'>;
type SweepQnt = Pick<QntPayments, 'network' | 'depositKeys'>;

/** What a run needs of the chain, read once per run. */
type Chain = {
  network: SenderNetwork;
  token: Hex;
  treasury: Hex;
  keys: DepositKeys;
  platform: TxSigner;
  call: RpcCaller;
};

type Outcome = 'mined' | 'failed' | 'waiting' | 'settled-elsewhere';

/**
 * The payment service's runtime: the sweep, with the owners of its references registered with the
 * sender (once per app, while the service is assembled).
 */
export function paymentRuntime(deps: SweepDeps, qnt: SweepQnt, log: FastifyBaseLogger): PaymentRuntime {
  const sweeper = new DepositSweeper(deps, qnt, log);
  sweeper.registerOwners();
  return { sweeps: sweeper.sweeps, sweep: (now) => sweeper.sweep(now) };
}

export class DepositSweeper {
  private readonly repo: SweepRepository;

  constructor(
    private readonly deps: SweepDeps,
    private readonly qnt: SweepQnt,
    private readonly log: FastifyBaseLogger,
    private readonly options: { threshold?: bigint; receiptWaitMs?: number } = {},
  ) {
    this.repo = new SweepRepository(deps.db);
  }

  get sweeps(): boolean {
    const network = this.qnt.network;
    // Without a configured xpub the installation's seed gives the deposit keys (deposit-keys.ts).
    return Boolean(network && !this.deps.config.qnt.depositXpub && this.deps.sender.signerFor(network));
  }

  /**
   * The sender reports replacements (fee bumps) and transactions that can never be mined (their
   * nonce went elsewhere) to the owner of their reference's prefix.
   */
  registerOwners(): void {
    const idOf = (reference: string) => reference.slice(reference.indexOf(':') + 1);
    this.deps.sender.own('sweep', {
      moved: (change, db) => new SweepRepository(db).moved(idOf(change.reference), 'transfer', change.hash, change.was),
      lost: async (reference, reason) => {
        if (await this.repo.fail(idOf(reference))) this.log.warn({ reference, reason }, 'a sweep transfer was lost');
      },
    });
    this.deps.sender.own('sweep-gas', {
      moved: (change, db) => new SweepRepository(db).moved(idOf(change.reference), 'gas', change.hash, change.was),
      lost: async (reference, reason) => {
        // Only while the transfer is not stored: a transfer already sent stands on its own.
        if (await this.repo.fail(idOf(reference), { unlessSent: true })) {
          this.log.warn({ reference, reason }, 'the gas of a sweep was lost');
        }
      },
    });
  }

  /** One run: the sweeps in flight taken up, then new ones for the addresses that have enough. */
  async sweep(now: Date = new Date()): Promise<SweepReport> {
    const report: SweepReport = { recorded: 0, mined: 0, failed: 0, waiting: 0 };
    const chain = await this.chain();
    if (typeof chain === 'string') return { ...report, skipped: chain };
    const chainId = chain.network.chainId;
    const threshold = this.options.threshold ?? SWEEP_THRESHOLD;

    const inFlight = await this.repo.inFlight(chainId);
    const stale = inFlight.filter((s) => s.createdAt.getTime() < now.getTime() - STALE_AFTER_MS);
    if (stale.length) {
      this.log.warn({ sweeps: stale.map((s) => s.id) }, 'QNT sweeps in flight for over an hour (a stuck transfer?)');
    }
    const candidates = await this.repo.candidates(
      chainId,
      threshold,
      new Date(now.getTime() - FAILED_BACKOFF_MS),
      SWEEPS_PER_RUN,
    );
    const work: { what: object; run: () => Promise<Outcome | null> }[] = [
      ...inFlight.map((sweep) => ({ what: { sweep: sweep.id }, run: () => this.advance(sweep, chain) })),
      ...candidates.map((candidate) => ({
        what: { address: candidate.address },
        run: async () => {
          const sweep = await this.start(candidate, chain, threshold);
          if (!sweep) return null;
          report.recorded++;
          return this.advance(sweep, chain);
        },
      })),
    ];
    await inTurns(work, PARALLEL, async ({ what, run }) => {
      try {
        const outcome = await run();
        if (outcome === 'mined' || outcome === 'failed' || outcome === 'waiting') report[outcome]++;
      } catch (err) {
        // An unreachable node, fees the address cannot pay now, …: the sweep stays where it stands.
        report.waiting++;
        this.log.warn({ err, ...what }, 'a QNT sweep could not go on (the next run takes it up)');
      }
    });
    if (report.recorded || report.mined || report.failed) this.log.info(report, 'QNT sweep');
    return report;
  }

  /** The chain's facts for a run, or why this node cannot sweep. */
  private async chain(): Promise<Chain | string> {
    const qnt = this.qnt.network;
    if (!qnt) return 'QNT is not taken here';
    if (this.deps.config.qnt.depositXpub) return 'the deposit keys are an xpub: the operator sweeps';
    const platform = this.deps.sender.signerFor(qnt);
    if (!platform) return `no platform key on ${qnt.code}`;
    const id = await this.repo.networkId(qnt.code);
    if (!id) return `${qnt.code} is not in the network catalogue`;
    const keys = await this.qnt.depositKeys();
    if (!keys.treasury || keys.privateKeyAt(0) === null) return 'the installation holds no deposit keys';
    const network = { id, code: qnt.code, chainId: qnt.chainId, rpcUrl: qnt.rpcUrl };
    const call: RpcCaller = (method, params) => rpcCall(qnt.rpcUrl, method, params, { timeoutMs: RPC_TIMEOUT_MS });
    return { network, token: qnt.tokenAddress, treasury: keys.treasury, keys, platform, call };
  }

  /**
   * Step 1: a PENDING sweep of what the address may give — the smaller of its balance on the chain
   * and what the follower confirmed that no sweep moved — unless that is below the threshold or
   * another run recorded one first.
   */
  private async start(candidate: SweepCandidate, chain: Chain, threshold: bigint): Promise<SweepInFlight | null> {
    const balance = await this.qntBalance(chain, candidate.address as Hex);
    const amount = balance < candidate.unswept ? balance : candidate.unswept;
    if (amount < threshold) return null;
    const sweep = await this.repo.record(chain.network.chainId, candidate, amount, threshold);
    return sweep && { ...sweep, address: candidate.address };
  }

  /** Steps 2 to 4 from wherever the sweep stands; a step another run took is read back, not repeated. */
  private async advance(start: SweepInFlight, chain: Chain): Promise<Outcome> {
    let sweep: SweepInFlight = start;
    let gasChecked = false;
    const reread = async () => {
      const row = await this.repo.find(sweep.id);
      if (!row) throw new Error(`The sweep ${sweep.id} is gone`);
      sweep = { ...row, address: sweep.address };
    };
    // Each pass moves the sweep on by a step, or reads back the step another run took.
    for (let pass = 0; pass < 8; pass++) {
      if (sweep.status === 'MINED' || sweep.status === 'FAILED') return 'settled-elsewhere';
      if (sweep.status === 'SENT') return this.settle(sweep, chain);
      if (sweep.gasTxHash) {
        const gas = await this.waitFor(chain, sweep.gasTxHash as Hex);
        if (!gas.receipt) return 'waiting';
        await this.repo.gasMined(chain.network.id, gas.hash);
        if (gas.receipt.status !== '0x1')
          return (await this.repo.fail(sweep.id, { unlessSent: true })) ? 'failed' : 'settled-elsewhere';
      } else if (!gasChecked) {
        const gas = await this.giveGas(sweep, chain);
        if (gas === 'taken') await reread();
        else if (gas !== 'enough') sweep = { ...sweep, gasTxHash: gas };
        gasChecked = gas === 'enough';
        continue;
      }
      const sent = await this.sendTransfer(sweep, chain);
      if (sent) sweep = { ...sweep, txHash: sent, status: 'SENT' };
      else await reread();
    }
    throw new Error(`The sweep ${sweep.id} did not settle into a step`);
  }

  /**
   * Step 2: the address's ETH topped up to what one transfer costs at the market's fees. Answers
   * the gas transaction's hash, 'enough' when the address holds enough already, or 'taken' when
   * another run stored its own first (nothing sent).
   */
  private async giveGas(sweep: SweepInFlight, chain: Chain): Promise<Hex | 'enough' | 'taken'> {
    const address = sweep.address as Hex;
    const [gas, fees, eth] = await Promise.all([
      this.transferGas(sweep, chain),
      marketFees(chain.call),
      this.ethBalance(chain, address),
    ]);
    const needed = gas * feeCap(fees);
    if (eth >= needed) return 'enough';
    const sent = await this.deps.sender.send({
      network: chain.network,
      signer: chain.platform,
      reference: sweepGasReference(sweep.id),
      fields: { to: address, value: needed - eth, gas: ETH_TRANSFER_GAS, fees },
      store: (tx) => this.repo.claimGas(sweep.id, platformTxRow(tx)),
      release: (tx) => this.repo.releaseGas(sweep.id, sentTx(tx)),
    });
    return sent ? sent.tx.hash : 'taken';
  }

  /**
   * Step 3: the deposit key's transfer of the sweep's amount to the treasury, at the market's fees
   * or what the address can pay, whichever is lower (the market may have risen since its gas was
   * sent). Answers its hash, or null when another run stored its own first (nothing sent).
   */
  private async sendTransfer(sweep: SweepInFlight, chain: Chain): Promise<Hex | null> {
    const key = chain.keys.privateKeyAt(sweep.derivationIndex);
    if (!key) throw new Error('The installation holds no deposit keys');
    const signer = createSigner(key);
    if (signer.address.toLowerCase() !== sweep.address.toLowerCase()) {
      // A seed that no longer derives the stored addresses: never sign for another address.
      throw new Error(`The deposit key ${sweep.derivationIndex} does not derive ${sweep.address}`);
    }
    const [gas, market, eth] = await Promise.all([
      this.transferGas(sweep, chain),
      marketFees(chain.call),
      this.ethBalance(chain, signer.address),
    ]);
    const sent = await this.deps.sender.send({
      network: chain.network,
      signer,
      reference: sweepReference(sweep.id),
      fields: {
        to: chain.token,
        data: transferData(chain.treasury, sweep.amount),
        gas,
        fees: affordable(market, eth, gas),
      },
      store: (tx) => this.repo.claimTransfer(sweep.id, platformTxRow(tx)),
      release: (tx) => this.repo.releaseTransfer(sweep.id, sentTx(tx)),
    });
    return sent ? sent.tx.hash : null;
  }

  /** Step 4: the transfer's receipt (whichever replacement was mined) settles the sweep. */
  private async settle(sweep: DepositSweepRow, chain: Chain): Promise<Outcome> {
    const found = await this.waitFor(chain, sweep.txHash as Hex);
    if (!found.receipt) return 'waiting';
    const isMined = found.receipt.status === '0x1';
    const changed = await this.repo.settle(sweep.id, isMined ? 'MINED' : 'FAILED', {
      networkId: chain.network.id,
      txHash: found.hash,
    });
    if (!changed) return 'settled-elsewhere';
    if (!isMined) this.log.warn({ sweep: sweep.id, txHash: found.hash }, 'a QNT sweep transfer reverted');
    return isMined ? 'mined' : 'failed';
  }

  private waitFor(chain: Chain, hash: Hex) {
    return this.deps.sender.waitForReceipt(chain.network, hash, {
      maxWaitMs: this.options.receiptWaitMs ?? RECEIPT_WAIT_MS,
    });
  }

  /** The transfer's gas limit: the node's estimate and a fifth more (unused gas is not paid). */
  private async transferGas(sweep: SweepInFlight, chain: Chain): Promise<bigint> {
    const estimate = BigInt(
      await chain.call<Hex>('eth_estimateGas', [
        { from: sweep.address, to: chain.token, data: transferData(chain.treasury, sweep.amount) },
      ]),
    );
    return estimate + estimate / 5n;
  }

  private async qntBalance(chain: Chain, address: Hex): Promise<bigint> {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address] });
    return BigInt(await chain.call<Hex>('eth_call', [{ to: chain.token, data }, 'latest']));
  }

  private async ethBalance(chain: Chain, address: Hex): Promise<bigint> {
    return BigInt(await chain.call<Hex>('eth_getBalance', [address, 'latest']));
  }
}

const transferData = (to: Hex, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });

const sentTx = (tx: SignedPlatformTx) => ({ networkId: tx.networkId, txHash: tx.hash });

/** The most a transaction may pay per gas with these fees. */
const feeCap = (fees: Fees) => ('gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas);

/** The market's fees, lowered to what `eth` pays for `gas` when it does not cover them. */
function affordable(market: Fees, eth: bigint, gas: bigint): Fees {
  const cap = eth / gas;
  if (cap >= feeCap(market)) return market;
  if ('gasPrice' in market) return { gasPrice: cap };
  return {
    maxFeePerGas: cap,
    maxPriorityFeePerGas: market.maxPriorityFeePerGas < cap ? market.maxPriorityFeePerGas : cap,
  };
}

/** Runs `work` with at most `parallel` at a time. */
async function inTurns<T>(work: T[], parallel: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < work.length) await run(work[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, work.length) }, worker));
}
