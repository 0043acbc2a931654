// `npm run bench:admin` — not a test. The staff console's user list (issue 32 §2, §4) at 10,000 and
// at 1,000,000 users, and its account list (issue 33 §1, §6) at their 2,500 and 250,000 accounts, on
// PostgreSQL: each size on a database of its own on 127.0.0.1:5432 (BENCH_ADMIN_DATABASE_URL names
// another server), migrated, seeded by SQL, dropped at the end (also on failure or Ctrl-C).
//
// The seed (set-based, generate_series): one account per four users, created over two years, with a
// few thousand organisation names drawn with a skew ("Capital" is in about one name in nine); its
// first user (the owner) signs up with it, the others join since. First and last names from lists
// drawn with a skew (James ≈ 6 %), 15 % rare surnames built from syllables, and "Wolstenholme" for
// one user in 5,000; statuses 90 % ACTIVE, 7 % PENDING, 3 % REMOVED, and every user of a closed
// account (3 % of them) REMOVED. Each account's plan is drawn from the seeded catalogue
// (PLAN_FATES: trials running or ended, pay as you go, annual subscriptions, renewals due or
// failed, cancelled, pending, disabled). Migrations 0018's and 0019's triggers are off while it
// inserts; the projections are then filled by the migrations' own user_directory_refresh() and
// account_directory_refresh() and their counts recounted, as the triggers would have left them.
//
// Timed: each list's repository (the server's query code) on a Drizzle database over node-postgres,
// as its route runs it, not through HTTP (the route adds its JSON and the staff check, the same at
// any size). GET /management/users: the tab counts, then the list, ACTIVE tab
// (UserManagementRepository). GET /management/accounts: the list, which reads its exact total from
// account_status_counts itself when there is no search (AccountManagementRepository), All statuses
// unless the measure names a status. Page size 5 (the UI's default), each measure 5 times to warm
// up, then REPS times (50; BENCH_ADMIN_REPS). Each query's plan is printed (EXPLAIN ANALYZE,
// BUFFERS); at 1,000,000 users and more a sequential scan of users, accounts, applications or their
// projections fails the run. The applications list (issue 33 §2, §6), one application per account
// (250,000 at 1,000,000 users): bench/admin-applications.ts seeds and measures it.
//
//   nice -n -19 npm run bench:admin                 # 10,000 and 1,000,000 users
//   BENCH_ADMIN_SIZES=10000,100000 npm run bench:admin
//
// Figures, 2026-11-29 04:00 UTC, 2 cores, load 1.4–4.0, PostgreSQL 15 (shared_buffers 128 MB), p50 / p95
// at 1,000,000 users and 250,000 accounts (seeded in 167 s; the whole run 3 min 7 s); every target met:
//   users: first, next, previous and last page 0.6–0.8 / 1.9–2.1 ms; 100-row page 1.5 / 4.1 ms; the
//   jump to page 1,000 by OFFSET 7.4 / 13.2 ms; each column's sort ≤ 0.7 / 3.2 ms; search "wolsten"
//   2.9 / 8.7 ms, "james" 29.1 / 45.1 ms, "capital" 40.6 / 60.5 ms, "ma" 28.3 / 45.2 ms, "zo"
//   19.1 / 34.2 ms, "j" 13.4 / 16.4 ms; tab counts 0.2 / 0.3 ms.
//   accounts: first, next, previous and last page (All statuses, ACTIVE) and REMOVED's first page
//   0.5–0.8 / 0.6–3.0 ms; each sort ≤ 0.6 / 2.2 ms; search "kestrel books" 3.1 / 4.1 ms, "wolsten"
//   1.0 / 3.2 ms, "capital" 11.0 / 14.2 ms, "gl" 8.6 / 14.0 ms, "an" 15.3 / 19.0 ms; counts 0.2 / 0.4 ms.
// Applications, 2026-11-29 06:30 UTC, load 1.7–4.7, at 250,000 (the whole run seeded in 214 s): first,
//   next, previous and last page (All statuses, ACTIVE, a common network) and the first page of
//   REMOVED, of a rare network, of a network and a status 0.8–1.0 / 1.0–2.2 ms; each sort ≤ 0.9 / 1.1
//   ms; search "ledgerline" 1.9 / 3.1 ms, "payments" 14.7 / 15.8 ms, a client id 2.9 / 3.5 ms,
//   "wolsten" 1.1 / 1.2 ms, "pa" 11.5 / 12.7 ms, "j" 14.7 / 16.6 ms, "payments" on a common network
//   30.2 / 32.0 ms; counts 0.2 / 0.2 ms.
// docs/benchmarks.md says which index answers each.
import os from 'node:os';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase, schema, seedReferenceData, type Database } from '@connect/db';
import type {
  TAccountListStatus,
  TManagementAccountSortField,
  TManagementUserSortField,
  UserStatus,
} from '@connect/shared';
import { AccountManagementRepository } from '../apps/server/src/services/connect/account-management-repository.ts';
import { UserManagementRepository } from '../apps/server/src/services/connect/user-management-repository.ts';
import { applicationMeasures, applicationsFor, seedApplications } from './admin-applications.ts';
import { accountsFor, seed } from './admin-seed.ts';
import { leftovers } from './leftovers.ts';

