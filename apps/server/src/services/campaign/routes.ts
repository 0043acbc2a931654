import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import { campaignManagementRoutes } from './campaign-routes.ts';
import { claimRoutes } from './claim-routes.ts';
import { campaignCustomerRoutes } from './customer-routes.ts';

/** The campaign service (spec §7): each part registers its routes here. */
export async function campaignService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'campaign', deps.config.version);
  // (staff campaigns) campaign and task management, activities
  await campaignManagementRoutes(app, deps);
  // (activities) the customer's campaigns, opt-ins and progress
  await campaignCustomerRoutes(app, deps);
  // (claims) claims, the claim list, payouts, the treasury
  deps.runtime.rewards = await claimRoutes(app, deps);
}
