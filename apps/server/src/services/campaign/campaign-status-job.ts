import type { Job } from '../../jobs/job.ts';
import { moveCampaignStatuses } from './campaigns.ts';

/** The queue of the campaigns' statuses (a pg-boss schedule queues it, and each start once). */
export const CAMPAIGN_STATUS_JOB = 'campaign-status';

/**
 * Every minute, and when the queue starts: published campaigns whose start date (a UTC day) has
 * come become ACTIVE; published or running ones whose end date has passed become COMPLETED
 * (campaigns.ts moveCampaignStatuses), audited by 'system'. Each move is an update conditional on
 * the status it leaves, so a run on two nodes, or a repeated run, moves nothing twice; `stately`
 * keeps to one run at a time all the same. Housekeeping: it rides on a node whose queue runs for
 * other work (every node with a chain). A node without a chain has no treasury, so no campaign
 * could have been published there.
 */
export const campaignStatusJob: Job<object> = {
  name: CAMPAIGN_STATUS_JOB,
  options: { policy: 'stately', schedule: '* * * * *', pollingIntervalSeconds: 30, runAtStart: true },
  housekeeping: true,
  worker: ({ config, db }) =>
    config.services.includes('campaign')
      ? async () => {
          await moveCampaignStatuses(db, new Date());
        }
      : undefined,
};
