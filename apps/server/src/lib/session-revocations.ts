import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import { SessionRevocationRepository, type SessionRevocation } from '../repositories/session-revocations.ts';

/**
 * The sessions the API refuses before their access tokens expire: signed out (GlobalSignOut, the
 * API's sign-out, an administrator's sign-out or removal) or revoked (RevokeToken). "Token" here
 * is always the identity pool's access token, a JWT (services/identity/jwts.ts, or AWS Cognito's).
 *
 * Access tokens are verified without the identity pool, and a verified token is reused until it
 * expires (plugins/auth.ts), so a sign-out would otherwise reach the API only an hour later — and
 * with AWS Cognito never. Asking the database on every request would halve the API's throughput
 * (bench:api), so each node keeps the revocations in memory: checking a token is two Map lookups.
 * The node that records a revocation applies it at once; every node reads the ones recorded
 * elsewhere each `refreshMs` (1 s by default), so a sign-out reaches every node within about that.
 *
 * A revocation of one sign-in names its `origin_jti` (every token refreshed from that sign-in
 * carries it). A user's revocation refuses every token of theirs issued in an earlier second than
 * the revocation: tokens carry whole seconds, so a token of the same second may come from a sign-in
 * made just after it, which must work (as the pool's own check, `tokens_valid_after`). The sign-ins
 * alive at that moment are revoked by `origin_jti` as well where they are known, which covers the
 * tokens of that second too.
 */
export class SessionRevocations {
  /** Revoked sign-ins: origin_jti → when its last access token expires (ms). */
  private readonly sessions = new Map<string, number>();
  /** Revoked users: sub → tokens issued before `beforeSec` are refused, until `expiresAtMs`. */
  private readonly users = new Map<string, { beforeSec: number; expiresAtMs: number }>();
  private readonly repo: SessionRevocationRepository;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private inFlight: Promise<void> | undefined;
  private loadedOnce = false;

  constructor(
    db: Database,
    private readonly options: {
      /** The longest an access token of the pool lives: how long a revocation must be kept. */
      accessJwtLifetimeMs: number;
      /** How often the revocations recorded by other nodes are read. */
      refreshMs: number;
      log?: FastifyBaseLogger;
    },
  ) {
    this.repo = new SessionRevocationRepository(db);
  }

  /** Whether the access JWT's session or user has been revoked (the per-request check: no I/O). */
  isRevoked(accessJwt: { sub: string; originJti: string | undefined; issuedAt: number }): boolean {
    if (accessJwt.originJti !== undefined && this.sessions.has(accessJwt.originJti)) return true;
    const user = this.users.get(accessJwt.sub);
    return user !== undefined && accessJwt.issuedAt < user.beforeSec;
  }

  /** Revokes sign-ins of one user (RevokeToken): their tokens are refused from now on. */
  revokeSessions(sub: string, originJtis: string[], at: Date = new Date()): Promise<void> {
    return this.record(originJtis.map((originJti) => this.revocation(sub, originJti, at)));
  }

  /**
   * Revokes every token of the user issued before `at` (a global sign-out, a removal), and the
   * given sign-ins whatever their tokens' second (those alive at `at`, when the caller knows them).
   */
  revokeUser(sub: string, options: { sessions?: string[]; at?: Date } = {}): Promise<void> {
    const at = options.at ?? new Date();
    return this.record([
      this.revocation(sub, null, at),
      ...(options.sessions ?? []).map((originJti) => this.revocation(sub, originJti, at)),
    ]);
  }

  /** Loads the revocations (all of them the first time), then keeps reading them every `refreshMs`. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.refresh();
    this.schedule();
  }

  /** Stops reading; waits for a read in progress (the database may close right after). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /** Reads the revocations recorded lately (all of them the first time) and forgets the expired ones. */
  async refresh(now: Date = new Date()): Promise<void> {
    // A revocation recorded by another node becomes visible when its transaction commits, which may
    // be after later ones; re-reading the last few minutes also absorbs clocks that differ a little.
    const since = this.loadedOnce ? new Date(now.getTime() - RE_READ_MS) : undefined;
    const rows = await this.repo.live(now, since);
    this.loadedOnce = true;
    for (const row of rows) this.apply(row);
    const nowMs = now.getTime();
    for (const [key, expiresAtMs] of this.sessions) if (expiresAtMs <= nowMs) this.sessions.delete(key);
    for (const [key, user] of this.users) if (user.expiresAtMs <= nowMs) this.users.delete(key);
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.running) return;
      const run = this.refresh()
        .catch((err: unknown) => this.options.log?.warn({ err }, 'reading session revocations failed'))
        .finally(() => {
          if (this.inFlight === run) this.inFlight = undefined;
          if (this.running) this.schedule();
        });
      this.inFlight = run;
    }, this.options.refreshMs);
    // Tests build many apps, and a server stops by closing its app: the timer never holds the process.
    this.timer.unref();
  }

  private revocation(sub: string, originJti: string | null, at: Date): SessionRevocation {
    return { sub, originJti, revokedAt: at, expiresAt: new Date(at.getTime() + this.keepMs()) };
  }

  /** A token issued just before the revocation lives its lifetime; a minute more absorbs clock skew. */
  private keepMs(): number {
    return this.options.accessJwtLifetimeMs + 60_000;
  }

  private async record(rows: SessionRevocation[]): Promise<void> {
    // Applied here first: this node refuses the tokens even if the write fails, and the caller's
    // next request (to this node) is refused whatever the other nodes have read yet.
    for (const row of rows) this.apply(row);
    await this.repo.record(rows, new Date());
  }

  private apply(row: SessionRevocation): void {
    const expiresAtMs = row.expiresAt.getTime();
    if (row.originJti !== null) {
      this.sessions.set(row.originJti, Math.max(expiresAtMs, this.sessions.get(row.originJti) ?? 0));
      return;
    }
    const beforeSec = Math.floor(row.revokedAt.getTime() / 1000);
    const known = this.users.get(row.sub);
    this.users.set(row.sub, {
      beforeSec: Math.max(beforeSec, known?.beforeSec ?? 0),
      expiresAtMs: Math.max(expiresAtMs, known?.expiresAtMs ?? 0),
    });
  }
}

/** How far back each refresh re-reads (see refresh()). */
const RE_READ_MS = 5 * 60_000;
