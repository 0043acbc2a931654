/**
 * The entitlements module's face (issue 29 §4): what an account may do and how much is left.
 * A module without a service of its own: services ask it (Entitlements), guarded writes embed its SQL
 * (takeCounterSql, allowanceWhileInService, ALLOWANCES_RELATION), `GET /available` answers from
 * it, and connect registers Connect Beta's routes (betaRoutes) under its prefix. It owns
 * `entitlement_overrides`, the counters' `used` column and the `beta_*` tables.
 */
export { Entitlements, type Override, type Quota } from './service.ts';
export type { Allowances } from './repository.ts';
export {
  ALLOWANCE_KEYS,
  COUNTERS,
  SWITCHES,
  isSwitchKey,
  type AllowanceKey,
  type CountedKey,
  type EntitlementKey,
  type OverrideValue,
  type SwitchKey,
} from './keys.ts';
export {
  ALLOWANCES_RELATION,
  allowanceWhileInService,
  allowancesRelation,
  releaseCounterSql,
  takeCounterSql,
} from './repository-sql.ts';
export { isIdentityVerified, needsIdentityFor, requireVerifiedIdentity } from './identity.ts';
export { betaRoutes } from './beta-routes.ts';
export { networkAllowance, networkReason, selectionErrors, type NetworkAccount } from './networks.ts';
