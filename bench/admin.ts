// `npm run bench:admin` — not a test. The user list of the staff console (issue 32 §2, §4) at
// 10,000 and at 1,000,000 users on PostgreSQL: each size on a database of its own on
// 127.0.0.1:5432 (BENCH_ADMIN_DATABASE_URL names another server), migrated, seeded by SQL, dropped
// at the end (also on failure or Ctrl-C).
//
// The seed (set-based, generate_series): one account per four users, a few thousand organisation
// names drawn with a skew ("Capital" is in about one name in nine); first and last names from
// lists drawn with a skew (James ≈ 6 %), 15 % rare surnames built from syllables, and
// "Wolstenholme" for one user in 5,000; statuses 90 % ACTIVE, 7 % PENDING, 3 % REMOVED; the status
// change times spread over two years. Migration 0018's triggers are off while it inserts; the
// projection is then filled by the migration's own user_directory_refresh() and the tab counts
// recounted, as the triggers would have left them.
//
// Timed: the user list's repository (UserManagementRepository, the server's query code) on a
// Drizzle database over node-postgres, as GET /api/connect/management/users runs it: the tab
// counts, then the list — not through HTTP (the route adds its JSON and the staff check, the same
// at any size). Page size 5 (the UI's default), ACTIVE tab, each measure 5 times to warm up, then
// REPS times (50; BENCH_ADMIN_REPS). Each query's plan is printed (EXPLAIN ANALYZE, BUFFERS); at
// 1,000,000 users and more a sequential scan of users or user_directory fails the run.
//
//   nice -n -19 npm run bench:admin                 # 10,000 and 1,000,000 users
//   BENCH_ADMIN_SIZES=10000,100000 npm run bench:admin
//
// Figures, 2026-11-29, 2 shared cores, load 3–4, PostgreSQL 15 (shared_buffers 128 MB), p50 / p95
// at 1,000,000 users (seeded in 123 s; the whole run 3 min 20 s):
//   first, next, previous and last page 0.7–1.1 / 2.3–4.8 ms; 100-row page 1.7 / 6.2 ms;
//   the jump to page 1,000 by OFFSET 9.7 / 13.9 ms; each column's sort ≤ 0.7 / 3.9 ms;
//   search "wolsten" 3.6 / 9.3 ms; "zo" 24.9 / 36.7 ms; "j" 113 / 148 ms; tab counts 0.1 / 0.2 ms;
//   missed (≤ 300 ms): "james" 447 / 530 ms, "capital" 301 / 498 ms, "ma" 314 / 455 ms — the
//   search's count capped at 10,001 walks user_directory_changed_idx in order and reads the row of
//   every entry to test the term (docs/benchmarks.md says what changes it).
import os from 'node:os';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase, schema, seedReferenceData, type Database } from '@connect/db';
import type { TManagementUserSortField, UserStatus } from '@connect/shared';
import { UserManagementRepository } from '../apps/server/src/services/connect/user-management-repository.ts';
import { leftovers } from './leftovers.ts';

const SIZES = (process.env.BENCH_ADMIN_SIZES ?? '10000,1000000').split(',').map(Number);
const REPS = Number(process.env.BENCH_ADMIN_REPS ?? 50);
const WARM_UP = 5;
const PAGE_SIZE = 5;
const DEEP_PAGE = 1_000;
/** From this size on, a sequential scan of the list's tables fails the run (below, the planner may rightly choose one). */
const STRICT_FROM = 1_000_000;
const SERVER_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const FIRST_NAMES = `James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard
  Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Nancy Daniel Lisa Matthew Margaret Anthony Betty Mark
  Sandra Donald Ashley Steven Dorothy Paul Kimberly Andrew Emily Joshua Donna Kenneth Michelle Kevin Carol Brian
  Amanda George Melissa Edward Deborah Oliver Amelia Priya Wei Mohammed Fatima Hiroshi Ingrid Siobhan Zoe`.split(/\s+/);
