import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../service-status.ts';

/** The tokenise service (spec §7). Its endpoints arrive with the issues that build its area. */
export async function tokeniseService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'tokenise', deps.config.version);
}
