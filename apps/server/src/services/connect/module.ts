import type { ServiceModule } from '../../modules.ts';
import { liveHubOf, subscribeNotifications } from './index.ts';
import { kycSettleJob } from './kyc-settle-job.ts';
import { pendingUsersPurgeJob } from './pending-users-purge-job.ts';
import { catalogueRoutes } from './catalogue-routes.ts';
import { connectService } from './routes.ts';

/**
 * The connect service (spec §7): users, profiles, terms, identity verification, notifications and
 * the mails of the whole product. Its runtime face (deps.runtime.kyc) is declared in kyc-service.ts
 * and published by kyc-routes.ts.
 */
export const connectModule: ServiceModule = {
  name: 'connect',
  service: 'connect',
  routes: connectService,
  // The product catalogue is part of the site, like the SPA and its runtime configuration: every
  // node serves it on the site's own origin, whatever SERVICES it serves (catalogue-routes.ts).
  scopes: [{ prefix: '/jsons', when: () => true, plugin: catalogueRoutes }],
  subscribe: ({ deps, log }) => {
    subscribeNotifications(deps.events, {
      db: deps.db,
      mailer: deps.mailer,
      productSlug: deps.config.productSlug,
      publicUrl: deps.config.publicUrl,
    });
    // The change stream's hub hears every node's commits (LISTEN on PostgreSQL) on every node, not
    // only where connect serves /live: a card confirmation waits on it (payment/card-settlement-wait.ts).
    liveHubOf(deps.db).attach(deps.dbh, log);
  },
  jobs: [kycSettleJob, pendingUsersPurgeJob],
  startup: [{ name: 'resume identity checks', run: async ({ runtime }) => runtime.kyc?.resume() }],
  codes: [
    'USER_NOT_FOUND',
    'TERMS_NOT_PUBLISHED',
    'TERMS_OUTDATED',
    'NAMES_LOCKED',
    'KYC_NAMES_MISSING',
    'KYC_ALREADY_VERIFIED',
    'KYC_CHECK_IN_PROGRESS',
    'KYC_SANDBOX_ONLY',
    'KYC_UNAVAILABLE',
    'KYC_PROVIDER_UNREACHABLE',
    'KYC_WEBHOOK_SIGNATURE',
    'NOTIFICATION_NOT_FOUND',
    'CATALOGUE_CREDENTIALS_REQUIRED',
    'CATALOGUE_PRODUCT_NOT_FOUND',
    'INVOICE_NOT_PAID',
    'VAT_NUMBER_INVALID',
    'STAFF_MFA_REQUIRED',
    'USER_EXISTS',
    'CANNOT_CHANGE_SELF',
    'LAST_ADMIN',
    'STAFF_ROLE_FOR_CUSTOMER',
    'USER_ALREADY_REMOVED',
    'USER_NOT_REMOVED',
    'USER_NOT_RESTORABLE',
    'IDENTITY_POOL_FAILED',
  ],
};
