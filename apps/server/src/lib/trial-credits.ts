/**
 * Credits every account receives once, to try deployments on the local testnets (docs/decisions/tokens-and-chains.md, "Trial credits").
 * Granted through the ledger by repositories/trial-credits.ts when the account is created.
 */
export const TRIAL_CREDITS = 100;
export const TRIAL_CREDITS_REASON = 'Trial credits';

/**
 * The unique reference of an account's trial grant in the ledger. It keeps the prefix of the grant
 * Token Flow used to make on first use (the credit transactions moved into the ledger with their
 * references), so an account granted that way is never granted again.
 */
export function trialCreditsReference(accountId: string): string {
  return `trial:tokens:${accountId}`;
}
