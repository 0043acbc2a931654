// `npm run bench:billing` — not a test. The month's close (issue 18 §1, §6) on PostgreSQL: a UTC
// month of pay-as-you-go use closed into invoices for 1,000 and for 10,000 accounts, each on a
// fresh database of its own (cloned from the migrated template, as the server tests do), seeded
// set-based with generate_series: per account 100 usage records (25 billed hours × 4 methods:
// read, read, log, send), the hourly `usage:` ledger entries that charge them, the trial credits;
// one account in ten holds enough credits that its month bills nothing (its draft is deleted at
// finalisation, never numbered). 10,000 accounts are 1,000,000 usage records.
// Timed: the draft (now = the period end), the finalisation (now = end + the grace window:
// recomputed, numbered, priced in QNT, USAGE orders, plans RENEWAL_DUE, events), and a re-run
// (nothing to do). Prints seconds and ms per account for both sizes, so the growth shows. Target:
// ≤ 60 s for 10,000 accounts. The app's event dispatch is stopped while timing (the mails of
// 10,000 invoices are not the close's work).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:billing
//
// Figures, 2026-11-26, 2 shared cores, load 6–8 (other helpers' runs alongside), PostgreSQL 15 local:
//   1,000 accounts, 100,000 records:      draft 2.18 s, finalise 3.59 s, re-run 0.01 s — 5.76 s (5.76 ms/account)
//   10,000 accounts, 1,000,000 records:   draft 12.43 s, finalise 18.68 s, re-run 0.01 s — 31.10 s (3.11 ms/account)
//   Target ≤ 60 s for 10,000 met; per account the larger run is cheaper (× 0.54: fixed costs spread).
//   Before 3e0109b (the finalisation read the figures and customers again; events bound row by
//   row): 10,000 accounts 46–89 s depending on the load.
import type { App } from '../apps/server/src/types.ts';
import { createTestApp, type TestContext } from '../apps/server/test/helpers.ts';
import { leftovers } from './leftovers.ts';

if (!process.env.DATABASE_URL) {
  console.error(
    'bench:billing runs on PostgreSQL only: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).',
  );
  process.exit(1);
}

const SIZES = (process.env.BENCH_ACCOUNTS ?? '1000,10000').split(',').map(Number);
const HOURS = 25;
const METHODS: [string, string][] = [
  ['eth_call', 'read'],
  ['eth_blockNumber', 'read'],
  ['eth_getLogs', 'log'],
  ['eth_sendRawTransaction', 'send'],
];
/** Micro-credits of each record: 2 credits, so 8 an hour and 200 a month for each account. */
const MICRO_PER_RECORD = 2_000_000;
const PERIOD_START = new Date('2027-01-01T00:00:00.000Z');
const PERIOD_END = new Date('2027-02-01T00:00:00.000Z');

const seconds = (ms: number) => `${(ms / 1000).toFixed(2).padStart(7)} s`;
const perAccount = (ms: number, accounts: number) => `${(ms / accounts).toFixed(3)} ms/account`;

