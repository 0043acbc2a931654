/**
 * Credits every account receives once, to try deployments on the local testnets (docs/decisions.md).
 * Granted by repositories/trial-credits.ts when the account is created.
 */
export const TRIAL_CREDITS = 100;
export const TRIAL_CREDITS_REASON = 'Trial credits';

/**
 * The unique reference of an account's trial grant in credit_transactions. It keeps the prefix of
 * the grant Token Flow used to make on first use, so an account granted that way is never granted
 * again by the creation grant or the start-up backfill.
 */
export function trialCreditsReference(accountId: string): string {
  return `trial:tokens:${accountId}`;
}
