import { eq, sql } from 'drizzle-orm';
import { appSettings, type Database } from '@connect/db';

/** The only code that reads or writes `app_settings`: values the installation decides once and keeps. */
export class AppSettingRepository {
  constructor(private readonly db: Database) {}

  /** The stored value of `key`, or null when none is stored yet. */
  async find(key: string): Promise<string | null> {
    const [row] = await this.db.select().from(appSettings).where(eq(appSettings.key, key));
    return row?.value ?? null;
  }

  /** Stores `value` as `key`'s, replacing what was stored (a mark that moves: the usage close's `usage.closed_until`). */
  async set(key: string, value: string): Promise<void> {
    await this.db
      .insert(appSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: sql`now()` } });
  }

  /**
   * The stored value of `key`; the first caller stores `create()`. Nodes starting together may
   * race: the loser reads back the winner's value, so every node uses the same one.
   */
  async readOrCreate(key: string, create: () => string): Promise<string> {
    const [existing] = await this.db.select().from(appSettings).where(eq(appSettings.key, key));
    if (existing) return existing.value;
    await this.db.insert(appSettings).values({ key, value: create() }).onConflictDoNothing();
    const [stored] = await this.db.select().from(appSettings).where(eq(appSettings.key, key));
    return stored!.value;
  }
}