async function seed(t: TestContext, accounts: number): Promise<void> {
  const q = (text: string, params: unknown[] = []) => t.db.query(text, params);
  const methods = JSON.stringify(METHODS);
  await q(
    `create temporary table bench_accounts as
    select n, gen_random_uuid() as id from generate_series(1, $1::int) as n`,
    [accounts],
  );
  await q(`insert into accounts (id, organisation_name) select id, 'Bench ' || n from bench_accounts`);
  await q(`insert into users (id, account_id, email, role, first_name, last_name)
    select gen_random_uuid(), id, 'bench-' || n || '@example.com', 'SME', 'Bench', 'Owner ' || n from bench_accounts`);
  await q(
    `insert into account_plans (account_id, rate_plan_id, status, started_at, period_end, last_payment_method)
    select a.id, rp.id, 'ACTIVE', $1::timestamptz, $2::timestamptz, 'BANK_TRANSFER'
    from bench_accounts a, rate_plans rp where rp.code = 'payg-standard'`,
    [new Date('2026-12-15T00:00:00.000Z').toISOString(), new Date('2027-02-15T00:00:00.000Z').toISOString()],
  );
  await q(
    `insert into usage_records (id, account_id, source, application_id, network_id, method, method_class, hour,
      billed_hour, calls, micro_credits)
    select 'bench:' || a.id || ':' || m.ord || ':' || h, a.id, 'GATEWAY', null, null, m.method, m.class,
      $1::timestamptz + (h * 25 + (a.n % 20)) * interval '1 hour', $1::timestamptz + (h * 25 + (a.n % 20)) * interval '1 hour',
      1000, $2::bigint
    from bench_accounts a, generate_series(0, $3::int - 1) as h,
      (select ord, value->>0 as method, value->>1 as class from jsonb_array_elements($4::jsonb) with ordinality as e(value, ord)) m`,
    [PERIOD_START.toISOString(), MICRO_PER_RECORD, HOURS, methods],
  );
  // The ledger as the usage close and the trial leave it: trial credits, then one consumption per
  // billed hour (`usage:<account>:<hour ISO>`), the running balance kept on each entry.
  const perHour = (METHODS.length * MICRO_PER_RECORD) / 1_000_000;
  await q(
    `insert into ledger_entries (account_id, asset, kind, amount, balance_after, reason, reference, created_at)
    select id, 'CREDIT', 'grant', case when n % 10 = 0 then 1000 else 100 end,
      case when n % 10 = 0 then 1000 else 100 end, 'Trial credits', 'trial:' || id, $1::timestamptz
    from bench_accounts`,
    [new Date('2026-12-15T00:00:00.000Z').toISOString()],
  );
  await q(
    `insert into ledger_entries (account_id, asset, kind, amount, balance_after, reason, reference, created_at)
    select a.id, 'CREDIT', 'consume', -$1::int,
      case when a.n % 10 = 0 then 1000 else 100 end - $1::int * (h + 1), 'Gateway calls',
      'usage:' || a.id || ':' || to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), t + interval '6 minutes'
    from bench_accounts a, generate_series(0, $2::int - 1) as h,
      lateral (select $3::timestamptz + (h * 25 + (a.n % 20)) * interval '1 hour' as t) hour`,
    [perHour, HOURS, PERIOD_START.toISOString()],
  );
  await q(
    `insert into ledger_balances (account_id, asset, balance, floor)
    select id, 'CREDIT', case when n % 10 = 0 then 1000 else 100 end - $1::int * $2::int, -1000 from bench_accounts`,
    [perHour, HOURS],
  );
  await q(
    `insert into app_settings (key, value) values ('usage.closed_until', $1)
    on conflict (key) do update set value = excluded.value`,
    [PERIOD_END.toISOString()],
  );
  await q('analyze');
}

async function run(accounts: number) {
  const t = await createTestApp();
  left.app(t);
  try {
    await (t.app as App & { events: { stop(): Promise<void> } }).events.stop();
    const seedStart = performance.now();
    await seed(t, accounts);
    const records = Number((await t.db.query('select count(*) as n from usage_records')).rows[0]!.n);
    const seeded = performance.now() - seedStart;
    const close = t.app.deps.runtime.invoices!;
    const grace = t.app.deps.config.invoices.graceHours * 3_600_000;

    const time = async (input: Parameters<typeof close.closePeriod>[0]) => {
      const start = performance.now();
      const result = await close.closePeriod(input);
      return { ms: performance.now() - start, result };
    };
    const draft = await time({ periodEnd: PERIOD_END, now: PERIOD_END });
    const finalise = await time({ periodEnd: PERIOD_END, now: new Date(PERIOD_END.getTime() + grace) });
    const rerun = await time({ periodEnd: PERIOD_END, now: new Date(PERIOD_END.getTime() + grace + 3_600_000) });
    const numbered = (
      await t.db.query(
        `select count(*) as n, min(number_seq) as lo, max(number_seq) as hi from invoices where kind = 'MONTHLY' and status = 'OPEN'`,
      )
    ).rows[0] as { n: string; lo: string; hi: string };
    const total = draft.ms + finalise.ms;
    console.log(
      `\n${accounts.toLocaleString('en-GB')} accounts, ${records.toLocaleString('en-GB')} usage records (seeded in ${seconds(seeded)})`,
    );
    console.log(
      `  draft      ${seconds(draft.ms)}  ${perAccount(draft.ms, accounts)}  (${draft.result.drafted} drafts)`,
    );
    console.log(
      `  finalise   ${seconds(finalise.ms)}  ${perAccount(finalise.ms, accounts)}  (${finalise.result.finalised} numbered ${numbered.lo}–${numbered.hi}, ${numbered.n} open)`,
    );
    console.log(
      `  re-run     ${seconds(rerun.ms)}  (drafted ${rerun.result.drafted}, finalised ${rerun.result.finalised})`,
    );
    console.log(`  close      ${seconds(total)}  ${perAccount(total, accounts)}  (target ≤ 60 s for 10,000)`);
    return { accounts, total };
  } finally {
    await t.close();
  }
}

// The databases it clones are dropped as each run closes; the template, when this run built it, here.
const left = await leftovers();
const results = [];
try {
  for (const size of SIZES) results.push(await run(size));
} finally {
  await left.tidy();
}
if (results.length > 1) {
  const [small, large] = [results[0]!, results[results.length - 1]!];
  const growth = large.total / large.accounts / (small.total / small.accounts);
  console.log(`\nper-account time, ${large.accounts} vs ${small.accounts}: × ${growth.toFixed(2)}`);
}
process.exit(0);
