import type { ServiceModule } from '../../modules.ts';

/**
 * Entitlements (issue 29 §4): what an account may do and how much is left — the plan's allowances
 * with the account's overrides and beta opt-ins, the feature map, mainnets' identity check. No
 * service of its own: services ask its face (index.ts) in their own transactions, `GET
 * /api/connect/available` answers from it, the staff console (issue 33) sets overrides through it,
 * and connect serves Connect Beta's routes (beta-routes.ts, issue 35 §1) under its prefix. Owns
 * `entitlement_overrides`, the counters of `account_features` and the `beta_*` tables.
 */
export const entitlementsModule: ServiceModule = {
  name: 'entitlements',
  codes: [
    'FEATURE_UNAVAILABLE',
    'IDENTITY_VERIFICATION_REQUIRED',
    'IDENTITY_VERIFICATION_PENDING',
    'BETA_FEATURE_NOT_FOUND',
    'BETA_FEATURE_NAME_EXISTS',
  ],
};
