// bench:admin's application list (issue 33 §2, §6): its seed and its measures (bench/admin.ts runs
// them after the users' and accounts').
//
// The seed (set-based, after admin-seed.ts's): one application per account on average (250,000 at
// 1,000,000 users), each in an account drawn at random (so some accounts have none, some several),
// created by the account's owner since the account was; 80 % testnet. Names from a head and a tail
// drawn with a skew ("Payments" is in about one name in six) and a number, "Ledgerline" for one in
// 5,000. Twelve networks of the bench's own (eight testnets, four mainnets): each application uses
// one drawn with a skew among its type's, 40 % a second; "Rare testnet" about one application in
// 2,500. Migration 0020's triggers are off while it inserts; the projection is then filled by the
// migration's own application_directory_refresh() and its counts recounted, as the triggers would.
//
// Timed: ApplicationManagementRepository.list (the route's query code), all statuses unless the
// measure names a status or a network. Issue 33 §6 asks p95 ≤ 50 ms of every measure of it.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '@connect/db';
import type { TApplicationListStatus, TManagementApplicationSortField } from '@connect/shared';
import { ApplicationManagementRepository } from '../apps/server/src/services/application-manager/management-repository.ts';

/** What bench/admin.ts hands a list's measures (its own types, kept there). */
export type BenchKit<Measure, Lister> = {
  measure: (name: string, run: () => Promise<unknown>) => Measure;
  /** First, next and previous from the deep page, and last page of a list of `total` rows. */
  paging: (label: string, total: number, list: Lister, suffix?: string) => Promise<Measure[]>;
  search: (list: Lister, term: string, what: string) => Measure;
  sorts: (list: Lister, fields: readonly TManagementApplicationSortField[]) => Measure[];
  pageSize: number;
};
type PageRequest = {
  searchTerm?: string;
  page?: number;
  size?: number;
  sort?: { field: TManagementApplicationSortField; direction: 'asc' | 'desc' };
  cursor?: string | undefined;
};
type Page = { ids: string; cursor: string | undefined };

export const applicationsFor = (accounts: number) => accounts;

/** Rows the projection is filled by per statement. */
const REFRESH_BATCH = 50_000;
const HEADS = `Payments Wallet Treasury Custody Ledger Settlement Oracle Bridge Explorer Indexer Minting Staking
  Swap Vault Escrow Payroll Invoicing Loyalty Rewards Tracker Monitor Relay Gateway Notary Registry Market Auction
  Lending Bond Remittance Identity Supply Carbon Ticketing Gaming Royalty`.split(/\s+/);
const TAILS = 'API Service Bot Backend Worker App Portal Engine Hub Sync Node Client Dashboard Console'.split(' ');
const NETWORKS = [
  ...['Ethereum', 'Polygon', 'Arbitrum', 'Optimism', 'Base', 'Avalanche', 'BNB Chain'].map((name, i) => ({
    name: `${name} testnet`,
    type: 'testnet',
    ord: i,
  })),
  { name: 'Rare testnet', type: 'testnet', ord: 7 },
  ...['Ethereum', 'Polygon', 'Arbitrum', 'Avalanche'].map((name, i) => ({
    name: `${name} mainnet`,
    type: 'mainnet',
    ord: 8 + i,
  })),
];
const TRIGGERED = ['applications', 'application_networks', 'application_directory', 'application_network_directory'];

