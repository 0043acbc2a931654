import { and, eq, inArray } from 'drizzle-orm';
import { tokens, type Database } from '@connect/db';

/*
 * What the platform's sender tells the token of its deployment transaction (the engine registers
 * the owner of `token:<id>`), kept apart from TokenRepository: written with the sender's own
 * database transaction, the one that marks the old platform_transactions row REPLACED.
 */

/**
 * The token's deployment transaction is now `hash` (a fee bump's replacement, or the original
 * mined after all) — only while its hash is one of `was`, so a token settled or sent again is
 * left alone.
 */
export async function moveTokenTxHash(db: Database, tokenId: string, hash: string, was: string[]): Promise<void> {
  if (!was.length) return;
  await db
    .update(tokens)
    .set({ txHash: hash, updatedAt: new Date() })
    .where(and(eq(tokens.id, tokenId), inArray(tokens.txHash, was)));
}
