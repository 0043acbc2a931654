/**
 * Every refusal the API makes, by machine code: its HTTP status and its message (spec §8 quoted
 * exactly where the spec words it; the rest decided, docs/decisions/foundations.md "Coded errors"). The server
 * answers each refusal as problem details with this `code`; the SPA decides what to show and do
 * from the code (apps/web/src/lib/problems.ts), never by comparing message text.
 *
 * A refusal may carry a more specific `detail` (which network, how many credits), but its code
 * and status are always the ones below. This module stays free of zod: the web's first screen
 * reads it through `@connect/shared/light`.
 *
 * The entries repeat one shape, `{ status, message }`, on purpose (the duplicate finder's worst
 * "same-shape" group, D1 in issue 29): this table is the catalogue itself, one entry per code,
 * each message written or quoted from the spec by hand; built from parts, it could not be read.
 */
export const PROBLEMS = {
  // ── Any request ────────────────────────────────────────────────────────────────────────────
  INVALID_REQUEST: { status: 400, message: 'The request is invalid.' },
  MALFORMED_REQUEST: { status: 400, message: 'The request could not be read.' },
  UNAUTHORIZED: { status: 401, message: 'A valid access token is required.' },
  TOKEN_EXPIRED: { status: 401, message: 'The access token has expired.' },
  TOKEN_INVALID: { status: 401, message: 'The access token is malformed or its signature does not verify.' },
  TOKEN_WRONG_ISSUER: { status: 401, message: 'The access token was issued by another identity pool.' },
  TOKEN_WRONG_USE: { status: 401, message: 'The token is not an access token for this application.' },
  SESSION_SIGNED_OUT: { status: 401, message: 'The session has been signed out.' },
  UNKNOWN_USER: { status: 401, message: 'The access token belongs to no user.' },
  FORBIDDEN: { status: 403, message: 'You do not have access to this resource.' },
  USER_REMOVED: { status: 403, message: 'This user has been removed.' },
  NOT_FOUND: { status: 404, message: 'The resource was not found.' },
  // ── Staff console (issue 32) ───────────────────────────────────────────────────────────────
  // 409, not 403: a 403 signs the SPA out (spec §8); this one sends the staff user to set up MFA.
  STAFF_MFA_REQUIRED: {
    status: 409,
    message: 'Staff accounts must set up an authenticator app before using the staff console.',
  },
  USER_EXISTS: { status: 409, message: 'A user with this email address already exists.' },
  CANNOT_CHANGE_SELF: { status: 409, message: 'You cannot remove or demote yourself.' },
  LAST_ADMIN: { status: 409, message: 'The last administrator cannot be removed or demoted.' },
  STAFF_ROLE_FOR_CUSTOMER: {
    status: 409,
    message: 'Staff roles are only for staff, and customer roles only for customers.',
  },
  USER_ALREADY_REMOVED: { status: 409, message: 'The user has been removed already.' },
  USER_NOT_REMOVED: { status: 409, message: 'Only a removed user can be restored.' },
  USER_NOT_RESTORABLE: {
    status: 409,
    message: 'The user was purged from the identity pool after 90 days pending: invite them again.',
  },
  IDENTITY_POOL_FAILED: {
    status: 502,
    message: 'The identity pool did not complete the change. Nothing else was changed; please try again.',
  },
  ROUTE_NOT_FOUND: { status: 404, message: 'There is no such route.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed here.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than the server accepts.' },
  URI_TOO_LONG: { status: 414, message: 'A path parameter is longer than the server accepts.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body has a content type the server does not accept.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please wait a moment and try again.' },
  INTERNAL_ERROR: {
    status: 500,
    message: 'The server could not complete the request. Quote the request id when contacting support.',
  },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not available at the moment.' },
  WEB_APP_NOT_BUILT: {
    status: 404,
    message: 'The web app has not been built. Run `npm run build` (npm start does it for you).',
  },

  // ── Users, terms and identity verification (connect) ───────────────────────────────────────
  USER_NOT_FOUND: { status: 404, message: 'The user was not found.' },
  TERMS_NOT_PUBLISHED: { status: 404, message: 'No terms and conditions have been published.' },
  TERMS_OUTDATED: {
    status: 400,
    message: 'These terms are not the latest version. Please reload and accept the latest terms.',
  },
  /** 409, not 400: the names are fine, the verified identity is what refuses them (spec §5). */
  NAMES_LOCKED: { status: 409, message: 'Your name cannot be changed after your identity has been verified.' },
  KYC_NAMES_MISSING: {
    status: 400,
    message: 'Please add your first and last name to your profile before verifying your identity.',
  },
  KYC_ALREADY_VERIFIED: { status: 409, message: 'Your identity is already verified.' },
  KYC_CHECK_IN_PROGRESS: {
    status: 409,
    message: 'A verification check is already in progress. It usually completes within about 24 hours.',
  },
  KYC_SANDBOX_ONLY: {
    status: 400,
    message: 'Document names and an outcome are only accepted by the sandbox verifier.',
  },
  KYC_UNAVAILABLE: {
    status: 503,
    message:
      'Identity verification is not available on this server yet. Please contact support to verify your identity.',
  },
  KYC_PROVIDER_UNREACHABLE: {
    status: 502,
    message: 'The identity verification service could not be reached. Please try again in a few minutes.',
  },
  KYC_WEBHOOK_SIGNATURE: { status: 401, message: 'The webhook signature is missing or invalid.' },
  /** Spec §5: mainnet networks, applications and tokens need a verified identity (409, not 403: a 403 signs the SPA out). */
  IDENTITY_VERIFICATION_REQUIRED: {
    status: 409,
    title: 'Identity verification required',
    message:
      'Mainnet networks, applications and tokens require a verified identity. Please verify your identity and try again.',
  },
  IDENTITY_VERIFICATION_PENDING: {
    status: 409,
    title: 'Identity verification required',
    message:
      'Mainnet networks, applications and tokens require a verified identity. Your verification is still in progress (about 24 hours).',
  },
  /** A notification id that is not the caller's (another user's is as good as unknown). */
  NOTIFICATION_NOT_FOUND: { status: 404, message: 'The notification was not found.' },
  // The product catalogue (/jsons, spec §7): basic authentication with the configured credentials.
  CATALOGUE_CREDENTIALS_REQUIRED: {
    status: 401,
    message: 'The product catalogue needs its configured user name and password (HTTP basic authentication).',
  },
  CATALOGUE_PRODUCT_NOT_FOUND: { status: 404, message: 'The product catalogue has no such product.' },

  // ── Networks and plans (integrate, account-plan) ──────────────────────────────────────────
  FEATURE_UNAVAILABLE: { status: 404, message: 'This feature is not available for your account.' },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'The account was not found.' },
  RATE_PLAN_NOT_FOUND: { status: 404, message: 'The plan was not found.' },
  CREDIT_BUNDLE_NOT_FOUND: { status: 404, message: 'The credit bundle was not found for this plan.' },
  ORDER_NOT_FOUND: { status: 404, message: 'The order was not found.' },
  /** An order already waits for its payment (spec §2: the upgrade guard while PENDING). */
  ORDER_PENDING: {
    status: 409,
    message: 'A payment for your plan is already in progress. It will be active once the payment is confirmed.',
  },
  PLAN_ALREADY_CURRENT: { status: 409, message: 'This is already your plan.' },
  /** Ordering a lower plan: downgrades are chosen on the plan page and apply at the renewal. */
  PLAN_NOT_AN_UPGRADE: {
    status: 409,
    message: 'This plan is lower than your current plan. Choose it on your plan page; it applies at your renewal.',
  },
  PAYMENT_METHOD_NOT_ACCEPTED: {
    status: 422,
    message: 'This plan cannot be paid that way. Choose another payment method.',
  },
  /** Paying, or withdrawing, an order already paid or withdrawn. */
  ORDER_NOT_PAYABLE: { status: 409, message: 'This order is not awaiting payment.' },
  /** Withdrawing a month's bill (a USAGE order): the credits it bills are used already. */
  ORDER_NOT_CANCELLABLE: {
    status: 409,
    message: 'A month’s bill is for credits already used: it cannot be withdrawn.',
  },
  /** Withdrawing an order part of which is paid (a bank transfer short of the total). */
  ORDER_PARTLY_PAID: { status: 409, message: 'Part of this order is paid already. Contact support to withdraw it.' },
  /** Refunding an order that neither a card payment nor a bank transfer paid (staff; QNT is not refunded here). */
  ORDER_HAS_NO_CARD_PAYMENT: {
    status: 409,
    message: 'No card payment or bank transfer paid this order, so nothing of it can be refunded here.',
  },
  /** A change of a plan that its state does not allow (the plans' state machine; staff and the sweeps). */
  PLAN_CHANGE_NOT_APPLICABLE: { status: 409, message: 'The plan is not in a state this change applies to.' },
  // ── Invoices (issue 18) ──
  INVOICE_NOT_FOUND: { status: 404, message: 'The invoice was not found.' },
  /** A receipt is made for a paid invoice only. */
  INVOICE_NOT_PAID: { status: 409, message: 'This invoice has not been paid yet, so it has no receipt.' },
  INVOICE_NOT_PAYABLE: { status: 409, message: 'This invoice is not awaiting payment.' },
  /** The month cannot be closed before its usage is (the hour close has not reached its end). */
  PERIOD_NOT_CLOSABLE: { status: 409, message: 'The period cannot be closed yet: its usage is still being counted.' },
  VAT_NUMBER_INVALID: {
    status: 422,
    message: 'This VAT number was not found in the VAT register. Check it, or leave it empty.',
  },
  /** Nothing new (applications, tokens, networks, gateway calls) while the plan is not in service. */
  PLAN_INACTIVE: { status: 403, message: 'Your plan is not active. Upgrade your plan to continue.' },
  /** Staff act for an account whose plan is out of service (not the caller's own plan: no 403, spec §8). */
  ACCOUNT_PLAN_NOT_IN_SERVICE: {
    status: 409,
    message: 'The account’s plan is not in service (ended, unpaid or disabled), so nothing can be created for it.',
  },
  /** Staff record a payment for the plan of an account whose plan they disabled. */
  ACCOUNT_PLAN_DISABLED: {
    status: 409,
    message: 'The account’s plan is disabled: enable it before recording a payment for its plan.',
  },
  /** A refund of an order that is not paid (staff). */
  ORDER_NOT_PAID: { status: 409, message: 'Only a paid order can be refunded.' },
  SUBSCRIPTION_NOT_CANCELLABLE: { status: 409, message: 'Only a paid plan that renews can be cancelled.' },
  TRIAL_NOT_EXTENDABLE: { status: 409, message: 'Only an account on the trial can have its trial extended.' },
  // ── Subscription tiers (issue 33 §3, staff) ──
  TIER_NOT_FOUND: { status: 404, message: 'The subscription tier was not found.' },
  /** Deleting a tier that an account, an order or an invoice names: it can only be retired. */
  TIER_IN_USE: {
    status: 409,
    message:
      'This tier is in use by accounts or orders, so it cannot be deleted. Retire it instead to stop selling it.',
  },
  /** Changing the plan type or tier of a tier in use: the accounts on it are billed by its type. */
  TIER_TYPE_FIXED: {
    status: 409,
    message: 'This tier is in use, so its plan type and tier cannot change. Create a new tier instead.',
  },
  TIER_NAME_EXISTS: { status: 409, message: 'Another subscription tier has this name.' },
  /** A reorder that does not list every tier once (another change since the page loaded). */
  TIER_ORDER_STALE: {
    status: 409,
    message: 'The tiers have changed since this page loaded. Reload the page and order them again.',
  },
  /** Removing a credit bundle that orders name (it can be repriced, or the tier retired). */
  CREDIT_BUNDLE_IN_USE: {
    status: 409,
    message: 'Customers have ordered this credit bundle, so it cannot be removed. Change its price instead.',
  },
  SUBSCRIPTION_NOT_CANCELLED: { status: 409, message: 'Your plan is not set to end.' },
  CREDITS_NOT_SOLD: {
    status: 409,
    message: 'Your plan does not sell credit bundles. Upgrade to the Annual Subscription.',
  },
  /** QNT payments need the QNT token's chain (QNT_TOKEN_ADDRESS, or the local chain's token). */
  QNT_PAYMENTS_UNAVAILABLE: {
    status: 503,
    message: 'QNT payments are not available right now. Please choose another method.',
  },
  /** spec §8, quoted exactly: a transaction that is not a QNT transfer to the order's address. */
  QNT_PAYMENT_INVALID: { status: 422, message: 'Something went wrong! please try again.' },
  /** Card payments need Stripe (STRIPE_* keys) or the embedded card sandbox. */
  CARD_PAYMENTS_UNAVAILABLE: {
    status: 503,
    message: 'Card payments are not available right now. Please choose another method.',
  },
  /** The card provider could not be reached or refused the request (not the card: that is a decline). */
  CARD_PROVIDER_ERROR: { status: 502, message: 'The card provider could not be reached. Please try again.' },
  CARD_INTENT_NOT_FOUND: { status: 404, message: 'The card payment was not found.' },
  /** Charging the saved card needs one: add a card in My account. */
  CARD_NOT_SAVED: { status: 409, message: 'No card is saved for this account. Add a card in My account.' },
  /** A refund beyond what was paid by card and not yet refunded. */
  REFUND_TOO_LARGE: { status: 422, message: 'The refund is larger than what is left to refund.' },
  /** A webhook whose Stripe-Signature does not verify. */
  CARD_WEBHOOK_INVALID: { status: 400, message: 'The webhook signature is not valid.' },
  NETWORK_NOT_FOUND: { status: 404, message: 'The network was not found.' },
  NETWORK_REMOVAL_REQUESTED: { status: 409, message: 'The removal of this network has already been requested.' },
  NETWORK_REMOVED: { status: 409, message: 'This network has already been removed.' },
  NETWORK_NOT_REMOVABLE: { status: 409, message: 'Only a network whose removal was requested can be removed.' },
  NETWORK_NOT_UNDER_REVIEW: { status: 409, message: 'Only a network under review can be approved or rejected.' },

  // ── Applications (application-manager) ────────────────────────────────────────────────────
  APPLICATION_NOT_FOUND: { status: 404, message: 'The application was not found.' },
  /** spec §8, quoted exactly: creating an application under a name the account already uses. */
  APPLICATION_EXISTS: {
    status: 409,
    message: 'This application already exists, please choose another application name',
  },
  /** spec §8, quoted exactly: the name check (POST /validate) and renaming. */
  APPLICATION_NAME_EXISTS: { status: 409, message: 'This application name already exists!' },
  APPLICATION_QUOTA_REACHED: {
    status: 409,
    message: 'You have registered all the applications your plan allows. Delete one or upgrade your plan.',
  },
  APPLICATION_TYPE_FIXED: { status: 400, message: 'The application type cannot be changed after creation.' },
  CLIENT_SECRET_NOT_FOUND: { status: 404, message: 'The client secret was not found.' },
  /** spec §8, quoted exactly. */
  NETWORKS_REQUIRED: { status: 400, message: 'Please select at least one of the available networks!' },
  APPLICATION_NETWORK_UNAVAILABLE: {
    status: 400,
    message: 'This network is not active for your account or not of the application’s type.',
  },

  // ── Tokens (tokenise) ──────────────────────────────────────────────────────────────────────
  TOKEN_NOT_FOUND: { status: 404, message: 'The token was not found.' },
  /** spec §8, quoted exactly: the no-networks guard (SPA: My networks with configureNetworks=true). */
  NETWORKS_NOT_CONFIGURED: { status: 409, message: 'Please configure your networks before you can deploy tokens' },
  /** spec §5: no tokens:create quota left (SPA: back to Token Flow). */
  TOKEN_QUOTA_REACHED: {
    status: 409,
    message: 'You have deployed all the tokens your plan allows. Upgrade your plan to deploy more.',
  },
  TOKEN_LOCATION_UNAVAILABLE: {
    status: 400,
    message: 'This network is not available to your account for token deployment',
  },
  TOKEN_TIER_UNAVAILABLE: {
    status: 400,
    message: 'This smart contract tier is not offered on this network for this deployment method',
  },
  TOKEN_TIER_TYPE: { status: 400, message: 'The chosen tier is not a tier of this token type' },
  NO_PLATFORM_DEPLOYER: {
    status: 400,
    message: 'The platform cannot deploy on this network: please deploy with your wallet',
  },
  INSUFFICIENT_CREDITS: {
    status: 409,
    message: 'Your account does not have enough credits for this deployment. Buy credits or choose another tier.',
  },
  EXTERNAL_ID_TAKEN: { status: 409, message: 'This deployment id (externalId) is already used for another token' },
  TOKEN_NOT_EDITABLE: { status: 409, message: 'Only a token whose deployment has not been sent yet can be edited' },
  TOKEN_STATUS_CHANGE: { status: 409, message: 'The token cannot change to this status.' },
  NOT_WALLET_DEPLOYMENT: { status: 409, message: 'Only a token deployed with the wallet reports its transaction hash' },
  TOKEN_ALREADY_TRACKED: { status: 409, message: 'This token already has a deployment transaction' },
  TX_HASH_TAKEN: { status: 409, message: 'This transaction is already tracked for another token' },
  DEPLOYMENT_NOT_CANCELLABLE: {
    status: 409,
    message: 'This deployment has been sent to the blockchain and can no longer be cancelled',
  },

  // ── Rewards (campaign, issue 34) ───────────────────────────────────────────────────────────
  CAMPAIGN_NOT_FOUND: { status: 404, message: 'The campaign was not found.' },
  TASK_NOT_FOUND: { status: 404, message: 'The task was not found.' },
  CAMPAIGN_NOT_DRAFT: { status: 409, message: 'Only a draft campaign can be changed or deleted.' },
  CAMPAIGN_TRANSITION_REFUSED: { status: 409, message: 'The campaign cannot move to this status.' },
  CAMPAIGN_NO_TASKS: {
    status: 409,
    message: 'A campaign needs at least one published task before it is published.',
  },
  CAMPAIGN_ENDED: { status: 409, message: 'The campaign’s end date has passed.' },
  CAMPAIGN_HAS_PARTICIPANTS: {
    status: 409,
    message: 'Customers have opted in to this campaign: it can no longer go back to draft.',
  },
  TREASURY_SHORT: {
    status: 409,
    message: 'The treasury does not hold this campaign’s budget beside what is already promised.',
  },
  TREASURY_UNAVAILABLE: {
    status: 503,
    message: 'Reward payouts are not configured or their network cannot be reached.',
  },
  CAMPAIGN_NOT_OPEN: { status: 409, message: 'This campaign is not open to opt in.' },
  // 409, not 403: a 403 signs the SPA out (spec §8).
  REWARDS_NEED_QNT_PLAN: { status: 409, message: 'Rewards are for customers on a paid plan bought with QNT.' },
  CLAIM_BELOW_MINIMUM: { status: 409, message: 'The claim is below the smallest amount that can be claimed.' },
  CLAIM_ABOVE_BALANCE: { status: 409, message: 'The claim is more than your reward balance.' },
  CLAIM_NOT_FOUND: { status: 404, message: 'The claim was not found.' },
  CLAIM_NOT_PENDING: { status: 409, message: 'The claim has already been paid, is being paid or was rejected.' },
  // ── Connect Beta (entitlements, issue 35 §1) ───────────────────────────────────────────────
  /** Also a feature the account may not opt in to (an invitation-only one it was not invited to). */
  BETA_FEATURE_NOT_FOUND: { status: 404, message: 'The beta feature was not found.' },
  BETA_FEATURE_NAME_EXISTS: { status: 409, message: 'Another beta feature has this name.' },
  // ── The platform API applications call (/oauth2/token, /api/gateway) ──────────────────────
  GATEWAY_TOKEN_REQUIRED: { status: 401, message: 'An access token from POST /oauth2/token is required.' },
  GATEWAY_TOKEN_INVALID: { status: 401, message: 'The access token is invalid or has expired.' },
  GATEWAY_SECRET_REVOKED: {
    status: 401,
    message: 'The client secret this token was issued for has been revoked or has expired.',
  },
  GATEWAY_NETWORK_UNKNOWN: { status: 404, message: 'There is no such network.' },
  GATEWAY_NETWORK_NOT_ASSOCIATED: { status: 403, message: 'This network is not associated with the application.' },
  GATEWAY_NETWORK_INACTIVE: { status: 403, message: 'This network is not active for the application’s account.' },
  GATEWAY_NO_RPC_ENDPOINT: { status: 503, message: 'This network has no RPC endpoint configured.' },
  GATEWAY_INVALID_RPC: {
    status: 400,
    message: 'The body must be a JSON-RPC 2.0 request or a batch of JSON-RPC 2.0 requests.',
  },
  GATEWAY_BATCH_TOO_LARGE: { status: 400, message: 'A batch may carry at most 100 calls. Send it in parts.' },
  GATEWAY_RATE_LIMITED: { status: 429, message: 'This network allows only so many requests per second per account.' },
  GATEWAY_SPENDING_CAP_REACHED: {
    status: 429,
    message: 'This application reached its monthly spending cap: raise the cap, or wait for the month to turn.',
  },
  UPSTREAM_TIMEOUT: { status: 502, message: 'The network’s RPC endpoint did not answer in time.' },
  UPSTREAM_TOO_LARGE: {
    status: 502,
    message: 'The network’s answer is too large to pass through the gateway; ask for less at once.',
  },
  UPSTREAM_UNREACHABLE: { status: 502, message: 'The network’s RPC endpoint could not be reached.' },
  UPSTREAM_NO_BLOCK_NUMBER: { status: 502, message: 'The network’s RPC endpoint did not tell its latest block.' },
} as const satisfies Record<string, { status: number; message: string; title?: string }>;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]];

/** The HTTP reason phrases the API's problems carry as `title`. */
export const PROBLEM_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The `title` a problem with this code carries: its own, else the status's reason phrase. */
export function problemTitle(code: ProblemCode): string {
  const entry: { status: number; title?: string } = PROBLEMS[code];
  return entry.title ?? PROBLEM_TITLES[entry.status] ?? 'Error';
}

/** The code of a problem body (or an error carrying one as `body`), when it names a known code. */
export function problemCodeOf(value: unknown): ProblemCode | null {
  const body =
    value && typeof value === 'object' && 'body' in value ? (value as { body: unknown }).body : (value as unknown);
  const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' && Object.hasOwn(PROBLEMS, code) ? (code as ProblemCode) : null;
}
