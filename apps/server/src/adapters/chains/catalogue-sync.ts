import type { Database, NetworkType } from '@connect/db';
import { NetworkCatalogueRepository, type CatalogueSeedRow } from '../../repositories/network-catalogue.ts';
import { envSuffix, type ConfiguredNetwork } from './catalogue.ts';

// Apart from the catalogue's seeds (catalogue.ts), which the configuration reads before the
// database layer loads (issue 30).

/** Where the warnings go (the app's logger). */
type WarningLog = { warn(facts: object, message: string): void };

/** The QNT token as the catalogue records it: the network it is on, and that network's recorded chain. */
export type RecordedQntToken = {
  network: string;
  tokenAddress: string;
  networkType: NetworkType;
  chainId: number;
  name: string;
  rpcUrl: string | null;
};

/**
 * Seeds the catalogue idempotently and adds what this node is configured with. Seeded rows take
 * their descriptive fields from the code on every start; `rate_limit` is only set when a row is
 * first created (operators may tune it). Rows that are not seeds (added by staff) are left alone,
 * except for the QNT token below.
 *
 * The catalogue is every node's (docs/decisions/developer-hub.md, "A start adds, never clears"):
 * a configured RPC URL is recorded (its health forgotten when it changes); a network this node
 * has no URL for keeps the recorded one, another node's, with its name, chain id and health (a
 * network nobody configured: rpc_url null and NOT_CONFIGURED). With a token in `qnt` (the
 * configuration's QNT payments) it is recorded on the network `qnt.network` and cleared on every
 * other (QNT is taken on one network only), lower case as payments compare it; without one the
 * recorded token is left as it is. A configured value that replaces a different recorded one wins,
 * with a warning naming both.
 *
 * Answers the QNT token the catalogue records once this node's values are in (payments read it:
 * a node without QNT_TOKEN_ADDRESS takes QNT where another node recorded it).
 */
export async function syncNetworkCatalogue(
  db: Database,
  configured: readonly ConfiguredNetwork[],
  qnt?: { network: string; tokenAddress: string | null },
  log?: WarningLog,
): Promise<RecordedQntToken | null> {
  const repository = new NetworkCatalogueRepository(db);
  const token = qnt?.tokenAddress?.toLowerCase() ?? null;
  if (log) warnOfReplacedValues(await repository.recorded(), configured, qnt && token ? { ...qnt, token } : null, log);
  const rows = configured.map((n): CatalogueSeedRow => ({
    code: n.code,
    name: n.isLocal && n.localName ? n.localName : n.name,
    networkType: n.networkType,
    technology: n.technology,
    description: n.description,
    chainId: n.chainId,
    rpcUrl: n.rpcUrl ?? null,
    explorerUrl: n.explorerUrl,
    rateLimit: n.rateLimit,
    isLocal: n.isLocal,
    sortOrder: n.sortOrder,
    health: n.rpcUrl ? ('OFFLINE' as const) : ('NOT_CONFIGURED' as const),
  }));
  if (rows.length > 0) await repository.upsertSeeds(rows);
  if (qnt && token) await repository.recordQntToken(qnt.network, token);
  const recorded = (await repository.recorded()).find((row) => row.qntTokenAddress);
  return recorded
    ? {
        network: recorded.code,
        tokenAddress: recorded.qntTokenAddress!,
        networkType: recorded.networkType,
        chainId: recorded.chainId,
        name: recorded.name,
        rpcUrl: recorded.rpcUrl,
      }
    : null;
}

/**
 * Two nodes configured with different values for one thing: the one starting now wins (it is
 * configured so), and says which recorded value it replaced — the other node's, or this node's
 * own from a previous start. An RPC URL is shown as its origin: its path may carry an API key.
 */
function warnOfReplacedValues(
  recorded: Awaited<ReturnType<NetworkCatalogueRepository['recorded']>>,
  configured: readonly ConfiguredNetwork[],
  qnt: { network: string; token: string } | null,
  log: WarningLog,
): void {
  for (const network of configured) {
    const before = recorded.find((row) => row.code === network.code)?.rpcUrl;
    if (!network.rpcUrl || !before || before === network.rpcUrl) continue;
    const [now, was] = [shownUrl(network.rpcUrl), shownUrl(before)];
    log.warn(
      { network: network.code, rpcUrl: now, replaced: was },
      `NETWORK_RPC_${envSuffix(network.code)}: this node's RPC URL for ${network.code} (${now}) replaces the recorded one (${was})`,
    );
  }
  if (!qnt) return;
  for (const row of recorded) {
    if (!row.qntTokenAddress || (row.code === qnt.network && row.qntTokenAddress === qnt.token)) continue;
    log.warn(
      { network: qnt.network, token: qnt.token, replaced: { network: row.code, token: row.qntTokenAddress } },
      `QNT_TOKEN_ADDRESS: this node's QNT token ${qnt.token} on ${qnt.network} replaces the recorded ${row.qntTokenAddress} on ${row.code}`,
    );
  }
}

/** An RPC URL as a log shows it: the origin, and `/…` for a path. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.length > 1 || parsed.search ? '/…' : ''}`;
  } catch {
    return '(not a URL)';
  }
}
