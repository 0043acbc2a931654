import type { ServiceModule } from '../../modules.ts';

/**
 * Entitlements (issue 29 §4): what an account may do and how much is left — the plan's allowances
 * with the account's overrides, the feature map, mainnets' identity check. No routes of its own:
 * services ask its face (index.ts) in their own transactions, `GET /api/connect/available` answers
 * from it, and the staff console (issue 33) will set overrides through it. Owns
 * `entitlement_overrides` and the counters of `account_features`.
 */
export const entitlementsModule: ServiceModule = {
  name: 'entitlements',
  codes: ['FEATURE_UNAVAILABLE', 'IDENTITY_VERIFICATION_REQUIRED', 'IDENTITY_VERIFICATION_PENDING'],
};
