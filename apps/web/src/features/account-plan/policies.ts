/**
 * The policies the payment step asks the customer to agree to (spec §2, §5), published on the
 * company's site like the terms of use the footer and sign-up link to. The terms and conditions
 * link prefers the latest published terms the server answers (GET /terms-conditions/version).
 */
export const POLICY_URLS = {
  termsAndConditions: 'https://quant.network/terms-of-use/',
  acceptableUsePolicy: 'https://quant.network/acceptable-use-policy/',
  privacyPolicy: 'https://quant.network/privacy-policy/',
} as const;
