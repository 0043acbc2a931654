/**
 * The tokenise service's public face: what other services (and tests) may use. Its routes, job and
 * start-up tasks reach the app through its module (module.ts). Another service imports from here,
 * never from the service's other files.
 */
export { tokeniseService, tokeniseTimings, type TokeniseRuntime } from './assembly.ts';
export type { Outcome as DeploymentOutcome } from './deployment.ts';
export { DEPLOY_JOB } from './scheduler.ts';
