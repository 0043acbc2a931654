import type { FastifyBaseLogger } from 'fastify';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { fundFromFaucet } from '../../adapters/chains/platform-deployer.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import type { RpcCaller, SenderNetwork } from '../../adapters/chains/sender/index.ts';
import { createSigner, type TxSigner } from '../../adapters/chains/signer.ts';
import { problem } from '../../lib/errors.ts';
import { PlatformKeyRepository } from '../../repositories/platform.ts';
import type { Deps } from '../../types.ts';
import { qntNetworkOf } from '../payment/index.ts';
import { ClaimRepository } from './claim-repository.ts';

/*
 * The rewards treasury (issue 34 §3; docs/decisions/rewards.md "The treasury"): the key claims are
 * paid from, in QNT on the network QNT payments use (config.qnt.network, the token of
 * `qntNetworkOf`). REWARD_TREASURY_PRIVATE_KEY names it; without it, on a local chain (never in
 * production, never on a chain that is not on this machine), a key of this installation is
 * generated once, sealed with SECRET_KEY in platform_keys, and funded at start from anvil's
 * unlocked accounts — ETH for gas from the faucet, QNT from the first of anvil's accounts that
 * holds enough — so `npm start` pays claims at once. Its own key: the platform's deployer and the
 * deposit keys never pay rewards, so a leak or a drain of one is not a leak of the others.
 */

/** platform_keys' name of the installation's treasury key on a local chain. */
export const LOCAL_TREASURY_KEY = 'reward-treasury:local-chains';

const QNT = 10n ** 18n;
/**
 * The local treasury is topped up with `amount` QNT when it holds less than `below`: a campaign
 * of 100 participants worth 10 QNT each needs 1 000 QNT, so a fresh installation can publish
 * dozens; each of anvil's accounts holds 1 000 000 QNT (qnt-token.ts).
 */
export const TREASURY_FUNDING = { below: 10_000n * QNT, amount: 100_000n * QNT };

/** How long a local funding transfer is waited for (anvil mines at once). */
const FUNDING_RECEIPT_MS = 5_000;
const RPC_TIMEOUT_MS = 10_000;

/** Where claims are paid from, and how. */
export type Treasury = {
  /** The QNT network, as the sender wants it (its catalogue id), and its name for staff. */
  network: SenderNetwork;
  networkName: string;
  /** A testnet whose chain is on this machine (anvil): funded at start. */
  isLocal: boolean;
  /** The QNT token (lower case). */
  token: Hex;
  signer: TxSigner;
  address: Hex;
  /** JSON-RPC calls to the network's node. */
  call: RpcCaller;
};

const loaded = new WeakMap<object, Promise<Treasury | null>>();

/**
 * The app's treasury (one per Deps), or null when claims cannot be paid here: QNT is not taken, or
 * no key is configured on a network that is not local (or in production). A failed load is tried
 * again on the next call.
 */
export function rewardTreasury(deps: Pick<Deps, 'config' | 'chains' | 'db' | 'box'>): Promise<Treasury | null> {
  let treasury = loaded.get(deps);
  if (!treasury) {
    treasury = loadTreasury(deps);
    treasury.catch(() => loaded.delete(deps));
    loaded.set(deps, treasury);
  }
  return treasury;
}

/** The treasury, or 503 TREASURY_UNAVAILABLE. */
export async function requireTreasury(deps: Pick<Deps, 'config' | 'chains' | 'db' | 'box'>): Promise<Treasury> {
  const treasury = await rewardTreasury(deps).catch(() => null);
  if (!treasury) throw problem('TREASURY_UNAVAILABLE');
  return treasury;
}

/**
 * The treasury's QNT on chain (balanceOf at the latest block), in wei. 503 TREASURY_UNAVAILABLE
 * when payouts are not configured here or the node cannot be reached.
 */
export async function treasuryBalanceWei(deps: Pick<Deps, 'config' | 'chains' | 'db' | 'box'>): Promise<bigint> {
  const treasury = await requireTreasury(deps);
  try {
    return await qntBalance(treasury.call, treasury.token, treasury.address);
  } catch {
    throw problem('TREASURY_UNAVAILABLE', {
      detail: `The treasury's balance could not be read: ${treasury.networkName} cannot be reached.`,
    });
  }
}

