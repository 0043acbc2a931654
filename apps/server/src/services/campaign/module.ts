import { sealedPlatformKey } from '../../lib/sealed-places.ts';
import type { ServiceModule } from '../../modules.ts';
import { subscribeActivities } from './activities.ts';
import { campaignStatusJob } from './campaign-status-job.ts';
import type { ClaimsRuntime } from './claim-routes.ts';
import { payoutCheckJob } from './payout-check-job.ts';
import { campaignService } from './routes.ts';
import { LOCAL_TREASURY_KEY } from './treasury.ts';

declare module '../../types.ts' {
  interface Runtime {
    /** Claims' payouts (claim-routes.ts publishes it): the start-up recovery and the in-flight check. */
    rewards?: ClaimsRuntime;
  }
}

/**
 * The campaign service (issue 34; spec §7 Campaigns and user-facing rewards): campaigns and their
 * tasks (staff), activities recorded from the outbox, opt-ins and progress, claims and their
 * payouts in QNT from the treasury. docs/decisions/rewards.md.
 */
export const campaignModule: ServiceModule = {
  name: 'campaign',
  service: 'campaign',
  routes: campaignService,
  codes: [
    'CAMPAIGN_NOT_FOUND',
    'TASK_NOT_FOUND',
    'CAMPAIGN_NOT_DRAFT',
    'CAMPAIGN_TRANSITION_REFUSED',
    'CAMPAIGN_NO_TASKS',
    'CAMPAIGN_ENDED',
    'CAMPAIGN_HAS_PARTICIPANTS',
    'TREASURY_SHORT',
    'TREASURY_UNAVAILABLE',
    'CAMPAIGN_NOT_OPEN',
    'REWARDS_NEED_QNT_PLAN',
    'CLAIM_BELOW_MINIMUM',
    'CLAIM_ABOVE_BALANCE',
    'CLAIM_NOT_FOUND',
    'CLAIM_NOT_PENDING',
  ],
  // (staff campaigns) jobs: the campaign status job
  jobs: [campaignStatusJob, payoutCheckJob],
  // (activities) subscribe: the activity recorders
  subscribe: ({ deps }) => subscribeActivities(deps.events, deps.db),
  // (claims) startup, start, stop: the treasury and the payouts
  startup: [
    {
      // After tokenise's reconciliation: the treasury funded (local chains), lost payouts sent again.
      name: 'recover reward payouts',
      run: async ({ runtime }) => runtime.rewards?.payouts.recover(),
    },
  ],
  sealed: [
    {
      what: `the rewards treasury's key on local chains (platform_keys ${LOCAL_TREASURY_KEY})`,
      ifLost: 'the QNT on the local treasury stays there: a new installation generates and funds a key of its own',
      read: sealedPlatformKey(LOCAL_TREASURY_KEY),
    },
  ],
};
