// bench:admin's seed (bench/admin.ts says what it makes and why): set-based SQL, the triggers off
// while it inserts, the projections then filled by the migrations' own refresh functions.
import pg from 'pg';
import type { PlanStatus } from '@connect/shared';

const USERS_PER_ACCOUNT = 4;
/** Rows the projections are filled by per statement: keeps each statement's memory small. */
const REFRESH_BATCH = 50_000;

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
/**
 * Distinct organisation names (head × trade × form), drawn with a skew towards the first: name i
 * is drawn with a probability ∝ 1/√i, so "Kestrel Books" (i = 3,990) names about 30 accounts in
 * 250,000, "Capital" (i < 50) about one in nine.
 */
const ORGANISATIONS = 4_000;
/** Accounts closed by staff (every user REMOVED): the REMOVED status filter's rows. */
const CLOSED_ACCOUNTS = 0.03;

/**
 * The plan of an account past its 30-day trial (an account younger is on the trial, ACTIVE), drawn
 * with these shares from the seeded catalogue (`rate_plans.code`; 'trial' is migration 0009's).
 * `dates`: trial — the trial's end; month, year — a paid period ending within a month or a year;
 * due — a period ended in the last 7 days (its renewal waits for payment); ended — a paid period
 * that ended since it started.
 */
type PlanFate = {
  share: number;
  code: string;
  status: PlanStatus;
  reason: string | null;
  dates: 'trial' | 'month' | 'year' | 'due' | 'ended';
};
const PLAN_FATES: PlanFate[] = [
  { share: 0.36, code: 'trial', status: 'INACTIVE', reason: 'TRIAL_ENDED', dates: 'trial' },
  { share: 0.02, code: 'trial', status: 'PENDING', reason: 'AWAITING_PAYMENT', dates: 'trial' },
  { share: 0.16, code: 'payg-standard', status: 'ACTIVE', reason: null, dates: 'month' },
  { share: 0.08, code: 'payg-advance', status: 'ACTIVE', reason: null, dates: 'month' },
  { share: 0.2, code: 'annual-standard', status: 'ACTIVE', reason: null, dates: 'year' },
  { share: 0.09, code: 'annual-advance', status: 'ACTIVE', reason: null, dates: 'year' },
  { share: 0.02, code: 'annual-standard', status: 'ACTIVE', reason: 'RENEWAL_DUE', dates: 'due' },
  { share: 0.04, code: 'annual-standard', status: 'INACTIVE', reason: 'RENEWAL_FAILED', dates: 'ended' },
  { share: 0.02, code: 'annual-advance', status: 'INACTIVE', reason: 'CANCELLED', dates: 'ended' },
  { share: 0.01, code: 'payg-standard', status: 'DISABLED', reason: 'STAFF', dates: 'month' },
];

export const accountsFor = (users: number) => Math.ceil(users / USERS_PER_ACCOUNT);

