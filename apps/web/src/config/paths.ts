/**
 * Every path of the SPA, declared once (spec §2). `{product}` parts come from the runtime
 * configuration's product slug, so they are functions of it.
 */
export const paths = {
  root: '/',
  upgrade: '/upgrade',
  login: '/login',
  register: '/register',
  registerConfirmation: '/register/confirmation',
  registerConfirmed: '/register/confirmed',
  activation: '/activation',
  forgotPassword: '/forgot-password',
  forgotPasswordReset: '/forgot-password/reset',
  resetPasswordConfirmation: '/reset-password/confirmation',
  newPassword: '/new-password',
  mfaSubmit: '/mfa-submit',
  notFound: '/404',
  notFoundAlias: '/not-found',
  devMailbox: '/dev/mailbox',
  termsConditions: '/terms-conditions',
  userDetails: '/user-details',
  mfaSetup: '/mfa-setup',
  dashboard: '/dashboard',
  myAccount: '/my-account',
  myAccountKyc: '/my-account/kyc',
  myApplications: '/my-applications',
  registerApplication: '/my-applications/register-new-application',
  myApplicationsKyc: '/my-applications/kyc',
  myNetworks: '/my-networks',
  selectNewNetworks: '/my-networks/select-new-networks',
  connectPrivateNetwork: '/my-networks/connect-private-network',
  /** Usage (issue 17): `?applicationId=` opens it filtered to one application. */
  usage: '/usage',
  invoices: '/invoices/my-invoices',
  support: '/support',
  supportFaq: '/support/faq',
  supportHelp: '/support/help',
  documentation: '/documentation',
  accountPlanUpgrade: '/account-plan/upgrade',
  /** The card sandbox's authentication page (Stripe's test 3D Secure page stands in its place with Stripe). */
  cardSandboxAuthenticate: '/card-sandbox/authenticate',
  /** The staff console (issue 32, management-admin): users, and the audit log with the staff alerts. */
  userManagement: '/user-management',
  /** Account management (issue 33, management-sales). */
  accountManagement: '/account-management',
  /** Application management (issue 33 §2, management-admin): every account's applications. */
  applicationManagement: '/application-management',
  /** Subscription tiers (issue 33 §3, management-admin): the plan catalogue customers buy from. */
  subscriptionManagement: '/subscription-management',
  auditLog: '/audit-log',
  /** Private-network review (issue 33 §4, management-admin). */
  networkReview: '/network-review',
  /** Orders (issue 33 §5, management-admin): every account's orders, receipts and refunds. */
  orderManagement: '/order-management',
  /** Rewards staff screens (issue 34, management-admin): campaigns, a campaign's tasks, claims. */
  campaignManagement: '/campaign-management',
  taskManagement: (campaignId = ':campaignId') => `/campaign-management/${campaignId}`,
  claimManagement: '/claim-management',
  /** Connect Beta's catalogue (issue 35 §1, management-admin): beta features, their opt-ins and invitations. */
  betaManagement: '/beta-management',
  /** Connect Beta (spec §2.3, feature connectBeta; issue 35 §1): the beta features to opt in to. */
  betaFeatures: '/beta/features',
  /** Rewards (issue 34 §2, feature reward): campaigns, progress, the balance and claims. */
  rewards: '/rewards',
  /** The account's campaigns and claims; only for those who ever opted in. */
  rewardsHistory: '/rewards/history',
  flows: (slug: string) => `/${slug}-flows`,
  flowsKyc: (slug: string) => `/${slug}-flows/kyc`,
  tokenFlow: (slug: string) => `/${slug}-flows/token-flow`,
  tokenPayments: (slug: string) => `/${slug}-flows/token-flow/payments`,
  tokenSustainability: (slug: string) => `/${slug}-flows/token-flow/sustainability`,
  createSmartContract: (slug: string) => `/${slug}-flows/token-flow/deploy/create-new-smart-contract`,
  /** Coin details: `{type}` is the token type and `{tierCode}` the tier, the token itself is `?id=` (docs/decisions/tokens-and-chains.md). */
  coinDetails: (slug: string, type = ':type', tierCode = ':tierCode') =>
    `/${slug}-flows/token-flow/${type}/${tierCode}`,
  authorise: (slug: string) => `/${slug}-authorise`,
} as const;

/** Pages reachable without signing in (spec §2.1). */
export const PUBLIC_PATHS: readonly string[] = [
  paths.root,
  paths.upgrade,
  paths.login,
  paths.register,
  paths.registerConfirmation,
  paths.registerConfirmed,
  paths.activation,
  paths.forgotPassword,
  paths.forgotPasswordReset,
  paths.resetPasswordConfirmation,
  paths.newPassword,
  paths.mfaSubmit,
  paths.notFound,
  paths.notFoundAlias,
  paths.devMailbox,
];

/** Blank-layout pages: signed in, but before the main layout (spec §2.1). */
export const BLANK_PATHS: readonly string[] = [paths.termsConditions, paths.userDetails, paths.mfaSetup];

/** Where a signed-in user who opens a public page goes (spec §4 step 3; docs/decisions/shell-and-web.md). */
export const SIGNED_IN_HOME = paths.dashboard;

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.includes(stripTrailingSlash(pathname));
}

export function stripTrailingSlash(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}
