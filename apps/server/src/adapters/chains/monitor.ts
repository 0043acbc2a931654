import type { DbHandle, NetworkHealth } from '@connect/db';
import { NetworkCatalogueRepository } from '../../repositories/network-catalogue.ts';
import { probeRpc, rpcCall, RpcError } from './rpc.ts';

/**
 * The network health monitor: every interval, each catalogue network with an RPC URL is probed
 * and `networks.health`, `latest_block` and `health_checked_at` are updated.
 *
 * Rules (docs/decisions/developer-hub.md, Chains and networks):
 * - no RPC URL → NOT_CONFIGURED;
 * - unreachable or no answer in time → OFFLINE;
 * - answers, but with a JSON-RPC/HTTP error or nonsense → DEGRADED;
 * - answers a different chain id than the catalogue's → DEGRADED;
 * - the latest block is older than `stallAfterMs` → DEGRADED (stalled), unless the node reports
 *   automine (anvil_getAutomine): a local automine chain only makes blocks for transactions, so an
 *   idle one that answers is ONLINE;
 * - otherwise ONLINE.
 *
 * Several server nodes may run the monitor: the check of one network is done under a PostgreSQL
 * advisory lock (pg_try_advisory_xact_lock, held for the probe), so only one node probes a network
 * at a time, and a node that finds the row freshly checked by another skips it. PGlite is
 * in-process and single-node, so there an in-process guard plays the lock's part.
 */

export type HealthCheck = {
  networkId: string;
  code: string;
  /** 'checked': probed now; 'locked': another monitor holds the network's lock; 'fresh': another node just checked it. */
  outcome: 'checked' | 'locked' | 'fresh' | 'not-configured';
  health: NetworkHealth;
  latestBlock: number | null;
  reason?: string;
};

export type NetworkMonitor = {
  /** Starts the periodic check (first run at once); no-op when the interval is 0. */
  start(): void;
  /** Stops the timer and waits for a running check to finish. */
  stop(): Promise<void>;
  /** Checks every network now. `skipFresh` skips networks checked less than half an interval ago. */
  checkOnce(options?: { skipFresh?: boolean }): Promise<HealthCheck[]>;
  readonly running: boolean;
};

export type MonitorLogger = {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
};

export type NetworkMonitorOptions = {
  dbh: DbHandle;
  intervalMs: number;
  stallAfterMs: number;
  rpcTimeoutMs: number;
  log?: MonitorLogger;
  now?: () => number;
};

export type Assessment = {
  health: Exclude<NetworkHealth, 'NOT_CONFIGURED'>;
  latestBlock: number | null;
  reason?: string;
};

/** Probes one RPC and applies the health rules above. */
export async function assessRpc(
  rpcUrl: string,
  expectedChainId: number,
  options: { stallAfterMs: number; timeoutMs: number; now?: number },
): Promise<Assessment> {
  let probe;
  try {
    probe = await probeRpc(rpcUrl, { timeoutMs: options.timeoutMs });
  } catch (err) {
    if (err instanceof RpcError && (err.kind === 'UNREACHABLE' || err.kind === 'TIMEOUT')) {
      return { health: 'OFFLINE', latestBlock: null, reason: err.message };
    }
    return { health: 'DEGRADED', latestBlock: null, reason: err instanceof Error ? err.message : String(err) };
  }
  const latestBlock = Number(probe.latestBlock);
  if (probe.chainId !== expectedChainId) {
    return { health: 'DEGRADED', latestBlock, reason: `chain id ${probe.chainId}, expected ${expectedChainId}` };
  }
  const now = options.now ?? Date.now();
  const ageMs = probe.latestBlockTimestamp === undefined ? 0 : now - probe.latestBlockTimestamp * 1_000;
  if (ageMs > options.stallAfterMs) {
    const automine = await rpcCall<unknown>(rpcUrl, 'anvil_getAutomine', [], { timeoutMs: options.timeoutMs }).catch(
      () => false,
    );
    if (automine !== true) {
      return {
        health: 'DEGRADED',
        latestBlock,
        reason: `stalled: block ${latestBlock} is ${Math.round(ageMs / 1_000)} s old`,
      };
    }
  }
  return { health: 'ONLINE', latestBlock };
}

const LOCKED = Symbol('locked');
const heldInProcess = new WeakMap<object, Set<string>>();

