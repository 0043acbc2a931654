import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';

/** The campaign service (spec §7). Its endpoints arrive with the issues that build its area. */
export async function campaignService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'campaign', deps.config.version);
}
