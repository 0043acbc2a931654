import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { cardChargesJob } from '../services/payment/card-charges-job.ts';
import { invoiceCloseJob } from '../services/payment/invoices/close-job.ts';
import { planPeriodsJob } from '../services/account-plan/periods-job.ts';
import { qntSweepJob } from '../services/payment/sweep-job.ts';
import { payoutCheckJob } from '../services/campaign/payout-check-job.ts';
import { campaignStatusJob } from '../services/campaign/campaign-status-job.ts';
import { tokenDeployJob } from '../services/tokenise/deploy-job.ts';
import type { DeploymentOutcome, TokeniseRuntime } from '../services/tokenise/index.ts';
import { usageCloseJob } from '../services/usage/close-job.ts';
import type { Deps } from '../types.ts';
import { chainFollowJob } from './chain-follow.ts';
import { feeBumpJob } from './fee-bump.ts';
import { pendingUsersPurgeJob } from '../services/connect/pending-users-purge-job.ts';
import { JOBS, registerJobs } from './index.ts';
import { DELIVERED_EVENTS_KEPT_DAYS, outboxPruneJob } from './outbox-prune.ts';
import type { JobQueue } from './queue.ts';
import { deploySweepJob } from '../services/tokenise/deploy-sweep-job.ts';

/** Whether pg-boss installed its schema in the app's database (the queue started). */
async function hasQueueSchema(t: TestContext): Promise<boolean> {
  const { rows } = await t.db.execute(`select to_regclass('pgboss.job') is not null as present`);
  return rows[0]!.present === true;
}

/** Deps whose tokenise face answers `outcome` for every deployment attempt (and records them). */
function tokeniseFace(outcome: DeploymentOutcome, attempts: string[] = []): Deps {
  const tokenise: TokeniseRuntime = {
    deploys: true,
    deployJobAttempt: async (tokenId) => {
      attempts.push(tokenId);
      return outcome;
    },
    seedTiers: async () => undefined,
    reconcileWithChains: async () => undefined,
    resumeDeployments: async () => 0,
    sweep: async () => 0,
  };
  return { runtime: { tokenise } } as unknown as Deps;
}

describe('the job registry', () => {
  it('names every job once', () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([tokenDeployJob.name, feeBumpJob.name]));
  });

  it('registers only the jobs this node has work for', () => {
    const registered: string[] = [];
    const queue = { register: (name: string) => void registered.push(name) } as never;
    expect(registerJobs(queue, { runtime: {} } as unknown as Deps, [tokenDeployJob])).toEqual([]);
    expect(registerJobs(queue, tokeniseFace('done'), [tokenDeployJob])).toEqual(['token-deploy']);
    expect(registered).toEqual(['token-deploy']);
  });

  it('token-deploy: an attempt of the tokenise service; a deployment still waiting is retried (the job throws)', async () => {
    const attempts: string[] = [];
    const done = tokenDeployJob.worker(tokeniseFace('done', attempts))!;
    await expect(done({ tokenId: 'token-1' }, { id: 'job-1', retryCount: 0 })).resolves.toBeUndefined();
    const waiting = tokenDeployJob.worker(tokeniseFace('waiting', attempts))!;
    await expect(waiting({ tokenId: 'token-2' }, { id: 'job-2', retryCount: 0 })).rejects.toThrow(
      /token-2: still waiting/,
    );
    expect(attempts).toEqual(['token-1', 'token-2']);
  });

  it('fee-bump: bumps the stuck transactions of the sender, only on a node that reaches a chain', async () => {
    let rounds = 0;
    const sender = {
      bumpStuck: async () => {
        rounds++;
        return [];
      },
    };
    const deps = (rpcUrl: string | undefined) =>
      ({ config: { chains: { networks: [{ code: 'ethereum-testnet', rpcUrl }] } }, sender }) as unknown as Deps;
    expect(feeBumpJob.worker(deps(undefined))).toBeUndefined();
    const handler = feeBumpJob.worker(deps('http://127.0.0.1:8545'))!;
    await handler({}, { id: 'job-1', retryCount: 0 });
    expect(rounds).toBe(1);
    expect(feeBumpJob.options).toMatchObject({ schedule: '* * * * *', policy: 'stately' });
  });

  it('housekeeping rides along: outbox-prune registers only beside a job with work', () => {
    const names: string[] = [];
    const queue = { register: (name: string) => names.push(name) } as unknown as JobQueue;
    expect(registerJobs(queue, { runtime: {}, events: {} } as unknown as Deps, [outboxPruneJob])).toEqual([]);
    expect(registerJobs(queue, tokeniseFace('done'), [outboxPruneJob, tokenDeployJob])).toEqual([
      'token-deploy',
      'outbox-prune',
    ]);
    expect(names).toEqual(['token-deploy', 'outbox-prune']);
  });

  it('outbox-prune: deletes the delivered events older than a week, nightly', async () => {
    const asked: number[] = [];
    const deps = { events: { prune: async (days: number) => asked.push(days) } } as unknown as Deps;
    await outboxPruneJob.worker(deps)!({}, { id: 'job-1', retryCount: 0 });
    expect(asked).toEqual([DELIVERED_EVENTS_KEPT_DAYS]);
    expect(outboxPruneJob.options).toMatchObject({ schedule: '17 3 * * *', policy: 'stately' });
  });
});

