/*
 * The customer's rewards pages (issue 34 §2), loaded as one chunk (app/router.tsx): the history
 * shares most of its parts (the reward state, the formats, the chips) with Rewards.
 */
export { RewardsHistoryPage } from './rewards-history.tsx';
export { RewardsPage } from './rewards.tsx';
