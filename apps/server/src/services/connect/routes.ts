import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../service-status.ts';

/** The connect service (spec §7): users, terms, content, features, routes. */
export async function connectService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'connect', deps.config.version);
}
