/**
 * The tokenise service's public face: its plugin (app.ts) and what its job (src/jobs) and start-up
 * work (src/startup) use. Another service, a job or start-up work imports from here, never from
 * the service's other files.
 */
export { tokeniseService, tokeniseTimings, type TokeniseRuntime } from './assembly.ts';
export type { Outcome as DeploymentOutcome } from './deployment.ts';
export { DEPLOY_JOB } from './scheduler.ts';
