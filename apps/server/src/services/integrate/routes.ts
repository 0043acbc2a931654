import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../service-status.ts';

/** The integrate service (spec §7). Its endpoints arrive with the issues that build its area. */
export async function integrateService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'integrate', deps.config.version);
}
