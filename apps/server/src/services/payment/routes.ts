import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';

/** The payment service (spec §7). Its endpoints arrive with the issues that build its area. */
export async function paymentService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'payment', deps.config.version);
}
