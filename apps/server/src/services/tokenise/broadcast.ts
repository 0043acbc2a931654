import type { Hex } from 'viem';
import type { PlatformSender, RpcCaller, SenderNetwork, SignedPlatformTx } from '../../adapters/chains/sender/index.ts';
import { RpcError } from '../../adapters/chains/rpc.ts';
import { covers, DeploymentRefused, type PreparedSend, type SendPlan } from './preparation.ts';

/**
 * Stores a signed transaction for a token before it is broadcast — its hash on the token, the
 * transaction itself in platform_transactions, in one statement or transaction — and answers the
 * token's id, or null when the token cannot take it (cancelled, settled, never inserted): then
 * nothing is stored and nothing is sent.
 */
export type Claim = (tx: SignedPlatformTx) => Promise<string | null>;

/** Where a deployment is sent: the network, and the engine's calls to its node (ended by its stop). */
export type SendTarget = { network: SenderNetwork; call: RpcCaller };

/**
 * Sends a deployment through the platform's sender: signed with the deployer's next nonce, claimed
 * (`claim` stores it with the token) and broadcast. With a guess, the guess is signed and claimed
 * while `final` is awaited, and broadcast only if it covers `final` (else `final` is signed and
 * claimed instead); a `final` that fails releases the claim and nothing is sent. Answers the hash,
 * or null when a claim was refused (nothing sent; the nonce stays free). A node that refuses the
 * transaction refuses the deployment (DeploymentRefused).
 */
export async function broadcastDeployment(
  sender: PlatformSender,
  { network, call }: SendTarget,
  plan: SendPlan,
  claim: Claim,
  release: (tx: SignedPlatformTx) => Promise<void>,
): Promise<Hex | null> {
  const first = plan.guess ?? (await plan.final);
  try {
    const sent = await sender.send({
      network,
      signer: first.account,
      reference: '', // the claim names the token
      fields: fieldsOf(first),
      // A guess is sent only if it covers the final preparation; else that is signed instead.
      confirm: plan.guess
        ? async () => {
            const final = await plan.final;
            return covers(plan.guess!, final) ? undefined : fieldsOf(final);
          }
        : undefined,
      store: async (tx) => (await claim(tx)) !== null,
      release,
      call,
    });
    return sent?.tx.hash ?? null;
  } catch (err) {
    if (err instanceof RpcError && err.kind === 'RPC') {
      throw new DeploymentRefused(`The network refused the deployment transaction: ${err.message}`);
    }
    throw err;
  }
}

const fieldsOf = ({ data, gas, fees }: PreparedSend) => ({ data, gas, fees });
