/**
 * Every module of the app, the one list it is assembled from (app.ts): adding a service is its
 * folder, with its module.ts, and one line here (modules.test.ts holds every folder to a line and
 * every service of SERVICES to a module).
 *
 * The order is the order the app uses them in: start-up tasks run in it (tokenise first: its
 * tiers are seeded before anything else starts) and subscribers are registered in it; the routes
 * under /api/<service> follow the node's SERVICES instead.
 */
import type { ServiceModule } from '../modules.ts';
import { accountPlanModule } from './account-plan/module.ts';
import { applicationManagerModule } from './application-manager/module.ts';
import { bridgeModule } from './bridge/module.ts';
import { campaignModule } from './campaign/module.ts';
import { connectModule } from './connect/module.ts';
import { entitlementsModule } from './entitlements/module.ts';
import { gatewayModule } from './gateway/module.ts';
import { identityModule } from './identity/module.ts';
import { integrateModule } from './integrate/module.ts';
import { paymentModule } from './payment/module.ts';
import { tokeniseModule } from './tokenise/module.ts';
import { usageModule } from './usage/module.ts';

export const MODULES: readonly ServiceModule[] = [
  tokeniseModule,
  connectModule,
  integrateModule,
  accountPlanModule,
  applicationManagerModule,
  bridgeModule,
  paymentModule,
  campaignModule,
  identityModule,
  gatewayModule,
  usageModule,
  entitlementsModule,
];
