/**
 * The chain follower (issue 15 §3), built once for QNT payments, the bridges relayer and the
 * explorer: an owner describes what it follows (a `Follower`), adds it to `deps.followers` while
 * its service is assembled, and jobs/chain-follow.ts runs it on one node at a time. See
 * docs/architecture.md, "A chain follower".
 */
export type {
  ChainView,
  ConfirmedBlockLoss,
  ConfirmedBlockLostHook,
  FollowedLog,
  Follower,
  StepOptions,
  StepResult,
} from './types.ts';
export { FollowerRegistry, followerKey } from './registry.ts';
export { followStep, startHere, windowSize } from './step.ts';
export { CursorMovedError } from './repository.ts';
export { runFollower, lockKey, type RunOptions, type RunOutcome } from './run.ts';
