import type { Database } from '@connect/db';
import { NetworkCatalogueRepository, type CatalogueSeedRow } from '../../repositories/network-catalogue.ts';
import type { ConfiguredNetwork } from './catalogue.ts';

// Apart from the catalogue's seeds (catalogue.ts), which the configuration reads before the
// database layer loads (issue 30).

/**
 * Seeds the catalogue idempotently and applies the configured RPC URLs. Seeded rows take their
 * descriptive fields from the code on every start; `rate_limit` is only set when a row is first
 * created (operators may tune it). A seeded network without a configured URL gets rpc_url null
 * and health NOT_CONFIGURED; when the URL changes, the last health result is forgotten.
 * Rows that are not seeds (added by staff) are left alone, except for the QNT token below.
 *
 * With `qnt` (the configuration's QNT payments): its token address is recorded on the network
 * `qnt.network` and cleared on every other (QNT is taken on one network only), lower case as
 * payments compare it. Without it the recorded token is left as it is.
 */
export async function syncNetworkCatalogue(
  db: Database,
  configured: readonly ConfiguredNetwork[],
  qnt?: { network: string; tokenAddress: string | null },
): Promise<void> {
  const repository = new NetworkCatalogueRepository(db);
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
  if (qnt) await repository.recordQntToken(qnt.network, qnt.tokenAddress?.toLowerCase() ?? null);
}
