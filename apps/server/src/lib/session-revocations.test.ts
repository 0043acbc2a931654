import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRevocations, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { SessionRevocations } from './session-revocations.ts';

const HOUR = 3_600_000;

describe('session revocations (per node, in memory)', () => {
  let db: DbHandle;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.close());

  const node = () => new SessionRevocations(db.db, { accessJwtLifetimeMs: HOUR, refreshMs: 1000 });
  const token = (sub: string, issuedAtMs: number, originJti = randomUUID()) => ({
    sub,
    originJti,
    issuedAt: Math.floor(issuedAtMs / 1000),
  });

  it("a user's revocation refuses tokens of earlier seconds, not a sign-in made in its second after it", async () => {
    const revocations = node();
    const sub = randomUUID();
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 400);
    await revocations.revokeUser(sub, { at });
    expect(revocations.isRevoked(token(sub, at.getTime() - 1000))).toBe(true);
    expect(revocations.isRevoked(token(sub, at.getTime() + 300))).toBe(false);
    expect(revocations.isRevoked(token(randomUUID(), at.getTime() - 1000))).toBe(false);
  });

  it('a named sign-in is refused whatever its second, and only that sign-in', async () => {
    const revocations = node();
    const sub = randomUUID();
    const revoked = token(sub, Date.now());
    await revocations.revokeSessions(sub, [revoked.originJti!]);
    expect(revocations.isRevoked(revoked)).toBe(true);
    expect(revocations.isRevoked({ ...revoked, issuedAt: revoked.issuedAt + 600 })).toBe(true);
    expect(revocations.isRevoked(token(sub, Date.now()))).toBe(false);
  });

  it('keeps a revocation as long as a token could outlive it, then forgets it in memory and in the table', async () => {
    const sub = randomUUID();
    const old = token(sub, Date.now() - 3 * HOUR);
    // Recorded two hours ago by another node: every token it refused has expired since.
    await db.db.insert(sessionRevocations).values({
      sub,
      originJti: old.originJti,
      revokedAt: new Date(Date.now() - 2 * HOUR),
      expiresAt: new Date(Date.now() - HOUR + 60_000),
    });
    const fresh = node();
    await fresh.refresh();
    expect(fresh.isRevoked(old)).toBe(false);

    const recorder = node();
    const live = token(sub, Date.now());
    await recorder.revokeSessions(sub, [live.originJti!]);
    const rows = await db.db.select().from(sessionRevocations);
    expect(rows.map((row) => row.originJti)).not.toContain(old.originJti);
    const row = rows.find((r) => r.originJti === live.originJti)!;
    // An access token lives an hour; a minute more absorbs clocks that differ.
    expect(row.expiresAt.getTime() - row.revokedAt.getTime()).toBe(HOUR + 60_000);
    await recorder.refresh(new Date(row.expiresAt.getTime() + 1));
    expect(recorder.isRevoked(live)).toBe(false);
  });
});
