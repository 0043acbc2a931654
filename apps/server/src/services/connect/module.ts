import type { ServiceModule } from '../../modules.ts';
import { subscribeNotifications } from './index.ts';
import type { KycService } from './kyc-service.ts';
import { connectService } from './routes.ts';

declare module '../../types.ts' {
  interface Runtime {
    /** Identity checks left pending by a previous run, resumed by the start-up work. */
    kyc?: Pick<KycService, 'resume'>;
  }
}

/**
 * The connect service (spec §7): users, profiles, terms, identity verification, notifications and
 * the mails of the whole product. Its runtime face (deps.runtime.kyc) is published by
 * kyc-routes.ts.
 */
export const connectModule: ServiceModule = {
  name: 'connect',
  service: 'connect',
  routes: connectService,
  subscribe: ({ deps }) =>
    subscribeNotifications(deps.events, {
      db: deps.db,
      mailer: deps.mailer,
      productSlug: deps.config.productSlug,
      publicUrl: deps.config.publicUrl,
    }),
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
    'IDENTITY_VERIFICATION_REQUIRED',
    'IDENTITY_VERIFICATION_PENDING',
    'NOTIFICATION_NOT_FOUND',
    'INVOICE_NOT_PAID',
    'VAT_NUMBER_INVALID',
  ],
};