const LAST_NAMES = `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez
  Wilson Anderson Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson
  Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell
  Carter Roberts Patel Kim Chen Murphy Kowalski Müller O'Brien Schmidt Rossi Dubois Okafor`.split(/\s+/);
/** Rare surnames: a syllable of each list (400 of them). */
const RARE_HEADS = 'Ash Brad Crom Dun Elling Fair Gold Hart Ivers Kirk Lang Mort Nor Penn Quil Rad Stan Thorn Upp Wex';
const RARE_TAILS =
  'by croft dale field ford gate ham hurst ley more ridge shaw stead ton well wick wood worth yard holme';
const ORG_HEADS =
  `Global Northern Blue Atlas Summit Vertex Harbor Silver Quantum Apex Pioneer Crescent Evergreen Granite
  Horizon Iron Juniper Keystone Lumen Meridian Nova Orchard Pinnacle Redwood Sterling Titan Unity Vantage Willow Zenith
  Alder Beacon Cobalt Delta Ember Falcon Garnet Halcyon Indigo Jasper Kestrel Lattice Marble Nimbus Onyx Prism Quartz
  Raven Sable Tundra`.split(/\s+/);
const ORG_TRADES = `Capital Systems Labs Digital Partners Holdings Ventures Networks Logistics Analytics Payments Energy
  Health Media Robotics Foods Textiles Mining Shipping Insurance Securities Trading Consulting Software Devices Bio
  Chemicals Retail Motors Aviation Telecom Realty Studios Games Pharma Foundry Works Exchange Markets Custody Clearing
  Assets Trust Bank Credit Finance Ledger Chain Tokens Wallets Data Cloud Security Defence Marine Rail Water Solar Wind
  Agri Timber Steel Glass Paper Print Design Legal Audit Tax Payroll Hiring Learning Travel Hotels Dining Fashion
  Sports Music Film Books`.split(/\s+/);
const ORG_FORMS = ['Ltd', 'LLC', 'GmbH', 'plc', 'Inc', 'AG', 'SA', 'BV'];
/** Distinct organisation names (head × trade × form), drawn with a skew towards the first. */
const ORGANISATIONS = 4_000;

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number) => n.toLocaleString('en-GB');

