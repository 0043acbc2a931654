import { createHash } from 'node:crypto';
import type { Database } from '@connect/db';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { CaptchaVerifier } from '../../lib/captcha.ts';
import { CognitoError, limitExceeded } from '../../lib/cognito-errors.ts';
import { endEverySession } from '../../lib/pool-sign-out.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { SessionRevocations } from '../../lib/session-revocations.ts';
import { IdentityPoolRepository, type IdpAction, type IdpUser } from '../../repositories/identity-pool.ts';
import { JwtIssuer } from './jwts.ts';
import type { KeyStore } from '../../lib/pool-keys.ts';
import type { PoolSettings } from '../../lib/pool-settings.ts';

export type Clock = () => Date;

/**
 * How an opaque value handed to a client (a refresh token, a challenge session) is stored: its
 * SHA-256, so the table alone never lets anyone act as the user.
 */
export function hashForStorage(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * 'OPTIONAL' is the product's pool: users may add an authenticator app. 'ON' makes every user set
 * one up at sign-in (the MFA_SETUP challenge), as a Cognito pool with MFA required does.
 */
export type MfaConfiguration = 'OPTIONAL' | 'ON';

export type IdentityServiceDeps = {
  db: Database;
  keys: KeyStore;
  pool: PoolSettings;
  mailer: Mailer;
  box: SecretBox;
  /** Where sign-outs and revocations are recorded, so the API refuses those sessions' tokens too. */
  revocations: SessionRevocations;
  product: { productName: string; publicUrl: string };
  /** Secret mixed into one-time code hashes: six digits alone are found from a hash in a second. */
  codePepper: string;
  clock?: Clock;
  mfaConfiguration?: MfaConfiguration;
  /** When set (SIGNUP_CAPTCHA=on), SignUp needs a solved captcha as ValidationData `captcha`. */
  captcha?: CaptchaVerifier;
};

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** Cognito's limits and lifetimes (shared/reference/cognito-compat.md), and the spec's. */
export const POLICY = {
  /** The activation code of the sign-up email: 24 hours (spec §8), as Cognito's. */
  signUpCodeMs: 24 * HOUR,
  /** The password reset code: 24 hours (spec §8), where Cognito's lasts one. */
  resetCodeMs: 24 * HOUR,
  /**
   * Wrong codes a one-time code survives: the one that reaches the limit kills it, and even its
   * right digits are then refused until a new code is requested (ExpiredCodeException). A code
   * lives 24 hours: the hourly limits below alone would allow some 360 guesses at one code.
   */
  codeAttempts: 5,
  sessionMs: 3 * MINUTE,
  lockoutAfterFailures: 5,
  lockoutMaxSeconds: 900,
  lockoutQuietMs: 15 * MINUTE,
  perHour: {
    RESEND_CODE: 5,
    CONFIRM_SIGN_UP: 15,
    FORGOT_PASSWORD: 5,
    CONFIRM_FORGOT_PASSWORD: 10,
    CHANGE_PASSWORD: 5,
  } satisfies Record<IdpAction, number>,
} as const;

/**
 * What every operation of the pool works with: its dependencies, its tables, its clock, and the
 * few checks all flows share. The operations themselves live one concern per file (sign-up.ts,
 * sign-in.ts, sessions.ts, mfa.ts, password.ts, user.ts) as functions of this context.
 */
export class PoolContext {
  readonly repo: IdentityPoolRepository;
  readonly jwts: JwtIssuer;
  readonly now: Clock;
  readonly mfaConfiguration: MfaConfiguration;
  /** The key of one-time code hashes (codes.ts). */
  readonly pepper: Buffer;

  constructor(readonly deps: IdentityServiceDeps) {
    this.repo = new IdentityPoolRepository(deps.db);
    this.jwts = new JwtIssuer(deps.keys, deps.pool);
    this.now = deps.clock ?? (() => new Date());
    this.mfaConfiguration = deps.mfaConfiguration ?? 'OPTIONAL';
    this.pepper = createHash('sha256').update(`idp-codes:${deps.codePepper}`).digest();
  }

  assertClient(clientId: string): void {
    if (clientId !== this.deps.pool.clientId) {
      throw new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`);
    }
  }

  /** Counts an attempt against the user's hourly limit for the action, refusing past it. */
  async countAction(user: IdpUser, action: IdpAction): Promise<void> {
    const now = this.now();
    const hourAgo = new Date(now.getTime() - HOUR);
    if (!(await this.repo.takeEvent(user.sub, action, now, hourAgo, POLICY.perHour[action]))) throw limitExceeded();
  }

  signOutEverywhere(user: IdpUser): Promise<void> {
    return endEverySession(this.repo, this.deps.revocations, user.sub, this.now());
  }
}