const SIZES = (process.env.BENCH_ADMIN_SIZES ?? '10000,1000000').split(',').map(Number);
const REPS = Number(process.env.BENCH_ADMIN_REPS ?? 50);
const WARM_UP = 5;
const PAGE_SIZE = 5;
const DEEP_PAGE = 1_000;
/** From this many users on, a sequential scan of the lists' tables fails the run (below, the planner may rightly choose one). */
const STRICT_FROM = 1_000_000;
const SERVER_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number) => n.toLocaleString('en-GB');

type Query = { sql: string; params: unknown[] };
type Target = { label: string; ms?: number };
const PAGING: Target = { label: 'p95 ≤ 50 ms', ms: 50 };
const SELECTIVE: Target = { label: 'p95 ≤ 50 ms', ms: 50 };
const BROAD: Target = { label: 'p95 ≤ 300 ms', ms: 300 };
const NO_SCAN: Target = { label: 'no scan' };
const NONE: Target = { label: '(none)' };

type Measure = { name: string; target: Target; run: () => Promise<unknown> };
type Measured = { target: Target; p50: number; p95: number; plans: string[][]; queries: Query[] };

/** A request as the list's route takes it (page, size, sort, cursor, search); absent page 0, size 5. */
type PageRequest<F extends string> = {
  searchTerm?: string;
  page?: number;
  size?: number;
  sort?: { field: F; direction: 'asc' | 'desc' };
  cursor?: string | undefined;
};
/** What a measure needs of a page: its rows' ids (to compare two reads) and its cursor. */
type Page = { ids: string; cursor: string | undefined };
type Lister<F extends string> = (request: PageRequest<F>) => Promise<Page>;

/**
 * The server's Drizzle over node-postgres (as openDatabase builds it), with a logger that hands
 * each query's SQL and parameters to EXPLAIN when asked.
 */