/**
 * Runs `fn` while holding the network's lock, or returns LOCKED when another monitor holds it.
 * PostgreSQL: a transaction-scoped advisory lock on one pooled connection (released at commit,
 * also if the node dies). PGlite: an in-process guard (one process owns a PGlite database).
 */
async function withNetworkLock<T>(
  dbh: DbHandle,
  networkId: string,
  fn: (catalogue: NetworkCatalogueRepository) => Promise<T>,
): Promise<T | typeof LOCKED> {
  if (dbh.kind === 'postgres') {
    return dbh.db.transaction(async (tx) => {
      const catalogue = new NetworkCatalogueRepository(tx);
      if (!(await catalogue.tryLockHealthCheck(networkId))) return LOCKED;
      return fn(catalogue);
    });
  }
  let held = heldInProcess.get(dbh);
  if (!held) heldInProcess.set(dbh, (held = new Set()));
  if (held.has(networkId)) return LOCKED;
  held.add(networkId);
  try {
    return await fn(new NetworkCatalogueRepository(dbh.db));
  } finally {
    held.delete(networkId);
  }
}

export function createNetworkMonitor(options: NetworkMonitorOptions): NetworkMonitor {
  const { dbh, intervalMs, stallAfterMs, rpcTimeoutMs, log } = options;
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let inFlight: Promise<unknown> | undefined;

  async function checkNetwork(
    row: { id: string; code: string; chainId: number; rpcUrl: string; health: NetworkHealth },
    skipFresh: boolean,
  ): Promise<HealthCheck> {
    const base = { networkId: row.id, code: row.code };
    const result = await withNetworkLock(dbh, row.id, async (catalogue) => {
      const current = await catalogue.healthOf(row.id);
      if (!current) return undefined;
      if (skipFresh && current.checkedAt && now() - current.checkedAt.getTime() < intervalMs / 2) {
        return { ...base, outcome: 'fresh' as const, health: current.health, latestBlock: current.latestBlock };
      }
      if (!current.rpcUrl) return undefined;
      const assessment = await assessRpc(current.rpcUrl, row.chainId, {
        stallAfterMs,
        timeoutMs: rpcTimeoutMs,
        now: now(),
      });
      await catalogue.recordHealth(row.id, assessment, new Date(now()));
      if (assessment.health !== current.health) {
        const entry = { network: row.code, health: assessment.health, reason: assessment.reason };
        if (assessment.health === 'ONLINE') log?.info(entry, 'network health changed');
        else log?.warn(entry, 'network health changed');
      }
      return { ...base, outcome: 'checked' as const, ...assessment };
    });
    if (result === LOCKED) return { ...base, outcome: 'locked', health: row.health, latestBlock: null };
    return result ?? { ...base, outcome: 'not-configured', health: 'NOT_CONFIGURED', latestBlock: null };
  }

  async function checkOnce(opts: { skipFresh?: boolean } = {}): Promise<HealthCheck[]> {
    const catalogue = new NetworkCatalogueRepository(dbh.db);
    const rows = await catalogue.networksToCheck();
    const stale = rows.filter((r) => !r.rpcUrl && r.health !== 'NOT_CONFIGURED').map((r) => r.id);
    await catalogue.markNotConfigured(stale, new Date(now()));
    return Promise.all(
      rows.map((row) =>
        row.rpcUrl
          ? checkNetwork({ ...row, rpcUrl: row.rpcUrl }, opts.skipFresh ?? false)
          : Promise.resolve<HealthCheck>({
              networkId: row.id,
              code: row.code,
              outcome: 'not-configured',
              health: 'NOT_CONFIGURED',
              latestBlock: null,
            }),
      ),
    );
  }

  function schedule(delay: number) {
    timer = setTimeout(() => {
      timer = undefined;
      if (!started || dbh.isClosed) return;
      const run = checkOnce({ skipFresh: true })
        .catch((err: unknown) => log?.warn({ err }, 'network health check failed'))
        .finally(() => {
          if (inFlight === run) inFlight = undefined;
          if (started) schedule(intervalMs);
        });
      inFlight = run;
    }, delay);
    timer.unref();
  }

  return {
    start() {
      if (started || intervalMs <= 0) return;
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
    checkOnce,
    get running() {
      return started;
    },
  };
}
