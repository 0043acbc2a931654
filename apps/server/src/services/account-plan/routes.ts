import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../service-status.ts';

/** The account-plan service (spec §7). Its endpoints arrive with the issues that build its area. */
export async function accountPlanService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'account-plan', deps.config.version);
}