function openSession(url: string) {
  let captured: Query[] | undefined;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => captured?.push({ sql, params }) },
  }) as unknown as Database;
  return {
    db,
    /** The queries one run issues. */
    async queriesOf(run: () => Promise<unknown>): Promise<Query[]> {
      captured = [];
      try {
        await run();
        return captured;
      } finally {
        captured = undefined;
      }
    },
    async explain(query: Query): Promise<string[]> {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers) ${query.sql}`,
        query.params,
      );
      return rows.map((row) => row['QUERY PLAN']);
    },
    end: () => pool.end(),
  };
}

/** Each measure warmed up, timed REPS times (p50, p95), then run once more for its queries' plans. */
async function timeMeasures(
  session: ReturnType<typeof openSession>,
  measures: Measure[],
): Promise<Map<string, Measured>> {
  const results = new Map<string, Measured>();
  for (const { name, target, run } of measures) {
    for (let i = 0; i < WARM_UP; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const start = performance.now();
      await run();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const queries = await session.queriesOf(run);
    const plans: string[][] = [];
    for (const query of queries) plans.push(await session.explain(query));
    results.set(name, {
      target,
      p50: times[Math.floor((times.length - 1) / 2)]!,
      p95: times[Math.ceil(times.length * 0.95) - 1]!,
      plans,
      queries,
    });
  }
  return results;
}

const measure = (name: string, target: Target, run: () => Promise<unknown>): Measure => ({ name, target, run });

/**
 * The first page, the next and previous page from the deep page (1,000, or half the list when
 * shorter), and the last page of a list of `total` rows (exact) — after checking that the seek to
 * the next page lands where OFFSET does, or the figures would measure the wrong rows.
 */
async function pagingMeasures<F extends string>(
  label: string,
  total: number,
  list: Lister<F>,
  suffix = '',
): Promise<{ deep: number; measures: Measure[] }> {
  const lastPage = Math.ceil(total / PAGE_SIZE) - 1;
  const deep = Math.min(DEEP_PAGE, Math.floor(lastPage / 2));
  const { cursor } = await list({ page: deep });
  console.log(`${label}: ${count(total)}, deep page ${count(deep)}, last page ${count(lastPage)}`);
  if ((await list({ page: deep + 1, cursor })).ids !== (await list({ page: deep + 1 })).ids) {
    throw new Error(`${label}: the next page after page ${deep} is not the page OFFSET reads`);
  }
  return {
    deep,
    measures: [
      measure(`first page${suffix}`, PAGING, () => list({})),
      measure(`next page from the deep page${suffix}`, PAGING, () => list({ page: deep + 1, cursor })),
      measure(`previous page from the deep page${suffix}`, PAGING, () => list({ page: deep - 1, cursor })),
      measure(`last page${suffix}`, PAGING, () => list({ page: lastPage })),
    ],
  };
}

const searchMeasure = <F extends string>(list: Lister<F>, term: string, what: string, target: Target) =>
  measure(`search "${term}" (${what})`, target, () => list({ searchTerm: term }));

const sortMeasures = <F extends string>(list: Lister<F>, fields: readonly F[], target: Target) =>
  fields.map((field) => measure(`sort ${field} asc`, target, () => list({ sort: { field, direction: 'asc' } })));

/** GET /management/users as the service runs it: the tab counts, then the page of the ACTIVE tab. */
async function userMeasures(db: Database): Promise<Measure[]> {
  const repo = new UserManagementRepository(db);
  const status: UserStatus = 'ACTIVE';
  const list: Lister<TManagementUserSortField> = async (request) => {
    const counts = await repo.statusCounts();
    const { users, paging } = await repo.list(
      { status, searchTerm: request.searchTerm },
      { page: request.page ?? 0, size: request.size ?? PAGE_SIZE, sort: request.sort, cursor: request.cursor },
      counts[status],
    );
    return { ids: users.map((user) => user.userId).join(), cursor: paging.cursor ?? undefined };
  };
  const paging = await pagingMeasures(`users, ${status} tab`, (await repo.statusCounts())[status], list);
  return [
    ...paging.measures,
    measure('first page, 100 rows', PAGING, () => list({ size: 100 })),
    measure('jump to the deep page (OFFSET)', NONE, () => list({ page: paging.deep })),
    searchMeasure(list, 'wolsten', 'rare surname', SELECTIVE),
    searchMeasure(list, 'james', 'common first name', BROAD),
    searchMeasure(list, 'capital', 'common org. word', BROAD),
    searchMeasure(list, 'ma', '2-char prefix, common', BROAD),
    searchMeasure(list, 'zo', '2-char prefix, rare', BROAD),
    searchMeasure(list, 'j', '1-char prefix', BROAD),
    ...sortMeasures(list, ['firstName', 'lastName', 'email', 'role', 'organisationName', 'statusChangedAt'], BROAD),
    measure('tab counts', NO_SCAN, () => repo.statusCounts()),
  ];
}

/**
 * GET /management/accounts as the route runs it (the repository reads the exact total itself when
 * there is no search). Issue 33 §6 asks p95 ≤ 50 ms of every measure of it.
 */
async function accountMeasures(db: Database): Promise<Measure[]> {
  const repo = new AccountManagementRepository(db);
  const lister =
    (statuses?: TAccountListStatus[]): Lister<TManagementAccountSortField> =>
    async (request) => {
      const { accountList, cursor } = await repo.list(
        { statuses, searchTerm: request.searchTerm },
        { page: request.page ?? 0, size: request.size ?? PAGE_SIZE, sort: request.sort, cursor: request.cursor },
      );
      return { ids: accountList.map((account) => account.accountId).join(), cursor: cursor ?? undefined };
    };
  const all = lister();
  const counts = await repo.statusCounts();
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return [
    ...(await pagingMeasures('accounts, all statuses', total, all)).measures,
    ...(await pagingMeasures('accounts, ACTIVE', counts.ACTIVE, lister(['ACTIVE']), ', ACTIVE')).measures,
    measure('first page, REMOVED', PAGING, () => lister(['REMOVED'])({})),
    searchMeasure(all, 'kestrel books', 'rare organisation', SELECTIVE),
    searchMeasure(all, 'wolsten', "rare owner's surname", SELECTIVE),
    searchMeasure(all, 'capital', 'common org. word', SELECTIVE),
    searchMeasure(all, 'gl', '2-char prefix of an organisation', SELECTIVE),
    searchMeasure(all, 'an', '2-char prefix of a plan', SELECTIVE),
    ...sortMeasures(all, ['organisationName', 'currentPlan', 'createdAt'], SELECTIVE),
    measure('status counts', NO_SCAN, () => repo.statusCounts()),
  ];
}

/** The lists measured, each on the same database: its name, its rows at a size, its measures. */
const LISTS = [
  { name: 'users', rowsAt: (users: number) => users, measures: userMeasures },
  { name: 'accounts', rowsAt: accountsFor, measures: accountMeasures },
  {
    name: 'applications',
    rowsAt: (users: number) => applicationsFor(accountsFor(users)),
    // Every measure of the application list: p95 ≤ 50 ms (issue 33 §6).
    measures: (db: Database) =>
      applicationMeasures<Measure>(db, {
        measure: (name, run) => measure(name, SELECTIVE, run),
        paging: async (label, total, list, suffix) => (await pagingMeasures(label, total, list, suffix)).measures,
        search: (list, term, what) => searchMeasure(list, term, what, SELECTIVE),
        sorts: (list, fields) => sortMeasures(list, fields, SELECTIVE),
        pageSize: PAGE_SIZE,
      }),
  },
];

/** The tables a list reads: a sequential scan of one fails the run at STRICT_FROM. */
const BIG_TABLES =
  '(users|user_directory|accounts|account_directory|applications|application_networks|application_directory|application_network_directory)';
const SEQ_SCAN = new RegExp(`Seq Scan on ${BIG_TABLES}\\b`);
/**
 * The one sequential scan allowed: a search's capped count (lib/staff-list.ts `buildCappedCount`)
 * for a common 1–2 character prefix, which the planner rightly reads in table order until the
 * 10,001st match (≈ 9 % of the users for "ma", 25 ms) — bounded by the LIMIT, and cheaper than the
 * prefix indexes' bitmap. Any other query's scan fails the run.
 */
const isCappedCount = (query: Query) => /\) capped\s*$/.test(query.sql);
const failsOnScan = (plan: string[], query: Query) => !isCappedCount(query) && plan.some((line) => SEQ_SCAN.test(line));
/** The indexes a plan reads, and its sequential scans. */
function accessPaths(plan: string[]): string[] {
  const paths = new Set<string>();
  for (const line of plan) {
    const index = /(?:Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\w+)/.exec(line);
    if (index) paths.add(index[1]!.replace(/^(user|account|application|application_network)_directory_/, ''));
    const seq = /Seq Scan on (\w+)/.exec(line);
    if (seq) paths.add(`seq ${seq[1]}`);
  }
  return [...paths];
}

/** Whether the measure met its target at the largest size (undefined: it has none). */
function met(result: Measured, strict: boolean): boolean | undefined {
  if (result.target.ms !== undefined) {
    const scans = result.plans.some((plan, i) => failsOnScan(plan, result.queries[i]!));
    return result.p95 <= result.target.ms && !(strict && scans);
  }
  if (result.target === NO_SCAN)
    return !result.plans.flat().some((line) => new RegExp(` on ${BIG_TABLES}\\b`).test(line));
  return undefined;
}

function printTable(list: (typeof LISTS)[number], bySize: Map<number, Map<string, Measured>>): void {
  const largest = SIZES[SIZES.length - 1]!;
  const header = [
    `${list.name} list`,
    ...SIZES.map((n) => `${count(list.rowsAt(n))} p50 / p95`),
    'target',
    `met at ${count(list.rowsAt(largest))}?`,
    'plan',
  ];
  const rows = [...bySize.get(largest)!.entries()].map(([name, last]) => {
    const cells = SIZES.map((n) => {
      const result = bySize.get(n)!.get(name);
      return result ? `${result.p50.toFixed(1)} / ${result.p95.toFixed(1)} ms` : '';
    });
    const ok = met(last, largest >= STRICT_FROM);
    return [
      name,
      ...cells,
      last.target.label,
      ok === undefined ? '' : ok ? 'yes' : 'NO',
      // The counts' read is the same in every request: shown on its own row only.
      last.plans
        .map((plan) => accessPaths(plan).join(' + '))
        .filter((paths, i, all) => all.length === 1 || !/^seq \w+_status_counts$/.test(paths))
        .join(' ; '),
    ];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}`);
  for (const row of rows) console.log(line(row));
  console.log(
    `plan: at ${count(list.rowsAt(largest))} ${list.name}, what each query reads (the search's capped count ; ` +
      `the page), ${list.name.replace(/s$/, '')}_directory_ left off of index names.`,
  );
}

