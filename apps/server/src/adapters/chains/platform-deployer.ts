import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { DEV_ACCOUNTS } from '@connect/devchain';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { PlatformKeyRepository } from '../../repositories/platform.ts';
import type { ConfiguredNetwork } from './catalogue.ts';
import { rpcCall } from './rpc.ts';

/**
 * The platform's deployer on the local chains: a key of this installation, generated on first
 * start and kept sealed with SECRET_KEY in platform_keys — not anvil's first account, whose key
 * is public (anyone could sign as the platform). One key serves every local chain; a configured
 * DEPLOYER_PRIVATE_KEY_<CODE> wins on its network. The key is funded from the chain's faucet
 * (anvil's first account, unlocked on the local chains) when it runs low, checked once per process
 * start and chain: before the first transaction this process sends there (`fundedOnce`). Not while
 * the app starts, so a chain the platform never deploys on gets no transfer (and no block).
 */
export const LOCAL_DEPLOYER_KEY = 'deployer:local-chains';

const ETH = 10n ** 18n;
/**
 * A start-up finds the deployer below `below` → the faucet sends `amount`. A deployment costs
 * about 0.005 ETH on a fresh local chain (1.2–1.9 M gas at a few gwei), so 100 ETH pays for some
 * 20 000 deployments, and 10 ETH left still for 2 000 before the next start tops it up; the faucet
 * has 10 000 ETH.
 */
export const DEPLOYER_FUNDING = { below: 10n * ETH, amount: 100n * ETH };

/** anvil's first account: funded and unlocked on every local chain (devchain's mnemonic). */
const FAUCET = DEV_ACCOUNTS[0]!.address;

/** Networks that need the installation's key: local chains without a configured deployer key. */
const needsLocalKey = (n: ConfiguredNetwork) => n.isLocal && !n.deployerKeyFromEnv && Boolean(n.rpcUrl);

/**
 * The catalogue with the installation's deployer key on every local chain that has no configured
 * key (marked `deployerFromFaucet`); the key is loaded, or generated once (across nodes: the
 * first stored wins).
 */
export async function withLocalDeployer(
  networks: readonly ConfiguredNetwork[],
  keys: PlatformKeyRepository,
  box: SecretBox,
): Promise<ConfiguredNetwork[]> {
  if (!networks.some(needsLocalKey)) return [...networks];
  const key = await installationKey(keys, box);
  return networks.map((n) => (needsLocalKey(n) ? { ...n, deployerPrivateKey: key, deployerFromFaucet: true } : n));
}

const funded = new Map<string, Promise<void>>();

/**
 * `fundFromFaucet` once per process, chain and deployer; a failure is logged and tried again next
 * time (a loopback chain that is not anvil has no unlocked faucet: deployments then fail with the
 * node's "insufficient funds" until the key is funded by hand).
 */
export function fundedOnce(rpcUrl: string, address: Hex, log: FastifyBaseLogger): Promise<void> {
  const key = `${rpcUrl}|${address.toLowerCase()}`;
  let done = funded.get(key);
  if (!done) {
    done = fundFromFaucet(rpcUrl, address).catch((err: unknown) => {
      funded.delete(key);
      log.warn({ err, rpcUrl, deployer: address }, 'could not fund the platform deployer from the faucet');
    });
    funded.set(key, done);
  }
  return done;
}

async function installationKey(keys: PlatformKeyRepository, box: SecretBox): Promise<Hex> {
  const stored = await keys.find(LOCAL_DEPLOYER_KEY);
  if (stored) return box.open(stored.sealedPrivateKey, "the local chains' deployer key") as Hex;
  const key = generatePrivateKey();
  const kept = await keys.insertOrKeep({
    name: LOCAL_DEPLOYER_KEY,
    address: privateKeyToAddress(key),
    sealedPrivateKey: box.seal(key),
  });
  return box.open(kept.sealedPrivateKey, "the local chains' deployer key") as Hex;
}

/**
 * Tops the deployer up from the faucet when it runs low, straight on the chain (never through the
 * gateway), and waits a little for the transfer to be mined (a chain whose mining is paused
 * mines it later).
 */
export async function fundFromFaucet(rpcUrl: string, address: Hex): Promise<void> {
  const call = <T>(method: string, params: unknown[]) => rpcCall<T>(rpcUrl, method, params, { timeoutMs: 5_000 });
  const balance = BigInt(await call<Hex>('eth_getBalance', [address, 'pending']));
  if (balance >= DEPLOYER_FUNDING.below) return;
  const hash = await call<Hex>('eth_sendTransaction', [
    { from: FAUCET, to: address, value: `0x${DEPLOYER_FUNDING.amount.toString(16)}` },
  ]);
  for (let i = 0; i < 100; i++) {
    if (await call<unknown>('eth_getTransactionReceipt', [hash])) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
