import type { Hex } from 'viem';
import { nonceManagerFor } from '../../adapters/chains/nonce-manager.ts';
import { storeThenSend, type RpcCaller, type SignedPlatformTx } from '../../adapters/chains/platform-sender.ts';
import { RpcError } from '../../adapters/chains/rpc.ts';
import { covers, DeploymentRefused, type PreparedSend, type SendPlan } from './preparation.ts';
import type { NetworkRow } from './repository.ts';

/** JSON-RPC error texts that mean "this nonce cannot be used": resync and send again. */
const NONCE_ERROR = /nonce too low|nonce too high|invalid nonce|replacement transaction underpriced|already imported/i;

/**
 * Stores a signed transaction for a token before it is broadcast — its hash on the token, the
 * transaction itself in platform_transactions, in one statement or transaction — and answers the
 * token's id, or null when the token cannot take it (cancelled, settled, never inserted): then
 * nothing is stored and nothing is sent.
 */
export type Claim = (tx: SignedPlatformTx) => Promise<string | null>;

/** Where a deployment is sent: the network, its node, and the deployer's funding there. */
export type SendTarget = {
  network: NetworkRow;
  rpcUrl: string;
  call: RpcCaller;
  /** Settles once the deployer has funds on the network (see DeploymentEngine.funded). */
  funded: (address: Hex) => Promise<void>;
};

/**
 * Signs with the deployer's next nonce, claims (stores the hash through `claim`) and broadcasts.
 * With a guess, the guess is signed and claimed while `final` is awaited, and broadcast only if
 * it covers `final` (else `final` is signed and claimed instead); a `final` that fails releases
 * the claim and nothing is sent. Answers the hash, or null when a claim was refused (nothing
 * sent; the nonce stays free).
 */
export async function broadcastDeployment(
  { network, rpcUrl, call, funded }: SendTarget,
  plan: SendPlan,
  claim: Claim,
  release: (tx: SignedPlatformTx) => Promise<void>,
): Promise<Hex | null> {
  const first = plan.guess ?? (await plan.final);
  const { account } = first;
  await funded(account.address);
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
