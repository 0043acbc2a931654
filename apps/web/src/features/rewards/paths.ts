import { paths } from '../../config/paths.ts';

/** The routes of rewards (issue 34 §2); the router and the pages share them. */
export const rewardPaths = {
  rewards: paths.rewards,
  history: paths.rewardsHistory,
  /** The claim history tab, where a claim just made is followed. */
  claimHistory: `${paths.rewardsHistory}?tab=claims`,
  /** Where a customer without a paid plan bought with QNT gets one (the upgrade journey). */
  upgrade: paths.accountPlanUpgrade,
} as const;
