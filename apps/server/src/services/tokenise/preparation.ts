import { toHex, type Hex } from 'viem';
import { TOKEN_MESSAGES } from '@connect/shared';
import { RpcError } from '../../adapters/chains/rpc.ts';
import { marketFees, type Fees, type PlatformSender, type RpcCaller } from '../../adapters/chains/sender/index.ts';
import type { TxSigner } from '../../adapters/chains/signer.ts';
import { deploymentData, describeRevert, type DeployableToken } from './deployment-data.ts';
import type { NetworkRow } from './repository.ts';

export type { Fees };

/** A platform deployment ready to sign: everything but the nonce. */
export type PreparedSend = { account: TxSigner; data: Hex; gas: bigint; fees: Fees };

/**
 * What a new platform deployment signs: `final` (asked of the chain: fresh fees, and a gas limit
 * the deployment is known to run with), and while that is under way, `guess` — the same
 * transaction with gas and fees from this network's last preparations, signed and stored at once,
 * and broadcast only once `final` has confirmed it does not revert and the guess covers its gas
 * and fees (else signed again). With a guess, `final` is the guess's own gas limit confirmed by one
 * run (DeploymentPreparer.confirm); without one, or when that run fails, it is a gas estimate.
 */
export type SendPlan = { guess?: PreparedSend | undefined; final: Promise<PreparedSend> };

/** A guessed gas limit is this much above the last estimate for the same contract on the network. */
const GAS_GUESS_MARGIN = { num: 3n, den: 2n };
/** Fees seen longer ago than this are not guessed from. */
const FEE_HINT_MAX_AGE_MS = 60_000;

/** Thrown inside a send when the deployment cannot succeed: the token fails with this reason. */
export class DeploymentRefused extends Error {}

/**
 * Everything a platform deployment needs but its nonce: the deployer's account, the data, a gas
 * limit and fees — asked of the chain, or guessed from the network's last preparations so that a
 * repeat deployment can be signed before the chain has answered (SendPlan).
 */
export class DeploymentPreparer {
  /** Per network and contract (network|type|tier): the last gas estimate. Per network: the last fees. */
  private readonly gasHints = new Map<string, bigint>();
  private readonly feeHints = new Map<string, { fees: Fees; at: number }>();

  constructor(
    /** The platform's sender: its deployer key on each network. */
    private readonly sender: PlatformSender,
    /** JSON-RPC calls to a node, ended by the engine's stop. */
    private readonly callerAt: (rpcUrl: string) => RpcCaller,
  ) {}

  /** The platform's deployer on a network (its key, as a signer), if configuration has one. */
  deployerFor(network: NetworkRow): TxSigner | undefined {
    return this.sender.signerFor(network);
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

  /**
   * Data, gas and fees of the platform's deployment of a token: nothing here depends on the nonce,
   * so it can run before the token row exists. A revert of the estimate refuses the deployment.
   */
  async prepare(token: DeployableToken, network: NetworkRow, built?: Hex): Promise<PreparedSend> {
    const account = this.deployerFor(network);
    if (!account) throw new DeploymentRefused(TOKEN_MESSAGES.noPlatformDeployer);
    const call = this.caller(network);
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

  private guess(token: DeployableToken, network: NetworkRow, data: Hex): PreparedSend | undefined {
    const account = this.deployerFor(network);
    const gas = this.gasHints.get(`${network.id}|${token.tokenType}|${token.tierType}`);
    const fees = this.feeHints.get(network.id);
    if (!account || !gas || !fees || Date.now() - fees.at > FEE_HINT_MAX_AGE_MS) return undefined;
    return { account, data, gas, fees: fees.fees };
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

  /** Fees for a transaction sent now (the sender's marketFees), kept as the network's hint. */
  private async currentFees(network: NetworkRow, call: RpcCaller): Promise<Fees> {
    const fees = await marketFees(call);
    this.feeHints.set(network.id, { fees, at: Date.now() });
    return fees;
  }

  private caller(network: NetworkRow): RpcCaller {
    if (!network.rpcUrl) throw new Error(`Network ${network.code} has no RPC URL`);
    return this.callerAt(network.rpcUrl);
  }
}

/** Whether a guessed transaction may be sent in place of the prepared one: as much gas, fees as high. */
export function covers(guess: PreparedSend, final: PreparedSend): boolean {
  if (guess.data !== final.data || guess.gas < final.gas) return false;
  const g = guess.fees;
  const f = final.fees;
  if ('gasPrice' in g) return 'gasPrice' in f && g.gasPrice >= f.gasPrice;
  return !('gasPrice' in f) && g.maxFeePerGas >= f.maxFeePerGas && g.maxPriorityFeePerGas >= f.maxPriorityFeePerGas;
}