const left = await leftovers();
// Stopped early (Ctrl-C): the databases go all the same.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void left.tidy().finally(() => process.exit(130)));
}

/** Per list, per size (users), per measure. */
const results = new Map<string, Map<number, Map<string, Measured>>>(LISTS.map((list) => [list.name, new Map()]));
let failed = false;
try {
  console.log(
    `bench:admin — the user, account and application lists' repositories on PostgreSQL (${os.cpus().length} cores, ` +
      `load ${load()}); page size ${PAGE_SIZE}, ${REPS} timed runs each after ${WARM_UP} to warm up`,
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
    await seedApplications(url.toString(), accountsFor(users));
    const size = `${count(users)} users, ${count(accountsFor(users))} accounts, ${count(applicationsFor(accountsFor(users)))} applications`;
    console.log(`\n${size}: seeded in ${seconds(performance.now() - seedStart)} (load ${load()})`);
    const session = openSession(url.toString());
    try {
      for (const list of LISTS) {
        results.get(list.name)!.set(users, await timeMeasures(session, await list.measures(session.db)));
      }
    } finally {
      await session.end();
    }
    console.log(`${size}: measured (load ${load()})`);
    for (const list of LISTS) {
      for (const [name, result] of results.get(list.name)!.get(users)!) {
        console.log(
          `\n--- ${list.name}: ${name} — ${size}: p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms`,
        );
        result.plans.forEach((plan, i) => {
          console.log(`  query ${i + 1}, params ${JSON.stringify(result.queries[i]!.params)}`);
          for (const line of plan) console.log(`    ${line}`);
          if (users >= STRICT_FROM && failsOnScan(plan, result.queries[i]!)) {
            console.log(`    ^ FAILED: a sequential scan of a list's table at ${count(users)} users`);
            failed = true;
          }
        });
      }
    }
    await left.tidy();
  }

  for (const list of LISTS) printTable(list, results.get(list.name)!);
  console.log(`\nLoad at the end ${load()}.`);
} finally {
  await left.tidy();
}
if (failed) {
  console.error(`\nFAILED: a sequential scan of ${BIG_TABLES} at ${count(STRICT_FROM)} users or more (plans above).`);
  process.exit(1);
}
process.exit(0);
