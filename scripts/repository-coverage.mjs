// The server suite runs in full once (CI: on PostgreSQL); the other database (PGlite) runs the
// database-layer selection below. Both passes record which functions of the repository files ran
// (v8 coverage limited to them), and `check` fails when a repository function the full pass ran is
// not run by the selection: every repository stays exercised on both databases.
//
//   node scripts/repository-coverage.mjs full <dir>       the server suite, coverage into <dir>
//   node scripts/repository-coverage.mjs selection <dir> [vitest options]  the database-layer selection
//   node scripts/repository-coverage.mjs check <full dir> <selection dir>
//
// The database is the environment's: DATABASE_URL set means PostgreSQL, unset or empty PGlite.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository files: every file that reads or writes tables for a service, an adapter, the bus or a read model. */
export const REPOSITORY_FILES = [
  'apps/server/src/**/repository.ts',
  'apps/server/src/**/*-repository.ts',
  'apps/server/src/**/repository-*.ts',
  'apps/server/src/repositories/**/*.ts',
  'apps/server/src/read-models/**/*.ts',
];

/**
 * The database-layer selection: the server test files that together run every repository function
 * the full suite runs (`check` proves it on each CI run), chosen from per-file coverage of a full
 * run (a greedy cover, cheapest files first, with the files that reach the functions issue 29 added). A new
 * repository function only the rest of the suite reaches makes `check` fail and name it: add the
 * test file that covers it here.
 */
export const SELECTION = [
  // packages/db: the tests that take the environment's database (the rest test PGlite itself and
  // run in the full pass too)
  'packages/db/src/testing.test.ts',
  'packages/db/src/migration-',
  'packages/db/src/seed-plans.test.ts',
  'apps/server/src/adapters/cards/stripe-contract.test.ts',
  'apps/server/src/adapters/chains/chains.test.ts',
  'apps/server/src/adapters/chains/follower/follower.test.ts',
  'apps/server/src/adapters/identity-admin/embedded.test.ts',
  'apps/server/src/adapters/mail/outbox-mailer.test.ts',
  'apps/server/src/events/bus.test.ts',
  'apps/server/src/plugins/auth-sign-up.test.ts',
  'apps/server/src/plugins/input-guard.test.ts',
  'apps/server/src/repositories/ledger.test.ts',
  'apps/server/src/repositories/staff-alerts.test.ts',
  'apps/server/src/services/account-plan/order-list.test.ts',
  'apps/server/src/services/account-plan/terms.test.ts',
  'apps/server/src/services/account-plan/tiers.test.ts',
  'apps/server/src/services/application-manager/applications.test.ts',
  'apps/server/src/services/application-manager/management.test.ts',
  'apps/server/src/services/campaign/activities.test.ts',
  'apps/server/src/services/campaign/campaign-publish.test.ts',
  'apps/server/src/services/campaign/campaign-status-job.test.ts',
  'apps/server/src/services/campaign/campaign-tasks.test.ts',
  'apps/server/src/services/campaign/campaigns.test.ts',
  'apps/server/src/services/campaign/claims.test.ts',
  'apps/server/src/services/campaign/optins.test.ts',
  'apps/server/src/services/campaign/payouts.test.ts',
  'apps/server/src/services/connect/account-detail.test.ts',
  'apps/server/src/services/connect/account-management.test.ts',
  'apps/server/src/services/connect/billing-details.test.ts',
  'apps/server/src/services/connect/getting-started.test.ts',
  'apps/server/src/services/connect/kyc-routes.test.ts',
  'apps/server/src/services/connect/organisations.test.ts',
  'apps/server/src/services/connect/user-management.test.ts',
  'apps/server/src/services/entitlements/beta-management.test.ts',
  'apps/server/src/services/entitlements/entitlements.test.ts',
  'apps/server/src/services/gateway/gateway.test.ts',
  'apps/server/src/services/identity/codes.test.ts',
  'apps/server/src/services/identity/mfa.test.ts',
  'apps/server/src/services/identity/sessions.test.ts',
  'apps/server/src/services/integrate/networks.test.ts',
  'apps/server/src/services/integrate/private-networks.test.ts',
  'apps/server/src/services/integrate/reviews.test.ts',
  'apps/server/src/services/payment/bank-refunds.test.ts',
  'apps/server/src/services/payment/card-hardening.test.ts',
  'apps/server/src/services/payment/card-payments.test.ts',
  'apps/server/src/services/payment/invoices/close.test.ts',
  'apps/server/src/services/payment/invoices/pay-qnt.test.ts',
  'apps/server/src/services/payment/qnt-payments.test.ts',
  'apps/server/src/services/payment/qnt-reversal.test.ts',
  'apps/server/src/services/payment/sweep.test.ts',
  'apps/server/src/services/tokenise/chain-recovery.test.ts',
  'apps/server/src/services/tokenise/fee-bump.test.ts',
  'apps/server/src/services/tokenise/settlement.test.ts',
  'apps/server/src/services/tokenise/signing-ahead.test.ts',
  'apps/server/src/services/tokenise/token-changes.test.ts',
  'apps/server/src/services/tokenise/wallet-deployment.test.ts',
  'apps/server/src/services/usage/report.test.ts',
  'apps/server/test/numbers-on-the-wire.test.ts',
  'apps/server/test/openapi-document.test.ts',
];

