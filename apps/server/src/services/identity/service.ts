import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import { z } from 'zod';
import type { Database, IdpCodePurpose } from '@connect/db';
import type { Mailer, MailMessage } from '../../adapters/mail/port.ts';
import type { CaptchaVerifier } from '../../lib/captcha.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { SessionRevocations } from '../../lib/session-revocations.ts';
import { resetCodeEmail, signUpCodeEmail } from './emails.ts';
import { COGNITO_MESSAGES as M, CognitoError, invalidParameter, limitExceeded, notAuthorized } from './errors.ts';
import type { KeyStore } from './keys.ts';
import { assertPasswordPolicy, hashPassword, verifyDummyPassword, verifyPassword } from './passwords.ts';
import type { PoolSettings } from './pool.ts';
import { IdentityRepository, type IdpAction, type IdpUser } from './repository.ts';
import { endEverySession, endSession } from './sign-out.ts';
import {
  ACCESS_TOKEN_SECONDS,
  createRefreshToken,
  hashToken,
  issueAuthentication,
  signTokenPair,
  type AuthenticationResult,
  type TokenSubject,
} from './tokens.ts';
import { generateTotpSecret, matchTotpStep } from './totp.ts';
import type {
  AttributeType,
  CodeDeliveryDetails,
  TAccessTokenOnly,
  TAssociateSoftwareToken,
  TChangePassword,
  TConfirmForgotPassword,
  TConfirmSignUp,
  TForgotPassword,
  TGetTokensFromRefreshToken,
  TInitiateAuth,
  TResendConfirmationCode,
  TRespondToAuthChallenge,
  TRevokeToken,
  TSetUserMFAPreference,
  TSignUp,
  TVerifySoftwareToken,
} from './wire.ts';