export async function seedApplications(url: string, accounts: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (text: string, params: unknown[] = []) => client.query(text, params);
  const apps = applicationsFor(accounts);
  try {
    await q(`set maintenance_work_mem = '256MB'`);
    await q('select setseed(0.57)');
    for (const table of TRIGGERED) await q(`alter table ${table} disable trigger user`);
    await q(
      `insert into networks (code, name, network_type, technology, chain_id, sort_order)
      select 'bench-' || n.ord, n.name, n.type, split_part(n.name, ' ', 1), 900000 + n.ord, n.ord
      from jsonb_to_recordset($1::jsonb) as n(name text, type text, ord int)`,
      [JSON.stringify(NETWORKS)],
    );
    // The accounts numbered, so each application draws one by a number (an index seek).
    await q(
      `create temporary table bench_owners as
      select (row_number() over (order by account_id) - 1)::int as i, account_id, owner_user_id, created_at
      from account_directory`,
    );
    await q('create index on bench_owners (i)');
    await q(
      `create temporary table bench_apps as
      select d.k, gen_random_uuid() as id, o.account_id, o.owner_user_id,
        o.created_at + d.r_time * (now() - o.created_at) as created_at,
        case when d.r_type < 0.8 then 'testnet' else 'mainnet' end as type, d.r_name, d.r_tail, d.r_net, d.r_second
      from (select k, floor(random() * $2::int)::int as i, random() as r_time, random() as r_type,
          random() as r_name, random() as r_tail, random() as r_net, random() as r_second
        from generate_series(0, $1::int - 1) k) d
      join bench_owners o on o.i = d.i`,
      [apps, accounts],
    );
    await q(
      `insert into applications (id, account_id, created_by, name, name_key, callback_url, application_type,
        client_id, signing_service_name, signing_key_id, signing_public_key, signing_private_key, created_at,
        updated_at)
      select a.id, a.account_id, a.owner_user_id, nm.name, lower(nm.name), 'https://example.com/callback', a.type,
        substr(translate(md5(a.id::text || 'client'), 'abcdef', 'ghijkl') || md5(a.id::text), 1, 26),
        'quant-' || a.type || '-signing', 'key-' || a.id, '0x04', 'sealed', a.created_at, a.created_at
      from bench_apps a
      cross join lateral (select case when a.k % 5000 = 1 then 'Ledgerline ' || a.k
        else ($1::text[])[1 + floor(cardinality($1::text[]) * a.r_name ^ 2)::int] || ' '
          || ($2::text[])[1 + floor(cardinality($2::text[]) * a.r_tail)::int] || ' ' || a.k end as name) nm`,
      [HEADS, TAILS],
    );
    const ids = async (where: string) =>
      (await q(`select id from networks where code like 'bench-%' and ${where} order by sort_order`)).rows.map(
        (row: { id: string }) => row.id,
      );
    const testnets = await ids(`network_type = 'testnet' and name <> 'Rare testnet'`);
    const mainnets = await ids(`network_type = 'mainnet'`);
    const [rare] = await ids(`name = 'Rare testnet'`);
    // One network drawn with a skew among the type's (the rare testnet instead once in 2,000 testnet
    // applications), and for 40 % of the others the next one of the list as well.
    await q(
      `with picks as (
        select a.id, a.r_second, c.ids, case when a.type = 'testnet' and a.r_net < 0.0005 then null
          else 1 + floor(cardinality(c.ids) * a.r_net ^ 1.5)::int end as at
        from bench_apps a
        cross join lateral (select case when a.type = 'testnet' then $1::uuid[] else $2::uuid[] end as ids) c)
      insert into application_networks (application_id, network_id)
      select id, coalesce(ids[at], $3::uuid) from picks
      union all
      select id, ids[1 + at % cardinality(ids)] from picks where at is not null and r_second < 0.4`,
      [testnets, mainnets, rare],
    );
    for (let from = 0; from < apps; from += REFRESH_BATCH) {
      await q(
        `select application_directory_refresh(array(select id from bench_apps where k >= $1::int and k < $2::int))`,
        [from, from + REFRESH_BATCH],
      );
    }
    await q(
      `insert into application_network_directory (network_id, application_id, status, created_at, name_key, owner_key,
        search_text)
      select an.network_id, d.application_id, d.status, d.created_at, d.name_key, d.owner_key, d.search_text
      from application_networks an join application_directory d on d.application_id = an.application_id`,
    );
    await q('delete from application_list_counts');
    await q(
      `insert into application_list_counts (network_id, status, count)
      select '00000000-0000-0000-0000-000000000000', status, count(*) from application_directory group by status
      union all select network_id, status, count(*) from application_network_directory group by network_id, status`,
    );
    for (const table of TRIGGERED) await q(`alter table ${table} enable trigger user`);
    await q(
      `vacuum (analyze) applications, application_networks, application_directory, application_network_directory,
        application_list_counts, networks`,
    );
  } finally {
    await client.end();
  }
}

/** The measures of GET /management/applications as its route runs it (the repository reads its exact totals itself). */
export async function applicationMeasures<Measure>(
  db: Database,
  kit: BenchKit<Measure, (request: PageRequest) => Promise<Page>>,
): Promise<Measure[]> {
  const repo = new ApplicationManagementRepository(db);
  const lister =
    (filter: { statuses?: TApplicationListStatus[]; networkId?: string } = {}) =>
    async (request: PageRequest): Promise<Page> => {
      const { applicationList, cursor } = await repo.list(
        { ...filter, searchTerm: request.searchTerm },
        { page: request.page ?? 0, size: request.size ?? kit.pageSize, sort: request.sort, cursor: request.cursor },
      );
      return { ids: applicationList.map((app) => app.applicationId).join(), cursor: cursor ?? undefined };
    };
  const networkId = async (name: string) => {
    const result = await db.execute(sql`select id from networks where name = ${name} and code like 'bench-%'`);
    return (result as unknown as { rows: { id: string }[] }).rows[0]!.id;
  };
  const total = (counts: Record<TApplicationListStatus, number>) =>
    Object.values(counts).reduce((sum, n) => sum + n, 0);
  const common = await networkId('Ethereum testnet');
  const rare = await networkId('Rare testnet');
  const all = lister();
  const counts = await repo.statusCounts();
  const [sample] = (await repo.list({ searchTerm: 'ledgerline' }, { page: 0, size: 1 })).applicationList;
  return [
    ...(await kit.paging('applications, all statuses', total(counts), all)),
    ...(await kit.paging('applications, ACTIVE', counts.ACTIVE, lister({ statuses: ['ACTIVE'] }), ', ACTIVE')),
    kit.measure('first page, REMOVED', () => lister({ statuses: ['REMOVED'] })({})),
    ...(await kit.paging(
      'applications on Ethereum testnet',
      total(await repo.statusCounts(common)),
      lister({ networkId: common }),
      ', a common network',
    )),
    kit.measure('first page, a rare network', () => lister({ networkId: rare })({})),
    kit.measure('first page, a common network, ACTIVE', () => lister({ networkId: common, statuses: ['ACTIVE'] })({})),
    kit.measure('a common network sorted by name', () =>
      lister({ networkId: common })({ sort: { field: 'name', direction: 'asc' } }),
    ),
    kit.search(all, 'ledgerline', 'rare name'),
    kit.search(all, 'payments', 'common name word'),
    kit.search(all, sample!.clientId, 'a client id'),
    kit.search(all, 'wolsten', "rare owner's surname"),
    kit.search(all, 'pa', '2-char prefix of a name'),
    kit.search(all, 'j', '1-char prefix'),
    kit.measure('search "payments" on a common network', () =>
      lister({ networkId: common })({ searchTerm: 'payments' }),
    ),
    ...kit.sorts(all, ['name', 'ownerEmail', 'createdAt']),
    kit.measure('status counts', () => repo.statusCounts()),
  ];
}