async function seed(url: string, users: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (text: string, params: unknown[] = []) => client.query(text, params);
  try {
    await q(`set maintenance_work_mem = '256MB'`);
    await q('select setseed(0.32)');
    await q('alter table users disable trigger user');
    await q('alter table accounts disable trigger user');
    const accounts = Math.ceil(users / 4);
    await q(
      `create temporary table bench_accounts as
      select n, gen_random_uuid() as id, random() as r_org, random() as r_none from generate_series(0, $1::int - 1) n`,
      [accounts],
    );
    await q(
      `insert into accounts (id, organisation_name)
      select a.id, case when a.r_none < 0.05 then null
        else ($2::text[])[1 + o.i % cardinality($2::text[])] || ' '
          || ($3::text[])[1 + (o.i / cardinality($2::text[])) % cardinality($3::text[])] || ' '
          || ($4::text[])[1 + o.i * 7 % cardinality($4::text[])] end
      from bench_accounts a, lateral (select floor($1::int * a.r_org ^ 2)::int as i) o`,
      [ORGANISATIONS, ORG_HEADS, ORG_TRADES, ORG_FORMS],
    );
    await q(
      `create temporary table bench_people as
      select n, gen_random_uuid() as id, random() as r_first, random() as r_last, random() as r_status,
        random() as r_role, random() as r_time, random() as r_other
      from generate_series(0, $1::int - 1) n`,
      [users],
    );
    await q(
      `insert into users (id, account_id, email, role, status, first_name, last_name, kyc_status, mfa_setup,
        mfa_confirm, added_by, removed_by, status_changed_at, first_login_at, last_login_at, created_at)
      select p.id, a.id,
        translate(lower(nm.first_name || '.' || nm.last_name), 'ü''', 'u') || '.' || p.n || '@'
          || (array['example.com', 'mail.test', 'corp.example'])[1 + p.n % 3],
        case when p.n < 3 then 'QUANT_ADMIN' when p.n < 8 then 'QUANT_SALES' when p.r_role < 0.4 then 'INDIVIDUAL'
          when p.r_role < 0.85 then 'SME' else 'INSTITUTION' end,
        st.status, nm.first_name, nm.last_name,
        (array['UNVERIFIED', 'PENDING', 'VERIFIED', 'FAILED'])[1 + floor(p.r_other * 4)::int],
        p.r_other < 0.6, p.r_other < 0.5,
        case when st.status = 'PENDING' or p.r_role < 0.1 then 'admin@quant.example' end,
        case when st.status = 'REMOVED' then 'admin@quant.example' end,
        st.changed_at,
        case when st.status <> 'PENDING' then st.changed_at end,
        case when st.status <> 'PENDING' then now() - p.r_other * interval '30 days' end,
        st.changed_at
      from bench_people p
      join bench_accounts a on a.n = p.n % $1::int
      cross join lateral (select
        case when p.r_status < 0.90 then 'ACTIVE' when p.r_status < 0.97 then 'PENDING' else 'REMOVED' end as status,
        now() - p.r_time * interval '730 days' as changed_at) st
      cross join lateral (select
        ($2::text[])[1 + floor(cardinality($2::text[]) * p.r_first ^ 1.5)::int] as first_name,
        case when p.n % 5000 = 1 then 'Wolstenholme'
          when p.r_last < 0.85 then ($3::text[])[1 + floor(cardinality($3::text[]) * (p.r_last / 0.85) ^ 1.5)::int]
          else ($4::text[])[1 + floor((p.r_last - 0.85) / 0.15 * 20)::int]
            || ($5::text[])[1 + floor((p.r_last - 0.85) / 0.15 * 400)::int % 20] end as last_name) nm`,
      [accounts, FIRST_NAMES, LAST_NAMES, RARE_HEADS.split(' '), RARE_TAILS.split(' ')],
    );
    // The projection from the migration's own function, so its definition stays written once.
    // Batches of 50,000 users keep each statement's memory small.
    for (let from = 0; from < users; from += 50_000) {
      await q(`select user_directory_refresh(array(select id from bench_people where n >= $1::int and n < $2::int))`, [
        from,
        from + 50_000,
      ]);
    }
    await q(`update user_status_counts c set count = (select count(*) from users u where u.status = c.status)`);
    await q('alter table users enable trigger user');
    await q('alter table accounts enable trigger user');
    // As autovacuum leaves a table at rest: statistics for the planner, the visibility map for
    // index-only scans.
    await q('vacuum (analyze) accounts, users, user_directory, user_status_counts');
  } finally {
    await client.end();
  }
}

type Query = { sql: string; params: unknown[] };
type Target = { label: string; ms?: number };
const PAGING: Target = { label: 'p95 ≤ 50 ms', ms: 50 };
const SELECTIVE: Target = { label: 'p95 ≤ 50 ms', ms: 50 };
const BROAD: Target = { label: 'p95 ≤ 300 ms', ms: 300 };
const NO_SCAN: Target = { label: 'no scan of users' };
const NONE: Target = { label: '(none)' };

type ListRequest = {
  searchTerm?: string;
  page?: number;
  size?: number;
  sort?: { field: TManagementUserSortField; direction: 'asc' | 'desc' };
  cursor?: string | undefined;
};

type Result = { p50: number; p95: number; plans: string[][]; queries: Query[] };

