import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import type { PlatformTxRepository } from '../../repositories/platform.ts';
import type { DeploymentEngine } from './deployment.ts';
import type { NetworkRow, TokenRepository, TokenRow } from './repository.ts';
import { settleMissing } from './settlement.ts';

/** Per-call timeout of the start-up checks (a chain that is down must not hold the start for long). */
const RPC_TIMEOUT_MS = 5_000;
/** Tokens checked against a chain at once. */
const CONCURRENCY = 16;

/**
 * At start-up, before the deployments left PENDING are followed again, the database and the chains
 * are made to agree after a crash (issue 11 §5):
 * 1. every transaction the platform stored and a chain no longer knows is sent again (the
 *    sender's recovery, adapters/chains/sender/recovery.ts); a token whose transaction's nonce went
 *    to another transaction is FAILED and refunded (the engine, told as the owner of `token:<id>`,
 *    runs DeploymentEngine.failLost);
 * 2. on local chains, a settled token whose contract is not on the chain — a wallet's deployment
 *    the platform cannot send again (or a platform one from before transactions were stored) —
 *    becomes MISSING, never silently ACTIVE, and gets back the credits it was charged (once).
 * A chain that cannot be reached is left for the next start (logged).
 */
export async function reconcileWithChains(options: {
  repo: TokenRepository;
  txRepo: PlatformTxRepository;
  engine: DeploymentEngine;
  log: FastifyBaseLogger;
}): Promise<void> {
  const { repo, log } = options;
  for (const network of await repo.networksWithRpc()) {
    try {
      await reconcileNetwork(options, network);
    } catch (err) {
      log.warn({ err, network: network.code }, 'could not check the chain against the database at start-up');
    }
  }
}

async function reconcileNetwork(
  { repo, txRepo, engine, log }: Parameters<typeof reconcileWithChains>[0],
  network: NetworkRow,
): Promise<void> {
  const rpcUrl = network.rpcUrl!;
  const call = <T>(method: string, params: unknown[]) =>
    rpcCall<T>(rpcUrl, method, params, { timeoutMs: RPC_TIMEOUT_MS });
  await engine.sender.recover({ id: network.id, code: network.code, rpcUrl, isLocal: network.isLocal });
  if (!network.isLocal) return;
  // A platform deployment the recovery could not send again (logged) is left for the next start.
  const stored = await txRepo.liveHashes(network.id);
  const tokens = (await repo.tokensOnChain(network.id)).filter(
    (token) => !(token.deploymentType === 'QUANT' && token.txHash && stored.has(token.txHash.toLowerCase())),
  );
  const missing: TokenRow[] = [];
  for (let i = 0; i < tokens.length; i += CONCURRENCY) {
    const batch = tokens.slice(i, i + CONCURRENCY);
    const present = await Promise.all(batch.map((token) => isOnChain(call, token)));
    missing.push(...batch.filter((_, j) => !present[j]));
  }
  for (const token of missing) await settleMissing(repo, token);
  if (missing.length) log.warn({ network: network.code, missing: missing.length }, 'tokens missing on the chain');
}

/** Code at the contract's address and, for a wallet's deployment, its transaction known to the chain. */
async function isOnChain(
  call: <T>(method: string, params: unknown[]) => Promise<T>,
  token: TokenRow,
): Promise<boolean> {
  const [code, tx] = await Promise.all([
    call<Hex>('eth_getCode', [token.contractAddress, 'latest']),
    token.deploymentType === 'META_MASK' && token.txHash
      ? call<unknown>('eth_getTransactionByHash', [token.txHash])
      : Promise.resolve(true),
  ]);
  return Boolean(code && code !== '0x') && tx !== null;
}