export async function seed(url: string, users: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (text: string, params: unknown[] = []) => client.query(text, params);
  const TRIGGERED = ['users', 'accounts', 'account_plans', 'account_directory'];
  try {
    await q(`set maintenance_work_mem = '256MB'`);
    await q('select setseed(0.32)');
    for (const table of TRIGGERED) await q(`alter table ${table} disable trigger user`);
    const accounts = accountsFor(users);
    await q(
      `create temporary table bench_accounts as
      select n, gen_random_uuid() as id, random() as r_org, random() as r_none from generate_series(0, $1::int - 1) n`,
      [accounts],
    );
    await q(
      `create temporary table bench_people as
      select n, gen_random_uuid() as id, random() as r_first, random() as r_last, random() as r_status,
        random() as r_role, random() as r_time, random() as r_other
      from generate_series(0, $1::int - 1) n`,
      [users],
    );
    // Drawn after the people, so the people's draws are the same as without it.
    await q(
      `create temporary table bench_account_states as
      select a.*, now() - random() * interval '730 days' as created_at, random() < $1 as closed,
        random() as r_plan, random() as r_start, random() as r_end
      from bench_accounts a`,
      [CLOSED_ACCOUNTS],
    );
    await q(
      `insert into accounts (id, organisation_name, status, created_at)
      select a.id, case when a.r_none < 0.05 then null
          else ($2::text[])[1 + o.i % cardinality($2::text[])] || ' '
            || ($3::text[])[1 + (o.i / cardinality($2::text[])) % cardinality($3::text[])] || ' '
            || ($4::text[])[1 + o.i * 7 % cardinality($4::text[])] end,
        case when a.closed then 'REMOVED' else 'ACTIVE' end, a.created_at
      from bench_account_states a, lateral (select floor($1::int * a.r_org ^ 2)::int as i) o`,
      [ORGANISATIONS, ORG_HEADS, ORG_TRADES, ORG_FORMS],
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
        case when st.status <> 'PENDING' then greatest(st.changed_at, now() - p.r_other * interval '30 days') end,
        st.changed_at
      from bench_people p
      join bench_account_states a on a.n = p.n % $1::int
      cross join lateral (select
        case when a.closed or p.r_status >= 0.97 then 'REMOVED' when p.r_status < 0.90 then 'ACTIVE'
          else 'PENDING' end as status,
        -- The account's first user (its owner) signs up with it, the others join since.
        case when p.n < $1::int then a.created_at
          else a.created_at + p.r_time * (now() - a.created_at) end as changed_at) st
      cross join lateral (select
        ($2::text[])[1 + floor(cardinality($2::text[]) * p.r_first ^ 1.5)::int] as first_name,
        case when p.n % 5000 = 1 then 'Wolstenholme'
          when p.r_last < 0.85 then ($3::text[])[1 + floor(cardinality($3::text[]) * (p.r_last / 0.85) ^ 1.5)::int]
          else ($4::text[])[1 + floor((p.r_last - 0.85) / 0.15 * 20)::int]
            || ($5::text[])[1 + floor((p.r_last - 0.85) / 0.15 * 400)::int % 20] end as last_name) nm`,
      [accounts, FIRST_NAMES, LAST_NAMES, RARE_HEADS.split(' '), RARE_TAILS.split(' ')],
    );
    // Each fate covers [lo, hi) of r_plan; an account within its trial draws −1, the trial's.
    let lo = 0;
    const fates: (Omit<PlanFate, 'share'> & { lo: number; hi: number })[] = [
      { code: 'trial', status: 'ACTIVE', reason: 'TRIAL', dates: 'trial', lo: -1, hi: 0 },
    ];
    for (const [i, { share, ...fate }] of PLAN_FATES.entries()) {
      const hi = i === PLAN_FATES.length - 1 ? 2 : lo + share;
      fates.push({ ...fate, lo, hi });
      lo = hi;
    }
    const plans = await q(
      `insert into account_plans (account_id, rate_plan_id, status, status_reason, status_before_pending,
        started_at, period_end, trial_ends_at, last_payment_method)
      select a.id, rp.id, f.status, f.reason, case when f.status = 'PENDING' then 'INACTIVE' end,
        case when f.dates = 'trial' then a.created_at else d.paid_from end,
        case f.dates when 'month' then now() + a.r_end * interval '1 month'
          when 'year' then now() + a.r_end * interval '1 year'
          when 'due' then now() - a.r_end * interval '7 days'
          when 'ended' then d.paid_from + a.r_end * (now() - d.paid_from) end,
        a.created_at + interval '30 days',
        case when f.dates <> 'trial' then (array['FIAT', 'QNT', 'BANK_TRANSFER'])[1 + floor(a.r_end * 3)::int] end
      from bench_account_states a
      cross join lateral (select
        case when a.created_at > now() - interval '30 days' then -1 else a.r_plan end as draw,
        a.created_at + interval '30 days' + a.r_start * (now() - a.created_at - interval '30 days') as paid_from) d
      join jsonb_to_recordset($1::jsonb) as f(code text, status text, reason text, dates text, lo float8, hi float8)
        on d.draw >= f.lo and d.draw < f.hi
      join rate_plans rp on rp.code = f.code`,
      [JSON.stringify(fates)],
    );
    if (plans.rowCount !== accounts) throw new Error(`${plans.rowCount} account plans for ${accounts} accounts`);
    // The projections from the migrations' own functions, so their definitions stay written once.
    for (const [refresh, source, rows] of [
      ['user_directory_refresh', 'bench_people', users],
      ['account_directory_refresh', 'bench_accounts', accounts],
    ] as const) {
      for (let from = 0; from < rows; from += REFRESH_BATCH) {
        await q(`select ${refresh}(array(select id from ${source} where n >= $1::int and n < $2::int))`, [
          from,
          from + REFRESH_BATCH,
        ]);
      }
    }
    await q(`update user_status_counts c set count = (select count(*) from users u where u.status = c.status)`);
    await q(
      `update account_status_counts c set count = (select count(*) from account_directory d where d.status = c.status)`,
    );
    for (const table of TRIGGERED) await q(`alter table ${table} enable trigger user`);
    // As autovacuum leaves a table at rest: statistics for the planner, the visibility map for
    // index-only scans.
    await q(
      `vacuum (analyze) accounts, users, account_plans, user_directory, user_status_counts, account_directory,
        account_status_counts`,
    );
  } finally {
    await client.end();
  }
}
