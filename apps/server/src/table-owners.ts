/**
 * Who owns each table of packages/db/src/schema (issue 29 §2; docs/architecture.md, "Tables and
 * their owners"). Only the owner's repositories write a table — insert, update or delete, through
 * Drizzle or raw SQL; every other service asks the owner's face (its index.ts or module runtime,
 * in the caller's transaction when the two writes must commit together) or reacts to its events.
 * Reading another service's tables for a screen happens only in a declared read model
 * (read-models/), which writes nothing. apps/server/test/table-owners.test.ts holds all of it: a
 * table missing here, a write from a repository of another owner, a read model that writes.
 *
 * An owner is a service folder of services/ or `platform`: the shared plumbing every service
 * stands on (the outbox and its deliveries, the mail outbox, settings, platform keys and
 * transactions, the credit ledger, the document counters, the chain follower's cursors, staff
 * alerts, the card sandbox, the catalogues the seed writes).
 */
export const TABLE_OWNERS = {
  // The platform's plumbing.
  outbox_events: 'platform',
  event_deliveries: 'platform',
  mail_outbox: 'platform',
  app_settings: 'platform',
  platform_keys: 'platform',
  platform_transactions: 'platform',
  ledger_entries: 'platform',
  ledger_balances: 'platform',
  invoice_counters: 'platform',
  chain_cursors: 'platform',
  chain_blocks: 'platform',
  staff_alerts: 'platform',
  audit_log: 'platform',
  session_revocations: 'platform',
  card_sandbox_objects: 'platform',
  card_sandbox_events: 'platform',
  networks: 'platform',
  roles: 'platform',
  terms_versions: 'platform',
  content_updates: 'platform',
  footer_sections: 'platform',
  footer_links: 'platform',

  // The embedded identity provider.
  idp_users: 'identity',
  idp_codes: 'identity',
  idp_events: 'identity',
  idp_sessions: 'identity',
  idp_refresh_tokens: 'identity',
  idp_signing_keys: 'identity',

  // The portal's accounts and people, their notices, KYC, billing details and receipts.
  accounts: 'connect',
  users: 'connect',
  user_directory: 'connect',
  user_status_counts: 'connect',
  account_directory: 'connect',
  account_status_counts: 'connect',
  terms_acceptances: 'connect',
  contact_requests: 'connect',
  notifications: 'connect',
  notification_settings: 'connect',
  kyc_applicants: 'connect',
  kyc_checks: 'connect',
  billing_details: 'connect',
  receipts: 'connect',

  // What an account may have and how much of it is used (the entitlements module).
  account_features: 'entitlements',
  entitlement_overrides: 'entitlements',
  // Connect Beta (issue 35 §1): the catalogue, the invitations and the opt-ins that switch features on.
  beta_features: 'entitlements',
  beta_invitations: 'entitlements',
  beta_optins: 'entitlements',

  // Plans, their orders and the payments that settle them.
  rate_plans: 'account-plan',
  credit_bundles: 'account-plan',
  account_plans: 'account-plan',
  orders: 'account-plan',
  payments: 'account-plan',

  // Invoices, QNT and card payments.
  invoices: 'payment',
  invoice_lines: 'payment',
  invoice_closes: 'payment',
  deposit_addresses: 'payment',
  qnt_transfers: 'payment',
  qnt_payments: 'payment',
  deposit_sweeps: 'payment',
  card_customers: 'payment',
  card_intents: 'payment',
  card_charges: 'payment',
  card_webhook_events: 'payment',
  refunds: 'payment',
  credit_notes: 'payment',

  // Networks an account or application uses, applications, tokens, metered use.
  account_networks: 'integrate',
  private_networks: 'integrate',
  applications: 'application-manager',
  application_secrets: 'application-manager',
  application_networks: 'application-manager',
  application_directory: 'application-manager',
  application_network_directory: 'application-manager',
  application_list_counts: 'application-manager',
  token_tiers: 'tokenise',
  tokens: 'tokenise',
  gateway_usage_hourly: 'gateway',
  application_month_spend: 'gateway',
  usage_alerts: 'gateway',
  usage_records: 'usage',

  // Rewards (issue 34): campaigns, tasks, opt-ins, progress, claims.
  reward_campaigns: 'campaign',
  reward_tasks: 'campaign',
  reward_optins: 'campaign',
  reward_progress: 'campaign',
  reward_claims: 'campaign',
  reward_claim_events: 'campaign',
} as const;

export type TableOwner = (typeof TABLE_OWNERS)[keyof typeof TABLE_OWNERS];

/**
 * The owners of the repositories outside a service folder (a repository under services/<name>/
 * is <name>'s). A shared repository in repositories/ writing a service's tables is that service's,
 * kept there because the platform's own code (sign-in, start-up tasks) reaches it too.
 */
export const REPOSITORY_OWNERS: Record<string, TableOwner> = {
  'adapters/cards/sandbox/repository.ts': 'platform',
  'adapters/chains/follower/repository.ts': 'platform',
  'adapters/chains/sender/repository.ts': 'platform',
  'events/repository.ts': 'platform',
  'repositories/account-features.ts': 'entitlements',
  'repositories/account-plans.ts': 'account-plan',
  'repositories/account-recipients.ts': 'platform',
  'repositories/app-settings.ts': 'platform',
  'repositories/audit-log.ts': 'platform',
  'repositories/cap-alerts.ts': 'gateway',
  'repositories/identity-pool.ts': 'identity',
  'repositories/invoice-customers.ts': 'platform',
  'repositories/invoice-numbers.ts': 'platform',
  'repositories/ledger.ts': 'platform',
  'repositories/mail-outbox.ts': 'platform',
  'repositories/network-catalogue.ts': 'platform',
  'repositories/platform.ts': 'platform',
  'repositories/portal-users.ts': 'connect',
  'repositories/session-revocations.ts': 'platform',
  'repositories/staff-alerts.ts': 'platform',
  'repositories/trial-credits.ts': 'platform',
  'repositories/usage-records.ts': 'usage',
};
