import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export type IdpUserStatus = 'UNCONFIRMED' | 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED';
export type IdpCodePurpose = 'SIGN_UP' | 'FORGOT_PASSWORD';

/** Users of the embedded Cognito-compatible pool. `sub` becomes the portal user's id. */
export const idpUsers = pgTable('idp_users', {
  sub: uuid('sub').primaryKey().defaultRandom(),
  username: text('username').notNull().unique(),
  email: text('email').notNull(),
  emailVerified: boolean('email_verified').notNull().default(false),
  status: text('status').$type<IdpUserStatus>().notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Temporary passwords (admin invitation) expire; null for passwords the user chose. */
  passwordExpiresAt: timestamp('password_expires_at', { withTimezone: true }),
  groups: text('groups').array().notNull().default([]),
  attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
  /** TOTP secret, encrypted with the configured key; verified once the user proved a code. */
  totpSecret: text('totp_secret'),
  /**
   * A secret from AssociateSoftwareToken not yet proven by a code. It replaces `totpSecret` only
   * when verified, so starting a new set-up never switches off the authenticator in use (as in Cognito).
   */
  pendingTotpSecret: text('pending_totp_secret'),
  totpVerified: boolean('totp_verified').notNull().default(false),
  mfaEnabled: boolean('mfa_enabled').notNull().default(false),
  mfaPreferred: boolean('mfa_preferred').notNull().default(false),
  /** Highest TOTP time step accepted, so a code cannot be replayed. */
  lastTotpStep: bigint('last_totp_step', { mode: 'number' }),
  failedSignIns: integer('failed_sign_ins').notNull().default(0),
  lastFailedSignInAt: timestamp('last_failed_sign_in_at', {
    withTimezone: true,
  }),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** Access tokens issued before this instant are refused by the pool (GlobalSignOut). */
  tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time codes (sign-up confirmation, password reset), stored as hashes. */
export const idpCodes = pgTable(
  'idp_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sub: uuid('sub')
      .notNull()
      .references(() => idpUsers.sub, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<IdpCodePurpose>().notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Wrong codes entered while this one was the latest: past the limit it stops working (issue 35 §5). */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('idp_codes_sub_purpose_idx').on(t.sub, t.purpose)],
);

/** Counted actions for Cognito's per-user limits (LimitExceededException). */
export const idpEvents = pgTable(
  'idp_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sub: uuid('sub')
      .notNull()
      .references(() => idpUsers.sub, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('idp_events_sub_action_idx').on(t.sub, t.action, t.at)],
);

/** Challenge sessions (MFA, new password, MFA setup): single use, 3 minutes. */
export const idpSessions = pgTable('idp_sessions', {
  id: text('id').primaryKey(),
  sub: uuid('sub')
    .notNull()
    .references(() => idpUsers.sub, { onDelete: 'cascade' }),
  challenge: text('challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Opaque refresh tokens, stored as hashes, revocable; rotation links old to new. */
export const idpRefreshTokens = pgTable(
  'idp_refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    sub: uuid('sub')
      .notNull()
      .references(() => idpUsers.sub, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    originJti: uuid('origin_jti').notNull(),
    authTime: timestamp('auth_time', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // By user and expiry: the sign-in that removes the user's expired tokens reads only those, not
    // every token the user holds (its insert took 0.27–0.45 ms of the database thread's CPU with
    // 1 000–3 000 of them, 0.18–0.24 ms with this index; issue 30).
    index('idp_refresh_tokens_sub_expires_idx').on(t.sub, t.expiresAt),
    index('idp_refresh_tokens_origin_idx').on(t.originJti),
  ],
);

/** RS256 signing keys; the private JWK is encrypted with the configured secret key. */
export const idpSigningKeys = pgTable('idp_signing_keys', {
  kid: text('kid').primaryKey(),
  privateJwkEncrypted: text('private_jwk_encrypted').notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sessions the API must refuse before their access tokens expire (GlobalSignOut, RevokeToken,
 * an administrator's sign-out or removal), also when the identity pool is AWS Cognito, which never
 * tells resource servers. One row per revoked sign-in (`originJti`), or per user with `originJti`
 * null: every token of `sub` issued at or before `revokedAt`. Each node keeps the rows whose
 * `expiresAt` (the last moment a token of that session could still be valid) is ahead in memory.
 */
export const sessionRevocations = pgTable(
  'session_revocations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sub: text('sub').notNull(),
    originJti: text('origin_jti'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('session_revocations_expires_idx').on(t.expiresAt),
    index('session_revocations_revoked_idx').on(t.revokedAt),
  ],
);
