import { z } from 'zod';
import type { Database } from '@connect/db';
import { CognitoError, invalidParameter, usernameExists } from '../../lib/cognito-errors.ts';
import {
  assertPasswordPolicy,
  generateTemporaryPassword,
  hashPassword,
  TEMPORARY_PASSWORD_MS,
} from '../../lib/passwords.ts';
import { endEverySession } from '../../lib/pool-sign-out.ts';
import type { SessionRevocations } from '../../lib/session-revocations.ts';
import { IdentityPoolRepository, type IdpUser } from '../../repositories/identity-pool.ts';
import type { Mailer } from '../mail/port.ts';
import { invitationEmail } from './invitation-email.ts';
import type { IdentityAdmin, IdentityUser } from './port.ts';

export function toIdentityUser(row: IdpUser): IdentityUser {
  return {
    sub: row.sub,
    username: row.username,
    email: row.email,
    status: row.status,
    enabled: true,
    totpVerified: row.totpVerified,
    mfaPreferred: row.totpVerified && row.mfaEnabled && row.mfaPreferred,
    createdAt: row.createdAt,
  };
}

/** Attributes the pool keeps in columns of its own, never in `attributes`. */
const POOL_ATTRIBUTES = new Set(['sub', 'email', 'email_verified', 'username']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type EmbeddedIdentityAdminDeps = {
  db: Database;
  mailer: Mailer;
  /** Where sign-outs are recorded, so the API refuses the signed-out user's tokens too. */
  revocations: SessionRevocations;
  product: { productName: string; publicUrl: string };
  clock?: () => Date;
};

/**
 * Administration of the embedded pool (the same port as AWS Cognito's Admin* operations). It works
 * on the pool's tables directly, as AWS does behind its Admin* API: the /idp wire protocol
 * (services/identity) never offers these operations.
 */
export class EmbeddedIdentityAdmin implements IdentityAdmin {
  readonly mode = 'embedded' as const;
  private readonly repo: IdentityPoolRepository;
  private readonly now: () => Date;

  constructor(private readonly deps: EmbeddedIdentityAdminDeps) {
    this.repo = new IdentityPoolRepository(deps.db);
    this.now = deps.clock ?? (() => new Date());
  }

  async createUser(input: { email: string; password?: string; permanent?: boolean; groups?: string[] }) {
    const email = input.email.trim().toLowerCase();
    if (!z.email().safeParse(email).success) throw invalidParameter('Username should be an email.');
    if (input.permanent && input.password === undefined) {
      throw invalidParameter('A permanent password must be given.');
    }
    const password = input.password ?? generateTemporaryPassword();
    assertPasswordPolicy(password);
    const now = this.now();
    const row = await this.repo.insertUser({
      username: email,
      email,
      // An administrator vouches for the address; the invitation reaching it proves it again.
      emailVerified: true,
      status: input.permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD',
      passwordHash: await hashPassword(password),
      passwordExpiresAt: input.permanent ? null : new Date(now.getTime() + TEMPORARY_PASSWORD_MS),
      groups: input.groups ?? [],
      createdAt: now,
      updatedAt: now,
    });
    if (!row) throw usernameExists();
    if (!input.permanent) await this.deps.mailer.send(invitationEmail(this.deps.product, email, password));
    return { user: toIdentityUser(row), password };
  }

  async getUser(username: string): Promise<IdentityUser | null> {
    const row = await this.find(username);
    return row ? toIdentityUser(row) : null;
  }

  async deleteUser(username: string): Promise<void> {
    const row = await this.requireUser(username);
    // Ended first: the API learns which sign-ins were alive from the refresh tokens.
    await endEverySession(this.repo, this.deps.revocations, row.sub, this.now());
    // Codes, sessions and refresh tokens go with the user (foreign keys cascade).
    await this.repo.deleteUser(row.sub);
  }

  async signOut(user: { sub: string; username: string }): Promise<void> {
    // Every sign-in alive is named from its refresh tokens, the one asking included.
    const row = await this.requireUser(user.sub);
    await endEverySession(this.repo, this.deps.revocations, row.sub, this.now());
  }

  /** Merged into the pool user's attributes; the pool's own (sub, email, email_verified) are refused, as by AWS. */
  async updateAttributes(username: string, attributes: Record<string, string>): Promise<void> {
    for (const name of Object.keys(attributes)) {
      if (POOL_ATTRIBUTES.has(name)) throw invalidParameter(`Cannot modify the attribute ${name} here.`);
    }
    const row = await this.requireUser(username);
    await this.repo.updateUser(row.sub, { attributes: { ...row.attributes, ...attributes } }, this.now());
  }

  async resetMfa(username: string): Promise<void> {
    const row = await this.requireUser(username);
    await this.repo.updateUser(
      row.sub,
      {
        totpSecret: null,
        pendingTotpSecret: null,
        totpVerified: false,
        mfaEnabled: false,
        mfaPreferred: false,
        lastTotpStep: null,
      },
      this.now(),
    );
  }

  async listUsers(input: { limit: number; paginationToken?: string }) {
    const limit = Math.min(Math.max(Math.trunc(input.limit), 1), 60);
    const after = input.paginationToken === undefined ? undefined : decodeCursor(input.paginationToken);
    // One row more than asked tells whether another page exists.
    const rows = await this.repo.listUsers(limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      users: page.map(toIdentityUser),
      ...(rows.length > limit && last ? { paginationToken: encodeCursor(last.username) } : {}),
    };
  }

  /** By username (the email), or by sub as Cognito's Admin* operations also accept. */
  private async find(username: string): Promise<IdpUser | null> {
    const row = await this.repo.findUserByUsername(username.toLowerCase());
    if (row || !UUID.test(username)) return row;
    return this.repo.findUserBySub(username);
  }

  private async requireUser(username: string): Promise<IdpUser> {
    const row = await this.find(username);
    if (!row) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    return row;
  }
}

function encodeCursor(username: string): string {
  return Buffer.from(JSON.stringify({ after: username }), 'utf8').toString('base64url');
}

function decodeCursor(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof parsed.after === 'string') return parsed.after;
  } catch {
    // Falls through to the refusal below.
  }
  throw invalidParameter('The pagination token is invalid.');
}