describe('jobs in an app without chains', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('registers only the job on demand (the KYC sandbox’s), without housekeeping, and never installs the queue', async () => {
    expect(t.app.deps.jobs.names).toEqual(['kyc-settle']);
    expect(t.app.deps.jobs.hasWorkers).toBe(false);
    expect(await hasQueueSchema(t)).toBe(false);
  });
});

describe('jobs in an app whose network has an RPC URL', () => {
  let t: TestContext;
  beforeAll(async () => {
    // Nothing listens there: the app is built and started all the same (the start-up's chain
    // checks log that the chain cannot be reached).
    t = await createTestApp({
      NETWORK_RPC_ETHEREUM_TESTNET: 'http://127.0.0.1:9',
      NETWORK_CHAIN_ID_ETHEREUM_TESTNET: '31337',
    });
  }, 60_000);
  afterAll(() => t?.close());

  it('registers each of its jobs once, starts the queue and schedules the recurring ones', async () => {
    // chain-follow only where a service added a follower (none here); qnt-sweep only where QNT is
    // taken; the reward payouts' check only where claims are paid (QNT, and a treasury).
    expect(t.app.deps.followers.list()).toEqual([]);
    expect(t.app.deps.runtime.payment?.sweeps).toBe(false);
    expect(t.app.deps.runtime.rewards?.payouts.isAvailable).toBe(false);
    expect(t.app.deps.jobs.names).toEqual(
      JOBS.filter((job) => job !== chainFollowJob && job !== qntSweepJob && job !== payoutCheckJob).map(
        (job) => job.name,
      ),
    );
    expect(await hasQueueSchema(t)).toBe(true);
    const { rows } = await t.db.execute(`select name, cron from pgboss.schedule`);
    expect(rows).toEqual(
      expect.arrayContaining([
        { name: feeBumpJob.name, cron: '* * * * *' },
        { name: outboxPruneJob.name, cron: '17 3 * * *' },
        { name: planPeriodsJob.name, cron: '7 * * * *' },
        // Cards are taken (the embedded sandbox): the monthly charges.
        { name: cardChargesJob.name, cron: '*/5 * * * *' },
        // The gateway's closed hours charged (housekeeping beside the jobs with work).
        { name: usageCloseJob.name, cron: '*/5 * * * *' },
        // The month that ended last closed into invoices (drafts, then numbered after the grace window).
        { name: invoiceCloseJob.name, cron: '17 * * * *' },
        // Deployments accepted over a minute ago get their durable job queued again.
        { name: deploySweepJob.name, cron: '* * * * *' },
        // Invited users still pending after 90 days are purged (issue 32).
        { name: pendingUsersPurgeJob.name, cron: '41 3 * * *' },
        // Published campaigns start and running ones complete on their dates (issue 34).
        { name: campaignStatusJob.name, cron: '* * * * *' },
      ]),
    );
    expect(rows).toHaveLength(9);
  });

  it("token-deploy's handler reaches the tokenise service (a token that does not exist is done)", async () => {
    const handler = tokenDeployJob.worker(t.app.deps)!;
    await expect(handler({ tokenId: randomUUID() }, { id: 'job-1', retryCount: 0 })).resolves.toBeUndefined();
  });
});
