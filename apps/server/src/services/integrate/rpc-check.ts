import { NETWORK_MESSAGES, type TInvalidParam } from '@connect/shared';
import { probeRpc, RpcError, type RpcProbe } from '../../adapters/chains/rpc.ts';
import type { Resolver } from '../../adapters/chains/address-policy.ts';

/** How the server reads an RPC URL before accepting a private network (tests may replace it). */
export type RpcProbeFn = (url: string) => Promise<RpcProbe>;

/** Largest answer read from a user's node: a latest block with transaction hashes fits easily. */
const PROBE_MAX_RESPONSE_BYTES = 1024 * 1024;
const PROBE_TIMEOUT_MS = 5_000;

/**
 * The real probe of a user's RPC URL: at most 5 s and 1 MiB per call, and, unless private
 * addresses are allowed (PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES), only public addresses, the one
 * checked being the one connected to, no redirects.
 */
export function privateNetworkProbe(options: {
  allowPrivateAddresses: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
}): RpcProbeFn {
  return (url) =>
    probeRpc(url, {
      timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
      maxResponseBytes: PROBE_MAX_RESPONSE_BYTES,
      allowPrivateAddresses: options.allowPrivateAddresses,
      resolve: options.resolve,
    });
}

/** What a private network claims about its node: the check holds the node to it. */
export type RpcClaims = { url: string; chainId: number; eip1559: boolean };

/**
 * The live RPC check of a private network, the same at its submission and when staff run it again
 * (issue 33 §4): the URL must answer JSON-RPC, report the claimed chain id, and have a base fee in
 * its latest block exactly when EIP-1559 is claimed. Each failure is a field error in the
 * customer's words; `probe` is what the node answered, null when it did not.
 */
export async function checkPrivateNetworkRpc(
  probe: RpcProbeFn,
  claims: RpcClaims,
): Promise<{ errors: TInvalidParam[]; probe: RpcProbe | null }> {
  let answer: RpcProbe;
  try {
    answer = await probe(claims.url);
  } catch (err) {
    if (err instanceof RpcError && err.kind === 'BLOCKED') {
      return { errors: [{ name: 'url', reason: NETWORK_MESSAGES.urlPrivateAddress }], probe: null };
    }
    // Whatever else failed (refused, timed out, not JSON-RPC), the user can only fix the URL or the node.
    return { errors: [{ name: 'url', reason: NETWORK_MESSAGES.rpcUnreachable }], probe: null };
  }
  const errors: TInvalidParam[] = [];
  if (answer.chainId !== claims.chainId) {
    errors.push({ name: 'chainId', reason: NETWORK_MESSAGES.chainIdMismatch(answer.chainId, claims.chainId) });
  }
  const hasBaseFee = answer.baseFeePerGas !== null;
  if (claims.eip1559 && !hasBaseFee) errors.push({ name: 'eip1559', reason: NETWORK_MESSAGES.eip1559Unsupported });
  if (!claims.eip1559 && hasBaseFee) errors.push({ name: 'eip1559', reason: NETWORK_MESSAGES.eip1559Supported });
  return { errors, probe: answer };
}