export type Clock = () => Date;

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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Cognito's limits and lifetimes (shared/reference/cognito-compat.md). */
export const POLICY = {
  signUpCodeMs: 24 * HOUR,
  resetCodeMs: HOUR,
  sessionMs: 3 * MINUTE,
  temporaryPasswordMs: 7 * 24 * HOUR,
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

type Challenge = 'SOFTWARE_TOKEN_MFA' | 'NEW_PASSWORD_REQUIRED' | 'MFA_SETUP';

export type SignInResult =
  | { AuthenticationResult: AuthenticationResult; ChallengeParameters: Record<string, string> }
  | { ChallengeName: Challenge; Session: string; ChallengeParameters: Record<string, string> };

/** Standard attributes a client may set on its own user; `custom:` attributes are allowed too. */
const WRITABLE_ATTRIBUTES = new Set([
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'address',
  'updated_at',
]);
/** Attributes only the pool itself sets. */
const PROTECTED_ATTRIBUTES = new Set(['sub', 'email_verified', 'phone_number_verified', 'identities']);

const isEmail = (value: string) => z.email().safeParse(value).success;

/** `alice@example.com` → `a***@e***.com`, as Cognito shows where a code went. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return `${email.slice(0, 1)}***`;
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return `${email[0]}***@${domain.slice(0, 1)}***${dot > 0 ? domain.slice(dot) : ''}`;
}

/**
 * The user pool's operations, one method per Cognito operation. Inputs are already shaped by
 * wire.ts; every refusal is a CognitoError with Cognito's exception name and message.
 */
export class IdentityService {
  private readonly repo: IdentityRepository;
  private readonly now: Clock;
  private readonly mfaConfiguration: MfaConfiguration;
  private readonly pepper: Buffer;

  constructor(private readonly deps: IdentityServiceDeps) {
    this.repo = new IdentityRepository(deps.db);
    this.now = deps.clock ?? (() => new Date());
    this.mfaConfiguration = deps.mfaConfiguration ?? 'OPTIONAL';
    this.pepper = createHash('sha256').update(`idp-codes:${deps.codePepper}`).digest();
  }

  // Sign-up

  async signUp(input: TSignUp) {
    this.assertClient(input.ClientId);
    const username = input.Username.toLowerCase();
    if (!isEmail(username)) throw invalidParameter('Username should be an email.');
    const attributes = writableAttributes(input.UserAttributes ?? [], 'email');
    const email = (input.UserAttributes?.find((a) => a.Name === 'email')?.Value ?? username).toLowerCase();
    if (email !== username) throw invalidParameter('The email attribute must be the same as the username.');
    assertPasswordPolicy(input.Password);
    // After the checks a browser already makes, before the pool says whether the email exists:
    // a solution is spent even when the sign-up then fails, so probing costs a proof of work each.
    if (this.deps.captcha) {
      const solution = input.ValidationData?.find((a) => a.Name === 'captcha')?.Value;
      if (!(await this.deps.captcha.verify(solution))) throw invalidParameter('Captcha verification failed.');
    }
    if (await this.repo.findUserByUsername(username)) throw usernameExists();
    const now = this.now();
    const user = await this.repo.insertUser({
      username,
      email,
      emailVerified: false,
      status: 'UNCONFIRMED',
      passwordHash: await hashPassword(input.Password),
      attributes,
      createdAt: now,
      updatedAt: now,
    });
    if (!user) throw usernameExists();
    const CodeDeliveryDetails = await this.sendCode(user, 'SIGN_UP');
    return { UserConfirmed: false, UserSub: user.sub, CodeDeliveryDetails };
  }

  async confirmSignUp(input: TConfirmSignUp) {
    this.assertClient(input.ClientId);
    const user = await this.repo.findUserByUsername(input.Username.toLowerCase());
    // Same answer as a wrong code: the pool does not say which usernames exist.
    if (!user) throw new CognitoError('CodeMismatchException', M.codeMismatch);
    if (user.status !== 'UNCONFIRMED') {
      throw notAuthorized(`User cannot be confirmed. Current status is ${user.status}`);
    }
    await this.countAction(user, 'CONFIRM_SIGN_UP');
    await this.useCode(user, 'SIGN_UP', input.ConfirmationCode);
    await this.repo.updateUser(user.sub, { status: 'CONFIRMED', emailVerified: true }, this.now());
    return {};
  }

  async resendConfirmationCode(input: TResendConfirmationCode) {
    this.assertClient(input.ClientId);
    const username = input.Username.toLowerCase();
    const user = await this.repo.findUserByUsername(username);
    if (!user) return { CodeDeliveryDetails: deliveryTo(username) };
    if (user.status !== 'UNCONFIRMED') throw invalidParameter(M.alreadyConfirmedResend);
    await this.countAction(user, 'RESEND_CODE');
    return { CodeDeliveryDetails: await this.sendCode(user, 'SIGN_UP') };
  }

  // Sign-in

  async initiateAuth(input: TInitiateAuth): Promise<SignInResult> {
    this.assertClient(input.ClientId);
    const parameters = input.AuthParameters ?? {};
    switch (input.AuthFlow) {
      case 'USER_PASSWORD_AUTH':
        return this.signInWithPassword(required(parameters, 'USERNAME'), required(parameters, 'PASSWORD'));
      case 'REFRESH_TOKEN_AUTH':
      case 'REFRESH_TOKEN': {
        const AuthenticationResult = await this.refresh(required(parameters, 'REFRESH_TOKEN'), { rotate: false });
        return { AuthenticationResult, ChallengeParameters: {} };
      }
      case 'USER_SRP_AUTH':
      case 'CUSTOM_AUTH':
      case 'USER_AUTH':
      case 'ADMIN_USER_PASSWORD_AUTH':
      case 'ADMIN_NO_SRP_AUTH':
        throw invalidParameter(`${input.AuthFlow} is not enabled for the client.`);
      default:
        throw invalidParameter(
          `1 validation error detected: Value '${input.AuthFlow}' at 'authFlow' failed to satisfy constraint: Member must satisfy enum value set: [USER_PASSWORD_AUTH, REFRESH_TOKEN_AUTH, REFRESH_TOKEN]`,
        );
    }
  }

  async getTokensFromRefreshToken(input: TGetTokensFromRefreshToken) {
    this.assertClient(input.ClientId);
    return { AuthenticationResult: await this.refresh(input.RefreshToken, { rotate: true }) };
  }

  async respondToAuthChallenge(input: TRespondToAuthChallenge): Promise<SignInResult> {
    this.assertClient(input.ClientId);
    const responses = input.ChallengeResponses ?? {};
    const username = required(responses, 'USERNAME');
    switch (input.ChallengeName) {
      case 'SOFTWARE_TOKEN_MFA':
        return this.answerTotpChallenge(input.Session, username, required(responses, 'SOFTWARE_TOKEN_MFA_CODE'));
      case 'NEW_PASSWORD_REQUIRED':
        return this.answerNewPasswordChallenge(input.Session, username, required(responses, 'NEW_PASSWORD'), responses);
      case 'MFA_SETUP': {
        const user = await this.openSession(input.Session, 'MFA_SETUP', username);
        if (!user.totpVerified) throw new CognitoError('SoftwareTokenMFANotFoundException', M.totpNotEnabled);
        await this.useSession(input.Session);
        return this.tokensFor(user);
      }
      default:
        throw invalidParameter(`The challenge ${input.ChallengeName} is not supported by this user pool.`);
    }
  }

  private async signInWithPassword(usernameInput: string, password: string): Promise<SignInResult> {
    const user = await this.repo.findUserByUsername(usernameInput.toLowerCase());
    if (!user) {
      await verifyDummyPassword(password);
      throw notAuthorized(M.incorrectCredentials);
    }
    const now = this.now();
    // A locked user is refused before the password is checked, and the refusal does not count,
    // so retrying during a lockout never makes it longer.
    if (isLocked(user, now)) throw notAuthorized(M.passwordAttemptsExceeded);
    if (!(await verifyPassword(user.passwordHash, password))) {
      await this.recordFailedSignIn(user);
      throw notAuthorized(M.incorrectCredentials);
    }
    await this.clearFailedSignIns(user);
    switch (user.status) {
      case 'UNCONFIRMED':
        throw new CognitoError('UserNotConfirmedException', M.userNotConfirmed);
      case 'RESET_REQUIRED':
        throw new CognitoError('PasswordResetRequiredException', 'Password reset required for the user');
      case 'FORCE_CHANGE_PASSWORD':
        if (user.passwordExpiresAt && user.passwordExpiresAt.getTime() <= now.getTime()) {
          throw notAuthorized(M.temporaryPasswordExpired);
        }
        return this.challenge(user, 'NEW_PASSWORD_REQUIRED', {
          USER_ID_FOR_SRP: user.username,
          requiredAttributes: '[]',
          userAttributes: JSON.stringify(
            Object.fromEntries(
              userAttributes(user)
                .filter((a) => a.Name !== 'sub')
                .map((a) => [a.Name, a.Value]),
            ),
          ),
        });
      case 'CONFIRMED':
        return this.afterPassword(user);
    }
  }

  /** The step after a correct (or newly chosen) password: an MFA challenge or the tokens. */
  private afterPassword(user: IdpUser): Promise<SignInResult> {
    const hasAuthenticator = user.totpVerified && !!user.totpSecret;
    const mfaRequired =
      this.mfaConfiguration === 'ON' ? hasAuthenticator : hasAuthenticator && user.mfaEnabled && user.mfaPreferred;
    if (mfaRequired) return this.challenge(user, 'SOFTWARE_TOKEN_MFA', { USER_ID_FOR_SRP: user.username });
    if (this.mfaConfiguration === 'ON') {
      return this.challenge(user, 'MFA_SETUP', {
        MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]',
        USER_ID_FOR_SRP: user.username,
      });
    }
    return this.tokensFor(user);
  }

  private async answerTotpChallenge(session: string, username: string, code: string): Promise<SignInResult> {
    const user = await this.openSession(session, 'SOFTWARE_TOKEN_MFA', username);
    const now = this.now();
    if (isLocked(user, now)) throw notAuthorized(M.passwordAttemptsExceeded);
    if (!user.totpSecret) throw notAuthorized(M.sessionInvalid);
    const step = matchTotpStep(this.deps.box.open(user.totpSecret), code, now);
    // A wrong code leaves the session usable (Amplify retries with it) but counts towards the
    // lockout, so the session's three minutes cannot be spent guessing codes.
    if (step === null) {
      await this.recordFailedSignIn(user);
      throw new CognitoError('CodeMismatchException', M.totpMismatch);
    }
    if (!(await this.repo.claimTotpStep(user.sub, step, now))) {
      throw new CognitoError('ExpiredCodeException', M.totpReplayed);
    }
    await this.useSession(session);
    await this.clearFailedSignIns(user);
    return this.tokensFor(user);
  }

  private async answerNewPasswordChallenge(
    session: string,
    username: string,
    newPassword: string,
    responses: Record<string, string>,
  ): Promise<SignInResult> {
    const user = await this.openSession(session, 'NEW_PASSWORD_REQUIRED', username);
    if (user.status !== 'FORCE_CHANGE_PASSWORD') throw notAuthorized(M.sessionInvalid);
    // Checked before the session is used, so a password the policy refuses can be corrected.
    assertPasswordPolicy(newPassword);
    const given = Object.entries(responses)
      .filter(([name]) => name.startsWith('userAttributes.'))
      .map(([name, Value]) => ({ Name: name.slice('userAttributes.'.length), Value }));
    const attributes = { ...user.attributes, ...writableAttributes(given, 'email') };
    await this.useSession(session);
    const patch = {
      status: 'CONFIRMED' as const,
      passwordHash: await hashPassword(newPassword),
      passwordExpiresAt: null,
      attributes,
    };
    await this.repo.updateUser(user.sub, patch, this.now());
    return this.afterPassword({ ...user, ...patch });
  }

  // Authenticator app (TOTP)

  async associateSoftwareToken(input: TAssociateSoftwareToken) {
    const secret = generateTotpSecret();
    const sealed = { pendingTotpSecret: this.deps.box.seal(secret) };
    if (input.Session !== undefined && input.AccessToken === undefined) {
      const user = await this.openSession(input.Session, 'MFA_SETUP');
      await this.useSession(input.Session);
      await this.repo.updateUser(user.sub, sealed, this.now());
      return { SecretCode: secret, Session: await this.createSession(user, 'MFA_SETUP') };
    }
    const user = await this.userForAccessToken(onlyAccessToken(input));
    // The new secret waits beside the current one: the authenticator in use keeps working until
    // the new one is verified, so an abandoned set-up never leaves the account without MFA.
    await this.repo.updateUser(user.sub, sealed, this.now());
    return { SecretCode: secret };
  }

  async verifySoftwareToken(input: TVerifySoftwareToken) {
    const viaSession = input.Session !== undefined && input.AccessToken === undefined;
    const user = viaSession
      ? await this.openSession(input.Session!, 'MFA_SETUP')
      : await this.userForAccessToken(onlyAccessToken(input));
    if (!user.pendingTotpSecret) throw new CognitoError('SoftwareTokenMFANotFoundException', M.totpNotAssociated);
    const now = this.now();
    const step = matchTotpStep(this.deps.box.open(user.pendingTotpSecret), input.UserCode, now);
    if (step === null) throw new CognitoError('EnableSoftwareTokenMFAException', M.totpSetupMismatch);
    if (!(await this.repo.claimTotpStep(user.sub, step, now))) {
      throw new CognitoError('ExpiredCodeException', M.totpReplayed);
    }
    const promoted = { totpSecret: user.pendingTotpSecret, pendingTotpSecret: null };
    if (!viaSession) {
      await this.repo.updateUser(user.sub, { ...promoted, totpVerified: true }, now);
      return { Status: 'SUCCESS' as const };
    }
    // Setting up during sign-in (MFA required) turns the authenticator on at once.
    await this.useSession(input.Session!);
    await this.repo.updateUser(
      user.sub,
      { ...promoted, totpVerified: true, mfaEnabled: true, mfaPreferred: true },
      now,
    );
    return { Status: 'SUCCESS' as const, Session: await this.createSession(user, 'MFA_SETUP') };
  }

  async setUserMfaPreference(input: TSetUserMFAPreference) {
    const user = await this.userForAccessToken(input.AccessToken);
    for (const other of [input.SMSMfaSettings, input.EmailMfaSettings]) {
      if (other?.Enabled || other?.PreferredMfa) {
        throw invalidParameter('Only software token MFA is available in this user pool.');
      }
    }
    const settings = input.SoftwareTokenMfaSettings;
    if (!settings) return {};
    const enabled = settings.PreferredMfa === true ? true : (settings.Enabled ?? user.mfaEnabled);
    if (enabled && !user.totpVerified) {
      throw new CognitoError('SoftwareTokenMFANotFoundException', M.totpNotEnabled);
    }
    const preferred = enabled && (settings.PreferredMfa ?? user.mfaPreferred);
    await this.repo.updateUser(user.sub, { mfaEnabled: enabled, mfaPreferred: preferred }, this.now());
    return {};
  }

  // Signed-in user

  async getUser(input: TAccessTokenOnly) {
    const user = await this.userForAccessToken(input.AccessToken);
    const totpOn = user.totpVerified && user.mfaEnabled;
    return {
      Username: user.username,
      UserAttributes: userAttributes(user),
      ...(totpOn ? { UserMFASettingList: ['SOFTWARE_TOKEN_MFA'] } : {}),
      ...(totpOn && user.mfaPreferred ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
    };
  }

  async changePassword(input: TChangePassword) {
    const user = await this.userForAccessToken(input.AccessToken);
    assertPasswordPolicy(input.ProposedPassword);
    await this.countAction(user, 'CHANGE_PASSWORD');
    if (!(await verifyPassword(user.passwordHash, input.PreviousPassword))) {
      throw notAuthorized(M.incorrectCredentials);
    }
    await this.repo.updateUser(user.sub, { passwordHash: await hashPassword(input.ProposedPassword) }, this.now());
    return {};
  }

  async globalSignOut(input: TAccessTokenOnly) {
    const user = await this.userForAccessToken(input.AccessToken);
    await this.signOutEverywhere(user);
    return {};
  }

  async revokeToken(input: TRevokeToken) {
    this.assertClient(input.ClientId);
    const row = await this.repo.findRefreshToken(hashToken(input.Token));
    // An unknown token gets the same empty answer (RFC 7009): nothing tells a caller what exists.
    if (row && row.clientId === input.ClientId) {
      await endSession(this.repo, this.deps.revocations, { sub: row.sub, originJti: row.originJti }, this.now());
    }
    return {};
  }

  // Forgotten password

  async forgotPassword(input: TForgotPassword) {
    this.assertClient(input.ClientId);
    const username = input.Username.toLowerCase();
    const user = await this.repo.findUserByUsername(username);
    if (!user) return { CodeDeliveryDetails: deliveryTo(username) };
    if (user.status === 'UNCONFIRMED') {
      throw invalidParameter(
        'Cannot reset password for the user as there is no registered/verified email or phone_number',
      );
    }
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      throw notAuthorized('User password cannot be reset in the current state.');
    }
    await this.countAction(user, 'FORGOT_PASSWORD');
    return { CodeDeliveryDetails: await this.sendCode(user, 'FORGOT_PASSWORD') };
  }

  async confirmForgotPassword(input: TConfirmForgotPassword) {
    this.assertClient(input.ClientId);
    assertPasswordPolicy(input.Password);
    const user = await this.repo.findUserByUsername(input.Username.toLowerCase());
    if (!user) throw new CognitoError('CodeMismatchException', M.codeMismatch);
    await this.countAction(user, 'CONFIRM_FORGOT_PASSWORD');
    await this.useCode(user, 'FORGOT_PASSWORD', input.ConfirmationCode);
    const now = this.now();
    await this.repo.updateUser(
      user.sub,
      {
        passwordHash: await hashPassword(input.Password),
        passwordExpiresAt: null,
        status: 'CONFIRMED',
        // The code arrived by email: the address is proven, and so is the owner, who is unlocked.
        emailVerified: true,
        failedSignIns: 0,
        lastFailedSignInAt: null,
        lockedUntil: null,
      },
      now,
    );
    // Unlike Cognito, a reset also ends the user's other sessions: people reset a password when
    // they fear someone else knows it.
    await this.signOutEverywhere(user);
    return {};
  }

  // Building blocks

  private assertClient(clientId: string): void {
    if (clientId !== this.deps.pool.clientId) {
      throw new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`);
    }
  }

  private async signOutEverywhere(user: IdpUser): Promise<void> {
    await endEverySession(this.repo, this.deps.revocations, user.sub, this.now());
  }

  /** Counts an attempt against the user's hourly limit for the action, refusing past it. */
  private async countAction(user: IdpUser, action: IdpAction): Promise<void> {
    const now = this.now();
    const hourAgo = new Date(now.getTime() - HOUR);
    if ((await this.repo.countEvents(user.sub, action, hourAgo)) >= POLICY.perHour[action]) throw limitExceeded();
    await this.repo.recordEvent(user.sub, action, now, hourAgo);
  }

  private codeHash(user: IdpUser, purpose: IdpCodePurpose, code: string): Buffer {
    return createHmac('sha256', this.pepper).update(`${purpose}:${user.sub}:${code}`).digest();
  }

  private async sendCode(user: IdpUser, purpose: IdpCodePurpose): Promise<CodeDeliveryDetails> {
    const code = String(randomInt(1_000_000)).padStart(6, '0');
    const now = this.now();
    const lifetime = purpose === 'SIGN_UP' ? POLICY.signUpCodeMs : POLICY.resetCodeMs;
    const hash = this.codeHash(user, purpose, code).toString('base64url');
    await this.repo.replaceCode(user.sub, purpose, hash, new Date(now.getTime() + lifetime), now);
    const message: MailMessage =
      purpose === 'SIGN_UP'
        ? signUpCodeEmail(this.deps.product, user.email, code)
        : resetCodeEmail(this.deps.product, user.email, code);
    await this.deps.mailer.send(message);
    return deliveryTo(user.email);
  }

  /** Accepts the user's latest code for the purpose once, or refuses it as Cognito does. */
  private async useCode(user: IdpUser, purpose: IdpCodePurpose, code: string): Promise<void> {
    const latest = await this.repo.findLatestCode(user.sub, purpose);
    const expected = latest ? Buffer.from(latest.codeHash, 'base64url') : undefined;
    const given = this.codeHash(user, purpose, code.trim());
    if (!latest || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new CognitoError('CodeMismatchException', M.codeMismatch);
    }
    const now = this.now();
    if (latest.expiresAt.getTime() <= now.getTime()) throw new CognitoError('ExpiredCodeException', M.codeExpired);
    if (!(await this.repo.useCode(latest.id, now))) throw new CognitoError('CodeMismatchException', M.codeMismatch);
  }

  private async recordFailedSignIn(user: IdpUser): Promise<void> {
    const now = this.now();
    const failures = await this.repo.recordFailedSignIn(user.sub, now, new Date(now.getTime() - POLICY.lockoutQuietMs));
    if (failures < POLICY.lockoutAfterFailures) {
      // A count that restarted after a quiet period also drops the old, elapsed lockout.
      if (user.lockedUntil) await this.repo.updateUser(user.sub, { lockedUntil: null }, now);
      return;
    }
    const seconds = Math.min(2 ** (failures - POLICY.lockoutAfterFailures), POLICY.lockoutMaxSeconds);
    await this.repo.updateUser(user.sub, { lockedUntil: new Date(now.getTime() + seconds * 1000) }, now);
  }

  private async clearFailedSignIns(user: IdpUser): Promise<void> {
    if (user.failedSignIns === 0 && !user.lockedUntil) return;
    await this.repo.updateUser(user.sub, { failedSignIns: 0, lastFailedSignInAt: null, lockedUntil: null }, this.now());
  }

  private async challenge(
    user: IdpUser,
    ChallengeName: Challenge,
    ChallengeParameters: Record<string, string>,
  ): Promise<SignInResult> {
    return { ChallengeName, Session: await this.createSession(user, ChallengeName), ChallengeParameters };
  }

  private async createSession(user: IdpUser, challenge: Challenge): Promise<string> {
    const session = randomBytes(48).toString('base64url');
    const now = this.now();
    await this.repo.insertSession({
      idHash: hashToken(session),
      sub: user.sub,
      challenge,
      expiresAt: new Date(now.getTime() + POLICY.sessionMs),
      now,
    });
    return session;
  }

  /** The user a live challenge session belongs to; the session stays unused. */
  private async openSession(session: string, challenge: Challenge, username?: string): Promise<IdpUser> {
    const row = await this.repo.findSession(hashToken(session));
    if (!row || row.challenge !== challenge) throw notAuthorized(M.sessionInvalid);
    if (row.usedAt) throw notAuthorized(M.sessionUsed);
    if (row.expiresAt.getTime() <= this.now().getTime()) throw notAuthorized(M.sessionExpired);
    const user = await this.repo.findUserBySub(row.sub);
    if (!user) throw notAuthorized(M.sessionInvalid);
    if (username !== undefined) {
      const name = username.toLowerCase();
      if (name !== user.username && name !== user.sub) throw notAuthorized(M.sessionInvalid);
    }
    return user;
  }

  private async useSession(session: string): Promise<void> {
    if (!(await this.repo.useSession(hashToken(session), this.now()))) {
      const row = await this.repo.findSession(hashToken(session));
      throw notAuthorized(row && !row.usedAt ? M.sessionExpired : M.sessionUsed);
    }
  }

  private async tokensFor(user: IdpUser): Promise<SignInResult> {
    const { db, keys, pool } = this.deps;
    const AuthenticationResult = await issueAuthentication(db, keys, pool, subjectOf(user), { now: this.now() });
    return { AuthenticationResult, ChallengeParameters: {} };
  }

  private async refresh(refreshToken: string, options: { rotate: boolean }): Promise<AuthenticationResult> {
    const { db, keys, pool } = this.deps;
    const now = this.now();
    const row = await this.repo.findRefreshToken(hashToken(refreshToken));
    if (!row || row.clientId !== pool.clientId) throw notAuthorized(M.invalidRefreshToken);
    if (row.revokedAt) throw notAuthorized(M.revokedRefreshToken);
    if (row.expiresAt.getTime() <= now.getTime()) throw notAuthorized(M.expiredRefreshToken);
    // A token already rotated is spent: the client holds its successor.
    if (row.replacedAt) throw notAuthorized(M.invalidRefreshToken);
    const user = await this.repo.findUserBySub(row.sub);
    if (!user) throw notAuthorized(M.userDoesNotExist);
    let RefreshToken: string | undefined;
    if (options.rotate) {
      if (!(await this.repo.replaceRefreshToken(row.id, now))) throw notAuthorized(M.invalidRefreshToken);
      RefreshToken = await createRefreshToken(db, {
        sub: row.sub,
        clientId: row.clientId,
        originJti: row.originJti,
        authTime: row.authTime,
        expiresAt: row.expiresAt,
        now,
      });
    }
    // The refreshed pair belongs to the same sign-in: same auth_time and origin_jti.
    const pair = await signTokenPair(keys, pool, subjectOf(user), {
      authTime: Math.floor(row.authTime.getTime() / 1000),
      originJti: row.originJti,
      now: Math.floor(now.getTime() / 1000),
    });
    return { ...pair, ...(RefreshToken ? { RefreshToken } : {}), ExpiresIn: ACCESS_TOKEN_SECONDS, TokenType: 'Bearer' };
  }

  /** The user behind an access token the pool issued, unless it expired or was revoked. */
  private async userForAccessToken(token: string): Promise<IdpUser> {
    const { keys, pool } = this.deps;
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys.verificationKeys, {
        issuer: pool.issuer,
        algorithms: ['RS256'],
        currentDate: this.now(),
      }));
    } catch (error) {
      throw notAuthorized(error instanceof joseErrors.JWTExpired ? M.expiredAccessToken : M.invalidAccessToken);
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    if (
      payload.token_use !== 'access' ||
      payload.client_id !== pool.clientId ||
      typeof payload.sub !== 'string' ||
      !scopes.includes('aws.cognito.signin.user.admin')
    ) {
      throw notAuthorized(M.invalidAccessToken);
    }
    const user = await this.repo.findUserBySub(payload.sub);
    if (!user) throw notAuthorized(M.userDoesNotExist);
    // GlobalSignOut and RevokeToken revoke the sign-in (origin_jti) the token came from; the
    // tokens_valid_after instant also covers tokens from sign-ins the pool no longer has rows for.
    const originJti = typeof payload.origin_jti === 'string' ? payload.origin_jti : undefined;
    const validAfter = user.tokensValidAfter ? Math.floor(user.tokensValidAfter.getTime() / 1000) : undefined;
    if (
      (validAfter !== undefined && Number(payload.iat ?? 0) < validAfter) ||
      (originJti !== undefined && (await this.repo.isFamilyRevoked(originJti)))
    ) {
      throw notAuthorized(M.revokedAccessToken);
    }
    return user;
  }
}

function required(parameters: Record<string, string>, name: string): string {
  const value = parameters[name];
  if (value === undefined || value === '') throw invalidParameter(`Missing required parameter ${name}`);
  return value;
}

function onlyAccessToken(input: { AccessToken?: string | undefined; Session?: string | undefined }): string {
  if (input.AccessToken === undefined || input.Session !== undefined) {
    throw invalidParameter('Exactly one of AccessToken and Session is required.');
  }
  return input.AccessToken;
}

function usernameExists(): CognitoError {
  return new CognitoError('UsernameExistsException', 'An account with the given email already exists.');
}

function isLocked(user: IdpUser, now: Date): boolean {
  return !!user.lockedUntil && user.lockedUntil.getTime() > now.getTime();
}

function deliveryTo(email: string): CodeDeliveryDetails {
  return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
}

/**
 * The attributes a client may write, as a map; refuses the ones only the pool sets and names the
 * schema does not have. `handledElsewhere` is accepted and left out (the email is the username).
 */
function writableAttributes(attributes: { Name: string; Value?: string | undefined }[], handledElsewhere: string) {
  const result: Record<string, string> = {};
  for (const { Name, Value } of attributes) {
    if (Name === handledElsewhere) continue;
    if (PROTECTED_ATTRIBUTES.has(Name) || Name.startsWith('cognito:')) {
      throw notAuthorized('A client attempted to write unauthorized attribute');
    }
    if (!WRITABLE_ATTRIBUTES.has(Name) && !Name.startsWith('custom:')) {
      throw invalidParameter(`Attribute does not exist in the schema: ${Name}`);
    }
    result[Name] = Value ?? '';
  }
  return result;
}

function userAttributes(user: IdpUser): AttributeType[] {
  return [
    { Name: 'sub', Value: user.sub },
    { Name: 'email', Value: user.email },
    { Name: 'email_verified', Value: String(user.emailVerified) },
    ...Object.entries(user.attributes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([Name, Value]) => ({ Name, Value })),
  ];
}

function subjectOf(user: IdpUser): TokenSubject {
  return {
    sub: user.sub,
    username: user.username,
    email: user.email,
    emailVerified: user.emailVerified,
    groups: user.groups,
  };
}
