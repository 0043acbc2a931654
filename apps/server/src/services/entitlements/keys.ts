import { FEATURE_SWITCHES, type FeatureName, type FeatureSwitch, type PlanAllowance } from '@connect/shared';

/**
 * What a plan allows, by key, with the `rate_plans` column each is read from (spec §9, issue 14).
 * The keys are also the override keys of a number (`entitlement_overrides.amount`).
 */
export const ALLOWANCE_COLUMNS = {
  applications: 'applications',
  tokens: 'tokens',
  /** Bridges: the plan catalogue sells them already; the bridge service counts them when it creates them. */
  bridges: 'bridges',
  /** Blockchains the account may use networks of; 0 means all (spec §9). */
  blockchains: 'blockchains',
  mainnets: 'mainnets',
  testnets: 'testnets',
  /** Requests a second on each network, shared by the account's applications (what the gateway enforces). */
  rateLimit: 'rate_limit',
} as const satisfies Record<PlanAllowance, string>;
export type AllowanceKey = keyof typeof ALLOWANCE_COLUMNS;
export const ALLOWANCE_KEYS = Object.keys(ALLOWANCE_COLUMNS) as AllowanceKey[];

/**
 * The counted allowances: the `account_features` counter that holds how many the account has
 * (spec §3's `a`), whose total (`t`) is the allowance.
 */
export const COUNTERS = {
  applications: 'applications:create',
  tokens: 'tokens:create',
  bridges: 'bridges:create',
} as const satisfies Partial<Record<AllowanceKey, FeatureName>>;
export type CountedKey = keyof typeof COUNTERS;

/** The switchable features of spec §6 (on or off per account): the override keys of `enabled`. */
export const SWITCHES = FEATURE_SWITCHES satisfies readonly FeatureName[];
export type SwitchKey = FeatureSwitch;

/** Every key an override may name. */
export type EntitlementKey = AllowanceKey | SwitchKey;

/** An override's value: a switch on or off, or an allowance's number. */
export type OverrideValue = { enabled: boolean } | { amount: number };

export function isAllowanceKey(key: string): key is AllowanceKey {
  return Object.hasOwn(ALLOWANCE_COLUMNS, key);
}

export function isSwitchKey(key: string): key is SwitchKey {
  return (SWITCHES as readonly string[]).includes(key);
}