/** `address`'s QNT (ERC-20 balanceOf, latest block). */
export async function qntBalance(call: RpcCaller, token: Hex, address: Hex): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  return BigInt(await call<Hex>('eth_call', [{ to: token, data }, 'latest']));
}

async function loadTreasury(deps: Pick<Deps, 'config' | 'chains' | 'db' | 'box'>): Promise<Treasury | null> {
  const { config } = deps;
  const qnt = qntNetworkOf(config, deps.chains.qntToken);
  if (!qnt) return null;
  const configured = config.chains.networks.find((n) => n.code === qnt.code);
  const isLocal = Boolean(configured?.isLocal) && !config.isProduction;
  const key = config.rewards.treasuryPrivateKey ?? (isLocal ? await installationKey(deps) : null);
  if (!key) return null;
  const id = await new ClaimRepository(deps.db).networkId(qnt.code);
  if (!id) return null;
  const signer = createSigner(key);
  const rpcUrl = qnt.rpcUrl;
  return {
    network: { id, code: qnt.code, chainId: qnt.chainId, rpcUrl },
    networkName: qnt.name,
    isLocal,
    token: qnt.tokenAddress,
    signer,
    address: signer.address,
    call: (method, params) => rpcCall(rpcUrl, method, params, { timeoutMs: RPC_TIMEOUT_MS }),
  };
}

/** The installation's treasury key: loaded, or generated once (across nodes: the first stored wins). */
async function installationKey({ db, box }: Pick<Deps, 'db' | 'box'>): Promise<Hex> {
  const keys = new PlatformKeyRepository(db);
  const what = "the rewards treasury's key";
  const stored = await keys.find(LOCAL_TREASURY_KEY);
  if (stored) return box.open(stored.sealedPrivateKey, what) as Hex;
  const key = generatePrivateKey();
  const kept = await keys.insertOrKeep({
    name: LOCAL_TREASURY_KEY,
    address: privateKeyToAddress(key),
    sealedPrivateKey: box.seal(key),
  });
  return box.open(kept.sealedPrivateKey, what) as Hex;
}

const funded = new Map<string, Promise<void>>();

/**
 * On a local chain, once per process, chain and key: the treasury gets ETH for gas from the faucet
 * (topped up below 10 ETH, platform-deployer.ts) and QNT from anvil's accounts (TREASURY_FUNDING).
 * Nothing elsewhere: a real treasury is funded by its operator. A failure is logged and tried
 * again by the next call (the next start, or the next payout).
 */
export function fundLocalTreasury(treasury: Treasury, log: Pick<FastifyBaseLogger, 'warn' | 'info'>): Promise<void> {
  if (!treasury.isLocal) return Promise.resolve();
  const key = `${treasury.network.rpcUrl}|${treasury.address.toLowerCase()}`;
  let done = funded.get(key);
  if (!done) {
    done = fund(treasury, log).catch((err: unknown) => {
      funded.delete(key);
      log.warn({ err, treasury: treasury.address }, 'could not fund the rewards treasury on the local chain');
    });
    funded.set(key, done);
  }
  return done;
}

async function fund(treasury: Treasury, log: Pick<FastifyBaseLogger, 'info'>): Promise<void> {
  await fundFromFaucet(treasury.network.rpcUrl, treasury.address);
  const { call, token, address } = treasury;
  if ((await qntBalance(call, token, address)) >= TREASURY_FUNDING.below) return;
  // anvil's accounts but the last, which deploys the token (its nonce 0 must stay free on a new chain).
  for (const account of DEV_ACCOUNTS.slice(0, -1)) {
    if ((await qntBalance(call, token, account.address)) < TREASURY_FUNDING.amount) continue;
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [address, TREASURY_FUNDING.amount],
    });
    const hash = await call<Hex>('eth_sendTransaction', [{ from: account.address, to: token, data }]);
    const deadline = Date.now() + FUNDING_RECEIPT_MS;
    while (Date.now() < deadline && !(await call<unknown>('eth_getTransactionReceipt', [hash]))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    log.info({ treasury: address, qnt: String(TREASURY_FUNDING.amount / QNT) }, 'funded the rewards treasury');
    return;
  }
  throw new Error("none of anvil's accounts holds enough QNT to fund the rewards treasury");
}
