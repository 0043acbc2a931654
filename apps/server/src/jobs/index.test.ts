import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import type { DeploymentOutcome, TokeniseRuntime } from '../services/tokenise/index.ts';
import type { Deps } from '../types.ts';
import { JOBS, registerJobs } from './index.ts';
import { tokenDeployJob } from './token-deploy.ts';

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
  };
  return { runtime: { tokenise } } as unknown as Deps;
}

describe('the job registry', () => {
  it('names every job once', () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain(tokenDeployJob.name);
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
});

describe('jobs in an app without chains', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('registers no job and never installs the queue', async () => {
    expect(t.app.deps.jobs.names).toEqual([]);
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

  it('registers each of its jobs once and starts the queue', async () => {
    const names = t.app.deps.jobs.names;
    expect(names).toContain('token-deploy');
    expect(new Set(names).size).toBe(names.length);
    expect(await hasQueueSchema(t)).toBe(true);
  });

  it("token-deploy's handler reaches the tokenise service (a token that does not exist is done)", async () => {
    const handler = tokenDeployJob.worker(t.app.deps)!;
    await expect(handler({ tokenId: randomUUID() }, { id: 'job-1', retryCount: 0 })).resolves.toBeUndefined();
  });
});
