import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../service-status.ts';

/** The application-manager service (spec §7). Its endpoints arrive with the issues that build its area. */
export async function applicationManagerService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'application-manager', deps.config.version);
}
