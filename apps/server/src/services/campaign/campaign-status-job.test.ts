import { asc, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, rewardCampaigns, type CampaignStatus } from '@connect/db';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { registerJobs } from '../../jobs/index.ts';
import { outboxPruneJob } from '../../jobs/outbox-prune.ts';
import type { Deps } from '../../types.ts';
import { tokenDeployJob } from '../tokenise/deploy-job.ts';
import { campaignStatusJob } from './campaign-status-job.ts';
import { moveCampaignStatuses, utcDay } from './campaigns.ts';

const DAY_MS = 86_400_000;

describe('campaign status job (issue 34 §1): published campaigns start and end by their dates', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** A campaign in `status` from `start` to `end` (UTC days), straight in its table. */
  const insert = async (status: CampaignStatus, start: string, end: string) => {
    const [row] = await t.db.db
      .insert(rewardCampaigns)
      .values({
        name: `${status} ${start}`,
        visibleName: 'Job',
        startDate: start,
        endDate: end,
        participants: 5,
        status,
      })
      .returning();
    return row!.id;
  };
  const statuses = async (ids: string[]) => {
    const rows = await t.db.db
      .select({ id: rewardCampaigns.id, status: rewardCampaigns.status })
      .from(rewardCampaigns)
      .where(inArray(rewardCampaigns.id, ids));
    return ids.map((id) => rows.find((row) => row.id === id)!.status);
  };
  const run = (now: Date) => moveCampaignStatuses(t.db.db, now);

  it('starts, ends and leaves alone as the dates say, on UTC days both included; audited by system', async () => {
    const ids = [
      await insert('PUBLISHED', '2031-03-01', '2031-03-31'), // starts on 1 March
      await insert('PUBLISHED', '2031-03-02', '2031-03-31'), // not yet
      await insert('ACTIVE', '2031-02-01', '2031-02-28'), // ended the day before
      await insert('ACTIVE', '2031-02-01', '2031-03-01'), // its last day
      await insert('PUBLISHED', '2031-02-01', '2031-02-28'), // published, and already over
      await insert('DRAFT', '2031-02-01', '2031-02-28'), // drafts are staff's
      await insert('COMPLETED', '2031-02-01', '2031-03-31'), // ended early by staff: stays so
    ];
    // The first minute of 1 March (UTC), whatever the server's time zone.
    const moves = await run(new Date('2031-03-01T00:00:30Z'));
    expect(await statuses(ids)).toEqual([
      'ACTIVE',
      'PUBLISHED',
      'COMPLETED',
      'ACTIVE',
      'COMPLETED',
      'DRAFT',
      'COMPLETED',
    ]);
    expect(moves).toHaveLength(3);

    const entries = await t.db.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.recordId, ids))
      .orderBy(asc(auditLog.id));
    expect(
      entries.map((entry) => [ids.indexOf(entry.recordId), entry.action, entry.before, entry.after, entry.actorId]),
    ).toEqual(
      expect.arrayContaining([
        [0, 'CAMPAIGN_STATUS_CHANGED', { status: 'PUBLISHED' }, { status: 'ACTIVE' }, null],
        [2, 'CAMPAIGN_STATUS_CHANGED', { status: 'ACTIVE' }, { status: 'COMPLETED' }, null],
        [4, 'CAMPAIGN_STATUS_CHANGED', { status: 'PUBLISHED' }, { status: 'COMPLETED' }, null],
      ]),
    );
    expect(entries).toHaveLength(3);
    expect(new Set(entries.map((entry) => entry.actorEmail))).toEqual(new Set(['system']));

    // The last second of 1 March: nothing more; the next day the rest moves on.
    expect(await run(new Date('2031-03-01T23:59:59Z'))).toEqual([]);
    await run(new Date('2031-03-02T00:00:00Z'));
    expect(await statuses(ids)).toEqual([
      'ACTIVE',
      'ACTIVE',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'DRAFT',
      'COMPLETED',
    ]);
  });

  it('moves each campaign once, however many runs there are at once (two nodes)', async () => {
    const ids = [
      await insert('PUBLISHED', '2032-01-01', '2032-01-31'),
      await insert('ACTIVE', '2031-12-01', '2031-12-31'),
    ];
    const now = new Date('2032-01-01T12:00:00Z');
    const runs = await Promise.all([run(now), run(now), run(now)]);
    const moved = runs.flat().filter((move) => ids.includes(move.id));
    expect(moved.map((move) => [ids.indexOf(move.id), move.to]).sort()).toEqual([
      [0, 'ACTIVE'],
      [1, 'COMPLETED'],
    ]);
    const entries = await t.db.db.select().from(auditLog).where(inArray(auditLog.recordId, ids));
    expect(entries).toHaveLength(2);
    expect(await run(now)).toEqual([]);
  });

  it('runs every minute and at start, one run at a time, with today’s date', async () => {
    expect(campaignStatusJob.options).toMatchObject({ schedule: '* * * * *', policy: 'stately', runAtStart: true });
    const yesterday = utcDay(new Date(Date.now() - DAY_MS));
    const started = await insert('PUBLISHED', yesterday, utcDay(new Date(Date.now() + 10 * DAY_MS)));
    const ended = await insert('ACTIVE', utcDay(new Date(Date.now() - 10 * DAY_MS)), yesterday);
    const handler = campaignStatusJob.worker(t.app.deps)!;
    await handler({}, { id: 'job-1', retryCount: 0 });
    expect(await statuses([started, ended])).toEqual(['ACTIVE', 'COMPLETED']);
  });

  it('has no work on a node without the campaign service, and rides along with other jobs', () => {
    const off = { config: { services: ['connect'] }, db: t.db.db } as unknown as Deps;
    expect(campaignStatusJob.worker(off)).toBeUndefined();
    const names: string[] = [];
    const queue = { register: (name: string) => names.push(name) } as never;
    const on = { config: { services: ['campaign'] }, db: t.db.db, runtime: {} } as unknown as Deps;
    expect(registerJobs(queue, on, [campaignStatusJob, outboxPruneJob])).toEqual([]);
    const tokenise = { deploys: true, deployJobAttempt: async () => 'done' };
    const busy = { ...on, runtime: { tokenise } } as unknown as Deps;
    expect(registerJobs(queue, busy, [campaignStatusJob, tokenDeployJob])).toEqual(['token-deploy', 'campaign-status']);
  });
});
