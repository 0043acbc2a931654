import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';

/** The bridge service (spec §7). Its endpoints arrive with the issues that build its area. */
export async function bridgeService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'bridge', deps.config.version);
}
