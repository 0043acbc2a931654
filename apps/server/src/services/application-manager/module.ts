import type { ServiceModule } from '../../modules.ts';
import { applicationManagerService } from './routes.ts';
import { subscribeStaffCreationMail } from './staff-creation-mail.ts';

/**
 * The application-manager service (spec §7): applications and their client secrets (the usage
 * API is served under its prefix; the platform API applications call is the gateway module's).
 */
export const applicationManagerModule: ServiceModule = {
  name: 'application-manager',
  service: 'application-manager',
  routes: applicationManagerService,
  // The email of an application staff created for a user (issue 33 §2; management-routes.ts).
  subscribe: ({ deps }) =>
    subscribeStaffCreationMail(deps.events, {
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
      productName: deps.config.productName,
    }),
  codes: [
    'ACCOUNT_PLAN_NOT_IN_SERVICE',
    'APPLICATION_EXISTS',
    'APPLICATION_NAME_EXISTS',
    'APPLICATION_QUOTA_REACHED',
    'APPLICATION_TYPE_FIXED',
    'CLIENT_SECRET_NOT_FOUND',
    'NETWORKS_REQUIRED',
    'APPLICATION_NETWORK_UNAVAILABLE',
  ],
};