/**
 * Repository functions only PostgreSQL can run, by design: the selection on PGlite cannot reach them
 * and `check` does not ask it to. Each says why.
 */
const POSTGRES_ONLY = {
  // The health monitor's advisory lock; on PGlite one process owns the database and an in-process
  // guard stands in (adapters/chains/monitor.ts).
  'apps/server/src/repositories/network-catalogue.ts': ['tryLockHealthCheck', 'lockKey'],
};

const VITEST = ['vitest', 'run', '--project', 'server', '--project', 'db'];
// The full pass is the whole of `npm run test:server`: the chain packages' tests touch no database.
const FULL = [...VITEST, '--project', 'devchain', '--project', 'contracts'];

function coverageArgs(dir) {
  return [
    '--coverage.enabled',
    '--coverage.provider=v8',
    ...REPOSITORY_FILES.map((glob) => `--coverage.include=${glob}`),
    '--coverage.exclude=**/*.test.ts',
    '--coverage.reporter=json',
    '--coverage.reporter=text-summary',
    `--coverage.reportsDirectory=${dir}`,
  ];
}

function run(args) {
  const result = spawnSync('npx', args, { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

/** `file#name@line` of every function the coverage run saw, with whether it ran. */
function functionsOf(dir) {
  const file = path.join(dir, 'coverage-final.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run the coverage pass first`);
  const coverage = JSON.parse(readFileSync(file, 'utf8'));
  const functions = new Map();
  for (const [absolute, { fnMap, f }] of Object.entries(coverage)) {
    const relative = path.relative(process.cwd(), absolute);
    const lines = readFileSync(absolute, 'utf8').split('\n');
    for (const [id, { name, decl }] of Object.entries(fnMap)) {
      // An arrow function kept in a constant is "(anonymous_N)" to the coverage: name it by its constant.
      const constant = name.startsWith('(anonymous')
        ? /(?:const|let)\s+(\w+)\s*=/.exec(lines[decl.start.line - 1] ?? '')?.[1]
        : undefined;
      functions.set(`${relative}#${constant ?? name}@${decl.start.line}`, f[id] > 0);
    }
  }
  return functions;
}

function check(fullDir, selectionDir) {
  const full = functionsOf(fullDir);
  const selection = functionsOf(selectionDir);
  const ranInFull = [...full].filter(([, ran]) => ran).map(([key]) => key);
  const isPostgresOnly = (key) => {
    const [file, rest] = key.split('#');
    return (POSTGRES_ONLY[file] ?? []).includes(rest.slice(0, rest.lastIndexOf('@')));
  };
  const missing = ranInFull.filter((key) => !selection.get(key) && !isPostgresOnly(key));
  const files = new Set([...full.keys()].map((key) => key.split('#')[0]));
  const neverRun = [...full].filter(([, ran]) => !ran).map(([key]) => key);
  console.log(
    `Repository functions: ${full.size} in ${files.size} files; ${ranInFull.length} run by the full pass, ` +
      `${ranInFull.length - missing.length} of them by the database-layer selection too.`,
  );
  if (neverRun.length > 0) {
    console.log(`Run by neither pass (no test reaches them):\n  ${neverRun.join('\n  ')}`);
  }
  if (missing.length > 0) {
    console.error(
      `These repository functions run in the full pass but not in the database-layer selection, so one ` +
        `database never runs them; add a test file that runs them to SELECTION in scripts/repository-coverage.mjs:\n  ` +
        missing.join('\n  '),
    );
    process.exit(1);
  }
  console.log('Every repository function the full pass runs also runs in the selection: both databases run them.');
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'full' && rest.length === 1) run([...FULL, ...coverageArgs(rest[0])]);
else if (command === 'selection' && rest.length >= 1)
  run([...VITEST, ...coverageArgs(rest[0]), ...rest.slice(1), ...SELECTION]);
else if (command === 'check' && rest.length === 2) check(rest[0], rest[1]);
else {
  console.error(
    'usage: repository-coverage.mjs full <dir> | selection <dir> [vitest options] | check <full dir> <selection dir>',
  );
  process.exit(2);
}
