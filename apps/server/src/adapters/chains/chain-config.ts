import path from 'node:path';
import { z } from 'zod';
import { NETWORK_SEEDS, envSuffix, withRpcUrl, type ConfiguredNetwork } from './catalogue.ts';

export type ChainsConfig = {
  /** Local anvil chains started by server.ts (not by buildApp, so tests never start them implicitly). */
  devchains: {
    /**
     * On by default except with NODE_ENV=production, where they are off and DEVCHAINS=on is refused
     * (production-checks.ts): anvil funds ten accounts whose keys everyone knows.
     */
    enabled: boolean;
    /** Ports by devchain slot (ethereum-testnet, polygon-testnet); 0 picks a free port. */
    ports: number[];
    /** Each chain's state is persisted to `<stateDir>/<code>.json`. */
    stateDir: string;
  };
  /** The seeded catalogue with URLs and deployer keys from configuration. */
  networks: ConfiguredNetwork[];
  /** Health monitor period; 0 turns the periodic check off (checkOnce() still works). */
  healthIntervalMs: number;
  /** A non-automine chain whose latest block is older than this is DEGRADED (stalled). */
  stallAfterMs: number;
  rpcTimeoutMs: number;
  /**
   * Whether the RPC URL of a private network (entered by a user, checked by the server) may
   * point at a loopback, private, link-local or metadata address. On by default except with
   * NODE_ENV=production, where a user could otherwise make the server call internal services.
   */
  privateNetworkAllowPrivateAddresses: boolean;
};

const ZChainsEnv = z.object({
  DEVCHAINS: z.enum(['0', '1', 'off', 'on', 'false', 'true']).optional(),
  DEVCHAIN_PORTS: z
    .string()
    .regex(/^\s*\d{1,5}\s*(,\s*\d{1,5}\s*)*$/, 'a comma-separated list of ports')
    .default('8545,8546'),
  NETWORK_HEALTH_INTERVAL_S: z.coerce.number().min(0).max(3_600).default(15),
  NETWORK_STALL_AFTER_S: z.coerce.number().int().min(1).max(86_400).default(120),
  NETWORK_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES: z.enum(['0', '1', 'off', 'on', 'false', 'true']).optional(),
});

const ZRpcUrl = z.url({ protocol: /^https?$/ });
const ZPrivateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex private key');
const ZChainId = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/**
 * Chains and network catalogue settings. Per network (CODE = the network code in upper case with
 * `_`, e.g. ETHEREUM_MAINNET): NETWORK_RPC_<CODE> sets its RPC URL, NETWORK_CHAIN_ID_<CODE> its
 * expected chain id (when pointing a testnet at a public one), DEPLOYER_PRIVATE_KEY_<CODE> the
 * platform's deployer key there.
 */
export function loadChainsConfig(env: Record<string, string | undefined>, dataDir: string): ChainsConfig {
  const parsed = ZChainsEnv.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    problems.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const networks = NETWORK_SEEDS.map((seed) => {
    const suffix = envSuffix(seed.code);
    const read = <T>(name: string, schema: z.ZodType<T>): T | undefined => {
      const raw = env[`${name}_${suffix}`];
      if (raw === undefined || raw === '') return undefined;
      const result = schema.safeParse(raw);
      if (!result.success) {
        problems.push(`${name}_${suffix}: ${result.error.issues[0]?.message ?? 'invalid'}`);
        return undefined;
      }
      return result.data;
    };
    const rpcUrl = read('NETWORK_RPC', ZRpcUrl);
    const chainId = read('NETWORK_CHAIN_ID', ZChainId);
    const deployerKey = read('DEPLOYER_PRIVATE_KEY', ZPrivateKey) as `0x${string}` | undefined;
    return withRpcUrl(
      {
        ...seed,
        chainId: chainId ?? seed.chainId,
        rpcUrl,
        rpcFromEnv: rpcUrl !== undefined,
        deployerPrivateKey: deployerKey,
        deployerKeyFromEnv: deployerKey !== undefined,
      },
      rpcUrl,
    );
  });
  if (problems.length || !parsed.success) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  const e = parsed.data;
  const ports = e.DEVCHAIN_PORTS.split(',').map((p) => Number(p.trim()));
  if (ports.some((p) => p > 65_535)) throw new Error('Invalid configuration: DEVCHAIN_PORTS: ports are at most 65535');
  return {
    devchains: {
      enabled: e.DEVCHAINS === undefined ? env.NODE_ENV !== 'production' : ['1', 'on', 'true'].includes(e.DEVCHAINS),
      ports,
      stateDir: path.join(dataDir, 'chains'),
    },
    networks,
    healthIntervalMs: Math.round(e.NETWORK_HEALTH_INTERVAL_S * 1_000),
    stallAfterMs: e.NETWORK_STALL_AFTER_S * 1_000,
    rpcTimeoutMs: e.NETWORK_RPC_TIMEOUT_MS,
    privateNetworkAllowPrivateAddresses:
      e.PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES === undefined
        ? env.NODE_ENV !== 'production'
        : ['1', 'on', 'true'].includes(e.PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES),
  };
}