/** The measures of one size, in the order of the table. */
async function measureSize(url: string, users: number): Promise<Map<string, Result & { target: Target }>> {
  // The server's Drizzle over node-postgres (as openDatabase builds it), with a logger that hands
  // each query's SQL and parameters to EXPLAIN when asked.
  let capture: Query[] | undefined;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => capture?.push({ sql, params }) },
  }) as unknown as Database;
  const repo = new UserManagementRepository(db);
  const status: UserStatus = 'ACTIVE';
  // What the service does for GET /management/users: the tab counts, then the page.
  const list = async (request: ListRequest) => {
    const counts = await repo.statusCounts();
    return repo.list(
      { status, searchTerm: request.searchTerm },
      { page: request.page ?? 0, size: request.size ?? PAGE_SIZE, sort: request.sort, cursor: request.cursor },
      counts[status],
    );
  };

  try {
    const total = (await repo.statusCounts())[status];
    const lastPage = Math.ceil(total / PAGE_SIZE) - 1;
    const deep = Math.min(DEEP_PAGE, Math.floor(lastPage / 2));
    const anchor = await list({ page: deep });
    const cursor = anchor.paging.cursor ?? undefined;
    console.log(
      `${count(users)} users: ${count(total)} ${status}, deep page ${count(deep)}, last page ${count(lastPage)}`,
    );
    // The seeks must land where OFFSET does, or the figures would measure the wrong rows.
    const ids = (page: { users: { userId: string }[] }) => page.users.map((user) => user.userId).join();
    if (ids(await list({ page: deep + 1, cursor })) !== ids(await list({ page: deep + 1 }))) {
      throw new Error(`the next page after page ${deep} is not the page OFFSET reads`);
    }

    const measures: [string, Target, () => Promise<unknown>][] = [
      ['first page', PAGING, () => list({})],
      ['first page, 100 rows', PAGING, () => list({ size: 100 })],
      ['next page from the deep page', PAGING, () => list({ page: deep + 1, cursor })],
      ['previous page from the deep page', PAGING, () => list({ page: deep - 1, cursor })],
      ['last page', PAGING, () => list({ page: lastPage })],
      ['jump to the deep page (OFFSET)', NONE, () => list({ page: deep })],
      ['search "wolsten" (rare surname)', SELECTIVE, () => list({ searchTerm: 'wolsten' })],
      ['search "james" (common first name)', BROAD, () => list({ searchTerm: 'james' })],
      ['search "capital" (common org. word)', BROAD, () => list({ searchTerm: 'capital' })],
      ['search "ma" (2-char prefix, common)', BROAD, () => list({ searchTerm: 'ma' })],
      ['search "zo" (2-char prefix, rare)', BROAD, () => list({ searchTerm: 'zo' })],
      ['search "j" (1-char prefix)', BROAD, () => list({ searchTerm: 'j' })],
      ...(['firstName', 'lastName', 'email', 'role', 'organisationName', 'statusChangedAt'] as const).map(
        (field): [string, Target, () => Promise<unknown>] => [
          `sort ${field} asc`,
          BROAD,
          () => list({ sort: { field, direction: 'asc' } }),
        ],
      ),
      ['tab counts', NO_SCAN, () => repo.statusCounts()],
    ];

    const results = new Map<string, Result & { target: Target }>();
    for (const [name, target, run] of measures) {
      for (let i = 0; i < WARM_UP; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < REPS; i++) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      capture = [];
      await run();
      const queries = capture;
      capture = undefined;
      const plans: string[][] = [];
      for (const query of queries) {
        const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${query.sql}`,
          query.params,
        );
        plans.push(rows.map((row) => row['QUERY PLAN']));
      }
      results.set(name, {
        target,
        p50: times[Math.floor((times.length - 1) / 2)]!,
        p95: times[Math.ceil(times.length * 0.95) - 1]!,
        plans,
        queries,
      });
    }
    return results;
  } finally {
    await pool.end();
  }
}

const SEQ_SCAN = /Seq Scan on (users|user_directory)\b/;
/**
 * The one sequential scan allowed: a search's capped count (lib/staff-list.ts `buildCappedCount`)
 * for a common 1–2 character prefix, which the planner rightly reads in table order until the
 * 10,001st match (≈ 9 % of the table for "ma", 25 ms) — bounded by the LIMIT, and cheaper than the
 * four prefix indexes' bitmap. Any other query's scan fails the run.
 */
const isCappedCount = (query: Query) => /\) capped\s*$/.test(query.sql);
const failsOnScan = (plan: string[], query: Query) => !isCappedCount(query) && plan.some((line) => SEQ_SCAN.test(line));
/** The indexes a plan reads, and its sequential scans. */
function accessPaths(plan: string[]): string[] {
  const paths = new Set<string>();
  for (const line of plan) {
    const index = /(?:Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\w+)/.exec(line);
    if (index) paths.add(index[1]!.replace(/^user_directory_/, ''));
    const seq = /Seq Scan on (\w+)/.exec(line);
    if (seq) paths.add(`seq ${seq[1]}`);
  }
  return [...paths];
}

const left = await leftovers();
// Stopped early (Ctrl-C): the databases go all the same.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void left.tidy().finally(() => process.exit(130)));
}

const bySize = new Map<number, Map<string, Result & { target: Target }>>();
let failed = false;
try {
  console.log(
    `bench:admin — the user list's repository on PostgreSQL (${os.cpus().length} cores, load ${load()}); ` +
      `page size ${PAGE_SIZE}, ACTIVE tab, ${REPS} timed runs each after ${WARM_UP} to warm up`,
  );
  for (const users of SIZES) {
    const url = new URL(SERVER_URL);
    url.pathname = `/connect_bench_admin_${process.pid}_${users}`;
    left.database(url.toString());
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`create database "${url.pathname.slice(1)}"`);
    await admin.end();
    const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await handle.migrate();
    await seedReferenceData(handle.db);
    await handle.close();

    const seedStart = performance.now();
    await seed(url.toString(), users);
    console.log(`\n${count(users)} users: seeded in ${seconds(performance.now() - seedStart)} (load ${load()})`);
    const results = await measureSize(url.toString(), users);
    console.log(`${count(users)} users: measured (load ${load()})`);
    bySize.set(users, results);
    for (const [name, result] of results) {
      console.log(
        `\n--- ${name} — ${count(users)} users: p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms`,
      );
      result.plans.forEach((plan, i) => {
        console.log(`  query ${i + 1}, params ${JSON.stringify(result.queries[i]!.params)}`);
        for (const line of plan) console.log(`    ${line}`);
        if (users >= STRICT_FROM && failsOnScan(plan, result.queries[i]!)) {
          console.log(`    ^ FAILED: a sequential scan of users or user_directory at ${count(users)} users`);
          failed = true;
        }
      });
    }
    await left.tidy();
  }

  const largest = SIZES[SIZES.length - 1]!;
  const header = [
    'measure',
    ...SIZES.map((n) => `${count(n)} p50 / p95`),
    'target',
    `met at ${count(largest)}?`,
    'plan',
  ];
  const rows = [...bySize.get(largest)!.entries()].map(([name, last]) => {
    const cells = SIZES.map((n) => {
      const result = bySize.get(n)!.get(name);
      return result ? `${result.p50.toFixed(1)} / ${result.p95.toFixed(1)} ms` : '';
    });
    const scans = last.plans.some((plan, i) => failsOnScan(plan, last.queries[i]!));
    const met =
      last.target.ms !== undefined
        ? last.p95 <= last.target.ms && !(largest >= STRICT_FROM && scans)
        : last.target === NO_SCAN
          ? !last.plans.flat().some((line) => / on (users|user_directory)\b/.test(line))
          : undefined;
    return [
      name,
      ...cells,
      last.target.label,
      met === undefined ? '' : met ? 'yes' : 'NO',
      // The tab counts' read is the same in every request: shown on its own row only.
      last.plans
        .map((plan) => accessPaths(plan).join(' + '))
        .filter((paths, i, all) => all.length === 1 || paths !== 'seq user_status_counts')
        .join(' ; '),
    ];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}`);
  for (const row of rows) console.log(line(row));
  console.log(
    `\nplan: at ${count(largest)} users, what each query reads (the search's capped count ; the page), ` +
      `user_directory_ left off of index names. Load at the end ${load()}.`,
  );
} finally {
  await left.tidy();
}
if (failed) {
  console.error('\nFAILED: a sequential scan of users or user_directory at 1,000,000 users (plans above).');
  process.exit(1);
}
process.exit(0);
