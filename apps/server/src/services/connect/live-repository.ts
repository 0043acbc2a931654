import { sql } from 'drizzle-orm';
import type { Database } from '@connect/db';

/** The channel an account's live change is notified on (every node's live hub listens). */
export const LIVE_CHANNEL = 'connect_live';

/**
 * Notifies LIVE_CHANNEL with `payload` in the caller's transaction: PostgreSQL delivers it at the
 * commit to every node's LISTEN (never when it rolls back). On PGlite nobody listens, and the
 * call costs one statement.
 */
export async function notifyLive(db: Database, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
}
